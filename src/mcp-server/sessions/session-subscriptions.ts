import { Injectable } from '@nestjs/common';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ResourceSubscriptions } from '../bridge/resource-subscriptions';
import type { McpCatalogSource } from '../../mcp-client/mcp-catalog-source.interface';
import { ENDED_POSITION, McpSessionStore } from '../stores/mcp-session-store.interface';
import { taskIdOf } from '../bridge/task-resource';
import type { TaskUpdates } from '../bridge/task-updates';

/** The position recorded for a connected server's resource: its changes are heard from the moment it is followed. */
const UPSTREAM_POSITION = 'upstream';

/** How often the replica holding a GET stream looks for subscriptions made (on any replica) since. */
const REFRESH_MS = 1_000;

/**
 * Tells this replica's GET streams of a session that its subscriptions changed here, so they act
 * on them before the (un)subscribe is answered; streams on other replicas find out by polling.
 */
@Injectable()
export class LocalSubscriptionChanges {
  private readonly refreshers = new Map<string, Set<() => Promise<void>>>();

  /** Resolves once this replica's streams of the session follow what the store now holds. */
  async changed(sessionId: string): Promise<void> {
    await Promise.all([...(this.refreshers.get(sessionId) ?? [])].map((refresh) => refresh()));
  }

  watch(sessionId: string, refresh: () => Promise<void>): () => void {
    const set = this.refreshers.get(sessionId) ?? new Set();
    this.refreshers.set(sessionId, set.add(refresh));
    return () => {
      set.delete(refresh);
      if (set.size === 0 && this.refreshers.get(sessionId) === set) this.refreshers.delete(sessionId);
    };
  }
}

/** A 2025-era HTTP session's subscriptions, kept in the shared session store. */
export function sessionSubscriptions(
  store: McpSessionStore,
  changes: LocalSubscriptionChanges,
  sessionId: string | undefined,
): ResourceSubscriptions {
  const session = () => {
    if (sessionId === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        'resources/subscribe needs a session (initialize first); 2026-07-28 clients subscribe in subscriptions/listen',
      );
    }
    return sessionId;
  };
  const add = async (uri: string, position: string) => {
    await store.subscribe(session(), uri, position);
    await changes.changed(session());
  };
  return {
    add: (uri, _taskId, position) => add(uri, position ?? ENDED_POSITION),
    addUpstream: (uri) => add(uri, UPSTREAM_POSITION),
    remove: async (uri) => {
      await store.unsubscribe(session(), uri);
      await changes.changed(session());
    },
  };
}

/** Where a session records an MCP task it started (2025-11-25), to be told of its status changes. */
export function taskStatusSubscription(taskId: string): string {
  return `${TASK_STATUS_PREFIX}${taskId}`;
}

const TASK_STATUS_PREFIX = 'tasks/status:';

/**
 * What a session's GET stream carries besides tool-list changes: `notifications/resources/updated`
 * for every change of a task the session subscribed to, and of a connected server's resource
 * (subscribed to upstream by the replica holding the stream); what `taskMessages` says of the
 * current status of an MCP task the session started, at every change of it. The subscriptions are re-read every second
 * (they may be made on any replica); each is followed from the position recorded when it was made,
 * so a change that happened before this replica noticed the subscription is still announced. Stops
 * following a task when it is unsubscribed, and everything when `signal` aborts.
 */
export function followSessionSubscriptions(
  store: McpSessionStore,
  changes: LocalSubscriptionChanges,
  updates: TaskUpdates,
  catalog: McpCatalogSource,
  sessionId: string,
  send: (message: object) => void,
  signal: AbortSignal,
  taskMessages: (taskId: string) => Promise<object[]>,
): void {
  /** By URI: the position followed from, and the switch that stops following. */
  const followed = new Map<string, { position: string; stop: AbortController }>();
  const refresh = async () => {
    const wanted = await store.subscriptions(sessionId).catch(() => undefined);
    if (!wanted || signal.aborted) return;
    for (const [uri, entry] of followed) {
      if (wanted.get(uri) !== entry.position) {
        entry.stop.abort();
        followed.delete(uri);
      }
    }
    for (const [uri, position] of wanted) {
      const statusOf = uri.startsWith(TASK_STATUS_PREFIX) ? uri.slice(TASK_STATUS_PREFIX.length) : undefined;
      const taskId = statusOf ?? taskIdOf(uri);
      if (followed.has(uri) || (taskId === undefined && position !== UPSTREAM_POSITION)) continue;
      const stop = new AbortController();
      // An ended task is recorded but never followed: it stays in `followed` so it is not started again.
      followed.set(uri, { position, stop });
      if (position === ENDED_POSITION) continue;
      const following = AbortSignal.any([stop.signal, signal]);
      if (statusOf !== undefined) {
        // One read at a time, so the statuses go out in the order they happened; what was just said
        // is not said again (a stream read from its start reads the current status for each past change).
        let sent = Promise.resolve();
        let said = '';
        const notifyStatus = () =>
          (sent = sent
            .then(async () => {
              const messages = await taskMessages(statusOf);
              if (JSON.stringify(messages) === said) return;
              said = JSON.stringify(messages);
              messages.forEach(send);
            })
            .catch(() => undefined));
        void updates.follow(statusOf, position, following, notifyStatus);
        continue;
      }
      const notify = () => send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
      // Subscribed upstream before the subscribe is answered, when the stream is on this replica.
      if (taskId === undefined)
        await catalog.followResource(uri, notify, following).catch(() => followed.delete(uri)); // tried again at the next refresh
      else void updates.follow(taskId, position, following, notify);
    }
  };
  // One refresh at a time, in order: a later one sees at least what an earlier one saw.
  let running = refresh();
  const queued = () => (running = running.then(refresh));
  const timer = setInterval(queued, REFRESH_MS);
  timer.unref();
  const unwatch = changes.watch(sessionId, queued);
  signal.addEventListener(
    'abort',
    () => {
      clearInterval(timer);
      unwatch();
      for (const { stop } of followed.values()) stop.abort();
    },
    { once: true },
  );
}
