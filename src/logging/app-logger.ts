import { Injectable } from '@nestjs/common';
import { Logger } from 'nestjs-pino';

/** Nest's own account of a boot: each module initialized, each route mapped, the application starting and started. */
const NEST_BOOT_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/**
 * The logger every process's app logs through: nestjs-pino's, with Nest's boot lines (some 100 of
 * them) at debug, as the banner and the ready line say what an operator needs. Nest's logger passes
 * the context last.
 */
@Injectable()
export class AppLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    if (NEST_BOOT_CONTEXTS.has(optionalParams.at(-1) as string)) super.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}
