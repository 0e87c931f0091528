/** The operator console under /console: server-rendered pages, one script and one stylesheet, filled from the admin API. */
import { Module } from '@nestjs/common';
import { ConsoleAssetsController } from './console-assets.controller';
import { ConsoleFormBody } from './console-form-body';
import { ConsoleLoginController } from './console-login.controller';
import { ConsoleLogins } from './console-logins.service';
import { ConsolePagesController } from './console-pages.controller';

@Module({
  controllers: [ConsoleLoginController, ConsolePagesController, ConsoleAssetsController],
  providers: [ConsoleLogins, ConsoleFormBody],
})
export class ConsoleModule {}
