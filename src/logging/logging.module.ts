/** Structured JSON logs (pino), one line per event; at info and below, with the request id on every line logged during a request and an access line per request. */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DynamicModule, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { LoggerModule } from 'nestjs-pino';
import { destination, DestinationStream, LevelWithSilent, levels } from 'pino';
import type { Options } from 'pino-http';
import type { SwitchboardConfig } from '../config/config.schema';
import { activeSpanIds } from '../tracing/trace-context';
import { tracingOn } from '../tracing/spans';
import { accessFields, isProbe, recordRequests } from './access-log';
import { AppLogger } from './app-logger';
import { requestSpanIds } from './request-spans';

/** Keeps each HTTP request's record for its access line (the API only: a worker's app has no HTTP adapter). */
@Injectable()
class AccessRecords implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (fastify) recordRequests(fastify);
  }
}

@Module({})
export class LoggingModule {
  static forRoot(log: SwitchboardConfig['log']): DynamicModule {
    const requestLines = logs(log.level, 'info');
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: pinoRoot(log),
          renameContext: 'module',
          forRoutes: requestLines ? ['*path'] : [],
        }),
      ],
      providers: [AppLogger, ...(requestLines ? [AccessRecords] : [])],
      exports: [AppLogger],
    };
  }
}

/**
 * Every Switchboard process's pino root, with or without an HTTP app (`switchboard mcp`): a
 * transport (pino-pretty) writes where its options say; plain JSON goes to the destination's fd.
 */
export function pinoRoot(log: SwitchboardConfig['log']): Options | [Options, DestinationStream] {
  const options = pinoOptions(log);
  return log.pretty ? options : [options, destination(fdOf(log))];
}

function fdOf(log: SwitchboardConfig['log']): 1 | 2 {
  return log.destination === 'stderr' ? 2 : 1;
}

function pinoOptions(log: SwitchboardConfig['log']): Options {
  const fd = fdOf(log);
  // Probes' lines are debug; at info they are not even built.
  const probeLevel: LevelWithSilent = logs(log.level, 'debug') ? 'debug' : 'silent';
  return {
    level: log.level,
    transport: log.pretty ? { target: 'pino-pretty', options: { singleLine: true, destination: fd } } : undefined,
    genReqId: (req) => (req as { id?: string }).id ?? randomUUID(),
    // On the root logger, not per request (`customProps` would make every request's logger pay for it).
    base: { service: 'switchboard', pid: process.pid, hostname: hostname() },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    customLogLevel: (req) => (isProbe(req) ? probeLevel : 'info'),
    customAttributeKeys: { reqId: 'requestId' },
    // The request id is the line's `requestId`; response headers (security headers, mostly) say nothing of the request.
    serializers: {
      req: (req) => ({ method: req.method, url: req.url }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
    wrapSerializers: true,
    quietReqLogger: true,
    customSuccessMessage: () => 'request completed',
    customSuccessObject: (req, _res, line) => ({ ...line, ...accessFields(req), ...requestSpanIds(req) }),
    customErrorObject: (req, _res, _error, line) => ({ ...line, ...accessFields(req), ...requestSpanIds(req) }),
    // Every line logged within a span names it; only when tracing is on, when there can be one.
    ...(tracingOn() && { mixin: activeSpanIds }),
  };
}

/**
 * Whether lines of `line` level are written at `level`. Request lines are info; above it the
 * per-request middleware would only cost: a child logger per request, the async context it runs
 * in, which hooks every promise, and the access record. Without it, warnings and errors logged
 * during a request carry no request id.
 */
function logs(level: SwitchboardConfig['log']['level'], line: 'info' | 'debug'): boolean {
  return level !== 'silent' && levels.values[level] <= levels.values[line];
}
