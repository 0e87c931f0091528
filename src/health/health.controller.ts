import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { Public } from '../security/public.decorator';
import { ReadinessService } from './readiness.service';

@Public()
@SkipThrottle()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** Liveness: the process answers. Never checks dependencies, so a database outage does not restart pods. */
  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  /** Readiness: 503 naming every dependency that does not answer. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const { ready, checks } = await this.readiness.check();
    if (ready) return { status: 'ok', checks };
    const down = Object.keys(checks).filter((name) => checks[name].status === 'down');
    reply.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'unavailable', message: `not ready: ${down.join(', ')} down`, checks };
  }
}
