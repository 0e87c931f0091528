/** Structured JSON logs (pino), one line per event; at info and below, with the request id on every line logged during a request. */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { destination, levels } from 'pino';
import type { Options } from 'pino-http';
import type { SwitchboardConfig } from '../config/config.schema';

@Module({})
export class LoggingModule {
  static forRoot(log: SwitchboardConfig['log']): DynamicModule {
    const fd = log.destination === 'stderr' ? 2 : 1;
    const options = pinoOptions(log);
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          // A transport (pino-pretty) writes where its options say; plain JSON goes to the fd given here.
          pinoHttp: log.pretty ? options : [options, destination(fd)],
          renameContext: 'module',
          forRoutes: logsRequests(log.level) ? ['*path'] : [],
        }),
      ],
    };
  }
}

/** The options of every Switchboard process's pino root, with or without an HTTP app (`switchboard mcp`). */
export function pinoOptions(log: SwitchboardConfig['log']): Options {
  const fd = log.destination === 'stderr' ? 2 : 1;
  return {
    level: log.level,
    transport: log.pretty ? { target: 'pino-pretty', options: { singleLine: true, destination: fd } } : undefined,
    genReqId: (req) => (req as { id?: string }).id ?? randomUUID(),
    // On the root logger, not per request (`customProps` would make every request's logger pay for it).
    base: { service: 'switchboard', pid: process.pid, hostname: hostname() },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    customAttributeKeys: { reqId: 'requestId' },
    serializers: { req: (req) => ({ id: req.id, method: req.method, url: req.url }) },
    wrapSerializers: true,
    quietReqLogger: true,
    customSuccessMessage: () => 'request completed',
  };
}

/**
 * Request lines are info; above it the per-request middleware would only cost: a child logger per
 * request, and the async context it runs in, which hooks every promise. Without it, warnings and
 * errors logged during a request carry no request id.
 */
function logsRequests(level: SwitchboardConfig['log']['level']): boolean {
  return level !== 'silent' && levels.values[level] <= levels.values.info;
}
