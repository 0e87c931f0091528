import type { LoggerService } from '@nestjs/common';
import { Logger, PinoLogger } from 'nestjs-pino';
import { destination } from 'pino';
import type { SwitchboardConfig } from '../config/config.schema';
import { pinoOptions } from '../logging/logging.module';

/**
 * `switchboard mcp`'s logger before (or without) an app: the same JSON lines as the server's, on
 * stderr, because stdout carries the protocol. An app created later logs through the same pino root.
 */
export function stderrJsonLogger(log: SwitchboardConfig['log']): LoggerService {
  const options = pinoOptions(log);
  const pinoHttp = log.pretty ? options : ([options, destination(2)] as const);
  return new Logger(new PinoLogger({ pinoHttp: pinoHttp as never, renameContext: 'module' }), { renameContext: 'module' });
}
