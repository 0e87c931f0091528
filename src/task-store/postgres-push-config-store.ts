import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { PushNotificationStore, ServerCallContext, StoredPushNotificationConfig } from '@a2a-js/sdk/server';
import { hasUnstorableText } from '../common/storable-text';
import { PrismaService } from '../database/prisma.service';
import { taskScope } from './task-scope';

const LOAD =
  'SELECT config, wire_version AS "wireVersion" FROM push_configs WHERE task_id = $1 AND tenant = $2 AND owner = $3 ORDER BY position';

/** What the SDK's store records when a context names no version: requests without A2A-Version are v0.3. */
const LEGACY_WIRE_VERSION = '0.3';

/**
 * The SDK's PushNotificationStore on Postgres, with the semantics of its in-memory store: scoped by
 * tenant and owner, an empty id is assigned in place, re-saving an id replaces it and moves it last,
 * and each config remembers the A2A wire version it was registered over. Keys that Postgres text
 * cannot hold (U+0000, unpaired surrogates) match nothing.
 */
@Injectable()
export class PostgresPushConfigStore implements PushNotificationStore {
  constructor(private readonly prisma: PrismaService) {}

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    const { tenant, owner } = taskScope(context);
    if (!config.id) config.id = randomUUID();
    const json = JSON.stringify(TaskPushNotificationConfig.toJSON(config));
    await this.prisma.$executeRaw`
      INSERT INTO push_configs (task_id, tenant, owner, id, config, wire_version)
      VALUES (${taskId}, ${tenant}, ${owner}, ${config.id}, ${json}::jsonb, ${context.requestedVersion || LEGACY_WIRE_VERSION})
      ON CONFLICT (task_id, tenant, owner, id) DO UPDATE SET
        config = EXCLUDED.config, wire_version = EXCLUDED.wire_version, position = DEFAULT`;
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.loadWithMetadata(taskId, context)).map((stored) => stored.config);
  }

  async loadWithMetadata(taskId: string, context: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    const { tenant, owner } = taskScope(context);
    if (hasUnstorableText(taskId, tenant)) return [];
    // Read by every turn: a hot statement.
    const rows = await this.prisma.hotQuery<{ config: unknown; wireVersion: string }>('push-configs-load', LOAD, [
      taskId,
      tenant,
      owner,
    ]);
    return rows.map((row) => ({
      config: TaskPushNotificationConfig.fromJSON(row.config),
      wireVersion: row.wireVersion,
    }));
  }

  /** Without a config id, deletes the config whose id is the task id, as the SDK's store does. */
  async delete(taskId: string, context: ServerCallContext, configId: string = taskId): Promise<void> {
    const { tenant, owner } = taskScope(context);
    if (hasUnstorableText(taskId, tenant, configId)) return;
    await this.prisma.pushConfig.deleteMany({ where: { taskId, tenant, owner, id: configId } });
  }
}
