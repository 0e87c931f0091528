/** Which Switchboard processes are alive (API replicas and workers), for the operator's overview. */
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import type { StorageMode } from '../config/storage-mode';
import { RedisService } from '../redis/redis.service';
import { LocalProcessPresence } from './local-process-presence';
import { PresenceRole, PROCESS_PRESENCE } from './process-presence.interface';
import { RedisProcessPresence } from './redis-process-presence';

@Global()
@Module({})
export class PresenceModule {
  /** Needs RedisModule when mode.shared is redis. */
  static forRoot(mode: StorageMode, role: PresenceRole): DynamicModule {
    const presence: Provider =
      mode.shared === 'redis'
        ? {
            provide: PROCESS_PRESENCE,
            inject: [RedisService],
            useFactory: (redis: RedisService) => new RedisProcessPresence(redis, role),
          }
        : { provide: PROCESS_PRESENCE, useValue: new LocalProcessPresence(role) };
    return { module: PresenceModule, providers: [presence], exports: [PROCESS_PRESENCE] };
  }
}
