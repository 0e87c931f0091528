import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service';
import type { Prisma } from '../../generated/prisma/client';
import type { TaskActivityEntry, TaskActivityKind, TaskActivityStore } from './task-activity.interface';

/** Task activity in Postgres (`task_activity`): one row per entry. */
@Injectable()
export class PostgresTaskActivityStore implements TaskActivityStore {
  constructor(private readonly prisma: PrismaService) {}

  async append(taskId: string, entry: TaskActivityEntry): Promise<void> {
    await this.prisma.taskActivity.create({
      data: {
        taskId,
        at: new Date(entry.at),
        kind: entry.kind,
        summary: entry.summary,
        durationMs: entry.durationMs,
        outcome: entry.outcome,
        detail: entry.detail as Prisma.InputJsonValue | undefined,
      },
    });
  }

  async list(taskId: string): Promise<TaskActivityEntry[]> {
    const rows = await this.prisma.taskActivity.findMany({ where: { taskId }, orderBy: { id: 'asc' } });
    return rows.map((row) => ({
      at: row.at.toISOString(),
      kind: row.kind as TaskActivityKind,
      summary: row.summary,
      ...(row.durationMs !== null && { durationMs: row.durationMs }),
      ...(row.outcome !== null && { outcome: row.outcome }),
      ...(row.detail !== null && { detail: row.detail as Record<string, unknown> }),
    }));
  }

  async remove(taskIds: string[]): Promise<void> {
    if (taskIds.length > 0) await this.prisma.taskActivity.deleteMany({ where: { taskId: { in: taskIds } } });
  }
}
