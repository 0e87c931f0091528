/** Outbound HTTP under the SSRF rules: every request the service makes to a URL it was given. */
import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import { OutboundUrlPolicy } from './outbound-url-policy';

@Global()
@Module({
  providers: [
    {
      provide: OutboundUrlPolicy,
      inject: [ConfigService],
      useFactory: (config: ConfigService<SwitchboardConfig, true>) =>
        new OutboundUrlPolicy({ allowHosts: config.get('outbound', { infer: true }).allow_hosts }),
    },
  ],
  exports: [OutboundUrlPolicy],
})
export class OutboundModule {}
