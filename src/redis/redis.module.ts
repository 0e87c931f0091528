/** Redis connections, present only when redis.url is configured (durable mode). */
import { DynamicModule, Global, Module } from '@nestjs/common';
import { RedisService } from './redis.service';

@Global()
@Module({})
export class RedisModule {
  static forRoot(enabled: boolean): DynamicModule {
    const providers = enabled ? [RedisService] : [];
    return { module: RedisModule, providers, exports: providers };
  }
}
