import { Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { streamSse } from '../a2a-server/sse';
import { AdminGuard } from '../security/admin.guard';
import { principalOf } from '../security/principal';
import type { OperatorTaskDetail, OperatorTaskRow } from './operator-task';
import { OperatorTasks, TaskListParams } from './operator-tasks.service';

/** Every owner's tasks for operators (admin API): list, read, cancel, and follow live. */
@Controller('api/admin/tasks')
@UseGuards(AdminGuard)
export class AdminTasksController {
  constructor(private readonly tasks: OperatorTasks) {}

  @Get()
  list(@Query() params: TaskListParams): Promise<{ tasks: OperatorTaskRow[]; nextPageToken?: string }> {
    return this.tasks.list(params);
  }

  /** SSE: one `data: {taskId, state, agent, owner, updatedAt}` per change of any task's state. */
  @Get('changes')
  async changes(@Res() reply: FastifyReply): Promise<void> {
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    const changes = this.tasks.changesUntil(gone.signal);
    await changes.ready;
    await streamSse(reply, changes, errorEvent);
  }

  @Get(':id')
  detail(@Param('id') id: string): Promise<OperatorTaskDetail> {
    return this.tasks.detail(id);
  }

  /** SSE: the task as it stands (`kind: "snapshot"`), then its events (`"event"`) and activity (`"activity"`) as they come. */
  @Get(':id/events')
  async events(@Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    await streamSse(reply, await this.tasks.timeline(id, gone.signal), errorEvent);
  }

  @Post(':id/cancel')
  @HttpCode(HttpStatus.OK)
  cancel(@Param('id') id: string, @Req() request: FastifyRequest): Promise<OperatorTaskDetail> {
    // No principal when the service runs without keys: anyone may, and who did is unknown.
    return this.tasks.cancel(id, principalOf(request)?.name ?? 'anonymous');
  }
}

function errorEvent(error: unknown): { message: string } {
  return { message: (error as Error).message };
}
