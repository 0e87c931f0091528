import { Injectable } from '@nestjs/common';
import { ListTasksRequest, ListTasksResponse, Task, taskStateToJSON } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { hasUnstorableText } from '../common/storable-text';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import { operatorPage, type OperatorTaskPage, type OperatorTaskQuery, type TaskRecord } from './operator-query';
import { endpointAgentsOf, taskAgentOf } from './task-agent';
import { TaskScopeConflictError } from './task-store.errors';
import type { EvictionListener, IdleTaskQuery, RetentionPolicy, ScopedTask } from './task-store.interface';
import { listFilter, listResponse, pageSizeOf, statusTime } from './task-list';
import { taskScope } from './task-scope';
import { stateName, TERMINAL_STATE_NAMES } from '../common/task-states';
import { VersionedTaskStoreBase } from './versioned-task-store.base';
import type { VersionedTask, VersionedTaskStore, VersionedTaskWrite } from './versioned-task-store.interface';

/** Tasks deleted per retention statement, bounding lock time and the size of one eviction notice. */
const RETENTION_BATCH = 500;
/** The statements every turn runs ($1 id, $2 tenant, $3 owner), kept as text for `hotQuery`. */
const LOAD = 'SELECT data, version, agent FROM tasks WHERE id = $1 AND tenant = $2 AND owner = $3';
/**
 * Upsert that bumps the version, and returns nothing when the id belongs to another scope. The agent
 * ($8) is the one the task was first stored with: a write whose call names none keeps it.
 */
const UPSERT_ANY = `
  INSERT INTO tasks (id, tenant, owner, context_id, state, status_timestamp, data, version, agent)
  VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::jsonb, 1, $8)
  ON CONFLICT (id) DO UPDATE SET
    context_id = EXCLUDED.context_id, state = EXCLUDED.state, status_timestamp = EXCLUDED.status_timestamp,
    data = EXCLUDED.data, version = tasks.version + 1, updated_at = now(), agent = COALESCE(tasks.agent, EXCLUDED.agent)
  WHERE tasks.tenant = EXCLUDED.tenant AND tasks.owner = EXCLUDED.owner`;
const UPSERT = `${UPSERT_ANY} RETURNING version, agent`;
/** The same, leaving a terminal row as it is. */
const UNLESS_ENDED = `${UPSERT_ANY} AND tasks.state NOT IN (${TERMINAL_STATE_NAMES.map((name) => `'${name}'`).join(', ')})`;
const UPSERT_UNLESS_ENDED = `${UNLESS_ENDED} RETURNING version, agent`;
/** The same, also leaving a row whose history holds message $9 (`[{"messageId": ...}]`) as it is. */
const UPSERT_UNLESS_TURN_RECORDED = `${UNLESS_ENDED} AND NOT (tasks.data->'history' @> $9::jsonb) RETURNING version, agent`;
/** Names of the hot statements, by text. */
const STATEMENT_NAMES = new Map([
  [UPSERT, 'task-upsert'],
  [UPSERT_UNLESS_ENDED, 'task-upsert-unless-ended'],
  [UPSERT_UNLESS_TURN_RECORDED, 'task-upsert-unless-turn-recorded'],
]);

/** Serializes retention runs across replicas, so that two never both delete the same excess. */
const RETENTION_LOCK = Prisma.sql`hashtext('switchboard:task-retention')`;

/**
 * The durable TaskStore: one row per task holding Task.toJSON. Every write is one upsert statement
 * that bumps the row's version. Keys that Postgres text cannot hold (U+0000, unpaired surrogates)
 * belong to no stored task: such lookups find nothing.
 */
@Injectable()
export class PostgresTaskStore extends VersionedTaskStoreBase implements VersionedTaskStore {
  readonly inProcess = false;

  constructor(private readonly prisma: PrismaService) {
    super();
  }

  async loadVersioned(taskId: string, context: ServerCallContext): Promise<VersionedTask | undefined> {
    const { tenant, owner } = taskScope(context);
    if (hasUnstorableText(taskId, tenant)) return undefined;
    const [row] = await this.prisma.hotQuery<{ data: unknown } & VersionRow>('task-load', LOAD, [
      taskId,
      tenant,
      owner,
    ]);
    return row && versioned(Task.fromJSON(row.data), row);
  }

  async saveVersioned(task: Task, context: ServerCallContext): Promise<VersionedTask> {
    const written = await this.upsert(task, context, UPSERT);
    if (!written) throw new TaskScopeConflictError(task.id);
    return written;
  }

  async saveUnlessEndedVersioned(task: Task, context: ServerCallContext): Promise<VersionedTaskWrite> {
    return this.conditionalSave(task, context, UPSERT_UNLESS_ENDED);
  }

  async saveUnlessTurnRecordedVersioned(
    task: Task,
    messageId: string,
    context: ServerCallContext,
  ): Promise<VersionedTaskWrite> {
    return this.conditionalSave(task, context, UPSERT_UNLESS_TURN_RECORDED, [JSON.stringify([{ messageId }])]);
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const { tenant, owner } = taskScope(context);
    const agents = endpointAgentsOf(context);
    const filter = listFilter(params);
    if (hasUnstorableText(tenant, ...(agents ?? []), filter.contextId, filter.after?.id))
      return listResponse([], 0, params);
    const conditions = [Prisma.sql`tenant = ${tenant}`, Prisma.sql`owner = ${owner}`];
    if (agents !== undefined) conditions.push(Prisma.sql`agent IN (${Prisma.join(agents)})`);
    if (filter.contextId !== undefined) conditions.push(Prisma.sql`context_id = ${filter.contextId}`);
    if (filter.state !== undefined) conditions.push(Prisma.sql`state = ${taskStateToJSON(filter.state)}`);
    if (filter.statusAfter) conditions.push(Prisma.sql`status_timestamp > ${timestamptz(filter.statusAfter)}`);
    const matching = Prisma.join(conditions, ' AND ');
    // Keyset paging in the same order as the ORDER BY below; ids compare bytewise whatever the database collation.
    const following = filter.after
      ? Prisma.sql`AND (status_timestamp < ${timestamptz(filter.after.time)}
          OR (status_timestamp = ${timestamptz(filter.after.time)} AND id COLLATE "C" < ${filter.after.id}))`
      : Prisma.empty;
    const [rows, [{ total }]] = await Promise.all([
      this.prisma.$queryRaw<{ data: unknown }[]>`
        SELECT data FROM tasks WHERE ${matching} ${following}
        ORDER BY status_timestamp DESC, id COLLATE "C" DESC
        LIMIT ${pageSizeOf(params) + 1}`,
      this.prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM tasks WHERE ${matching}`,
    ]);
    return listResponse(
      rows.map((row) => Task.fromJSON(row.data)),
      total,
      params,
    );
  }

  async countByState(): Promise<Record<string, number>> {
    const groups = await this.prisma.task.groupBy({ by: ['state'], _count: { _all: true } });
    return Object.fromEntries(groups.map((group) => [group.state, group._count._all]));
  }

  async countByStateSince(since: Date): Promise<Record<string, number>> {
    const groups = await this.prisma.task.groupBy({
      by: ['state'],
      where: { updatedAt: { gte: since } },
      _count: { _all: true },
    });
    return Object.fromEntries(groups.map((group) => [group.state, group._count._all]));
  }

  async listAcrossScopes(query: OperatorTaskQuery): Promise<OperatorTaskPage> {
    const conditions: Prisma.Sql[] = [];
    if (query.state !== undefined) conditions.push(Prisma.sql`state = ${query.state}`);
    if (query.agent !== undefined) conditions.push(Prisma.sql`agent = ${query.agent}`);
    if (query.owner !== undefined) conditions.push(Prisma.sql`owner = ${query.owner}`);
    if (query.createdAfter) conditions.push(Prisma.sql`created_at > ${timestamptz(query.createdAfter)}`);
    if (query.createdBefore) conditions.push(Prisma.sql`created_at < ${timestamptz(query.createdBefore)}`);
    if (query.after) {
      const time = timestamptz(query.after.time);
      conditions.push(
        Prisma.sql`(status_timestamp < ${time} OR (status_timestamp = ${time} AND id COLLATE "C" < ${query.after.id}))`,
      );
    }
    if (hasUnstorableText(query.state, query.agent, query.owner, query.after?.id)) return { records: [] };
    const where = conditions.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty;
    const rows = await this.prisma.$queryRaw<TaskRow[]>`
      SELECT ${TASK_RECORD_COLUMNS} FROM tasks ${where}
      ORDER BY status_timestamp DESC, id COLLATE "C" DESC
      LIMIT ${query.pageSize + 1}`;
    return operatorPage(rows.map(taskRecord), query.pageSize);
  }

  async findAnywhere(taskId: string): Promise<TaskRecord | undefined> {
    if (hasUnstorableText(taskId)) return undefined;
    const [row] = await this.prisma.$queryRaw<TaskRow[]>`SELECT ${TASK_RECORD_COLUMNS} FROM tasks WHERE id = ${taskId}`;
    return row && taskRecord(row);
  }

  async findIdle({ states, idleMs, limit, now }: IdleTaskQuery): Promise<ScopedTask[]> {
    const since = now ? timestamptz(now) : Prisma.sql`now()`;
    const rows = await this.prisma.$queryRaw<{ tenant: string; owner: string; data: unknown }[]>`
      SELECT tenant, owner, data FROM tasks
      WHERE state IN (${Prisma.join(states.map(taskStateToJSON))})
        AND updated_at < ${since} - ${idleMs}::float8 * interval '1 millisecond'
      ORDER BY updated_at LIMIT ${limit}`;
    return rows.map((row) => ({ task: Task.fromJSON(row.data), scope: { tenant: row.tenant, owner: row.owner } }));
  }

  async applyRetention(policy: RetentionPolicy, onEvicted?: EvictionListener): Promise<number> {
    const now = policy.now ? timestamptz(policy.now) : Prisma.sql`now()`;
    const cutoff = Prisma.sql`${now} - ${policy.ttlMs}::float8 * interval '1 millisecond'`;
    const terminal = Prisma.sql`state IN (${Prisma.join(TERMINAL_STATE_NAMES)})`;
    const expired = Prisma.sql`
      SELECT id FROM tasks
      WHERE ${terminal} AND updated_at < ${cutoff}
      ORDER BY updated_at, id COLLATE "C" LIMIT ${RETENTION_BATCH} FOR UPDATE SKIP LOCKED`;
    const overCap = Prisma.sql`
      SELECT id FROM tasks WHERE ${terminal}
      ORDER BY updated_at, id COLLATE "C"
      LIMIT LEAST(GREATEST((SELECT count(*) FROM tasks) - ${policy.maxTasks}, 0), ${RETENTION_BATCH})
      FOR UPDATE SKIP LOCKED`;
    let evicted = 0;
    for (const victims of [expired, overCap]) {
      let ids: string[];
      do {
        ids = await this.evict(victims);
        evicted += ids.length;
        if (ids.length > 0) await onEvicted?.(ids);
      } while (ids.length === RETENTION_BATCH);
    }
    await this.prisma.$executeRaw`
      DELETE FROM push_configs p
      WHERE created_at < ${cutoff}
        AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = p.task_id)`;
    return evicted;
  }

  /** Deletes one batch of `victims` with their push configs; returns their ids. */
  private async evict(victims: Prisma.Sql): Promise<string[]> {
    const rows = await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${RETENTION_LOCK})`;
      return tx.$queryRaw<{ id: string }[]>`
        WITH victims AS (${victims}),
        evicted AS (DELETE FROM tasks WHERE id IN (SELECT id FROM victims) RETURNING id),
        configs AS (DELETE FROM push_configs WHERE task_id IN (SELECT id FROM evicted))
        SELECT id FROM evicted`;
    });
    return rows.map((row) => row.id);
  }

  /** One statement: the upsert skips a row that fails its condition, and only then is the row read back. */
  private async conditionalSave(
    task: Task,
    context: ServerCallContext,
    sql: string,
    conditionValues: unknown[] = [],
  ): Promise<VersionedTaskWrite> {
    const written = await this.upsert(task, context, sql, conditionValues);
    if (written) return { ...written, written: true };
    const stored = await this.loadVersioned(task.id, context);
    if (!stored) throw new TaskScopeConflictError(task.id);
    return { ...stored, written: false };
  }

  /**
   * Runs one of the upserts above as a hot statement; undefined when the id belongs to another scope
   * or the stored row fails the statement's condition (whose values follow the task's).
   */
  private async upsert(
    task: Task,
    context: ServerCallContext,
    sql: string,
    conditionValues: unknown[] = [],
  ): Promise<VersionedTask | undefined> {
    const scope = taskScope(context);
    const agent = taskAgentOf(context);
    const data = Task.toJSON(task);
    const stored = Task.fromJSON(data);
    const values = [
      stored.id,
      scope.tenant,
      scope.owner,
      stored.contextId,
      stateName(stored),
      statusTime(stored).toISOString(),
      JSON.stringify(data),
      agent ?? null,
      ...conditionValues,
    ];
    const [row] = await this.prisma.hotQuery<VersionRow>(STATEMENT_NAMES.get(sql)!, sql, values);
    return row && versioned(stored, row);
  }
}

/** What a load or a write reads back of a row beside the task. */
interface VersionRow {
  version: number;
  agent: string | null;
}

function versioned(task: Task, { version, agent }: VersionRow): VersionedTask {
  return { task, version, ...(agent !== null && { agent }) };
}

interface TaskRow {
  tenant: string;
  owner: string;
  agent: string | null;
  data: unknown;
  created_at: Date;
  updated_at: Date;
}

const TASK_RECORD_COLUMNS = Prisma.sql`tenant, owner, agent, data, created_at, updated_at`;

function taskRecord(row: TaskRow): TaskRecord {
  return {
    task: Task.fromJSON(row.data),
    scope: { tenant: row.tenant, owner: row.owner },
    agent: row.agent ?? undefined,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** The pg adapter sends a Date without its zone, which Postgres would read in the session's time zone. */
function timestamptz(date: Date): Prisma.Sql {
  return Prisma.sql`${date.toISOString()}::timestamptz`;
}
