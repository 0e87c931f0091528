import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import type { SwitchboardConfig } from '../config/config.schema';
import { TaskEventBusManager } from './task-event-bus.manager';
import { ServerShuttingDownError } from './task-stream-interrupted.error';

/** Share of `server.shutdown_timeout_secs` that calls following tasks get to end on their own; the rest ends the others and closes the stores. */
const DRAIN_SHARE = 0.8;
/** How often connections are looked at for having fallen idle while the server closes. */
const IDLE_SWEEP_MS = 50;

/**
 * Drains the calls that follow tasks when the API shuts down. Once the HTTP server starts closing
 * (Fastify answers new requests 503), streams and blocking calls in flight go on until their turns
 * end, for up to 80% of `server.shutdown_timeout_secs`; those still open then end with
 * ServerShuttingDownError (HTTP 503, retryable), which names the task that goes on, and the server
 * finishes closing. Node's `server.close()` closes only the keep-alive connections idle at that
 * moment, so those whose last response ends later are closed as they fall idle. Processes without
 * HTTP (workers) leave their buses to the turns that read them.
 */
@Injectable()
export class ShutdownDrain implements OnModuleInit {
  private readonly logger = new Logger(ShutdownDrain.name);
  private readonly drainMs: number;

  constructor(
    private readonly buses: TaskEventBusManager,
    private readonly adapterHost: HttpAdapterHost,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.drainMs = config.get('server', { infer: true }).shutdown_timeout_secs * 1000 * DRAIN_SHARE;
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('preClose', async () => {
      await this.drain();
      closeConnectionsAsTheyFallIdle(fastify.server);
    });
  }

  private async drain(): Promise<void> {
    if (await this.buses.drain(this.drainMs)) return;
    const interrupted = this.buses.interruptAll((taskId) => new ServerShuttingDownError(taskId));
    this.logger.warn(
      { interrupted, drainedMs: this.drainMs },
      'shutdown: calls still following tasks after the drain end with an error',
    );
  }
}

function closeConnectionsAsTheyFallIdle(server: Server): void {
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
  server.once('close', () => clearInterval(sweep));
}
