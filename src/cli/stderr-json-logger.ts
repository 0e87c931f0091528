import type { LoggerService } from '@nestjs/common';
import { Logger, PinoLogger } from 'nestjs-pino';
import type { SwitchboardConfig } from '../config/config.schema';
import { pinoRoot } from '../logging/logging.module';

/**
 * `switchboard mcp`'s logger before (or without) an app: the same JSON lines as the server's, on
 * stderr (`log.destination`), because stdout carries the protocol. An app created later logs
 * through the same pino root.
 */
export function stderrJsonLogger(log: SwitchboardConfig['log']): LoggerService {
  return new Logger(new PinoLogger({ pinoHttp: pinoRoot(log), renameContext: 'module' }), { renameContext: 'module' });
}
