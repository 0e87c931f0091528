import { type ListTasksRequest, Task, TaskState } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { PushNotificationStore, ServerCallContext } from '@a2a-js/sdk/server';
import { attachEndpointAgents, attachTaskAgent } from '../../../src/task-store/task-agent';
import { TaskScopeConflictError } from '../../../src/task-store/task-store.errors';
import type { TaskStore } from '../../../src/task-store/task-store.interface';
import { at, callContext, makeTask, message, nextMillisecond } from '../support/fixtures';

export interface TaskStoreUnderTest {
  store: TaskStore;
  /** The push config store sharing the task store's storage, whose configs retention must remove too. */
  pushConfigs?: PushNotificationStore;
}

export interface TaskStoreFixture {
  /** An empty store (storage cleared), for one test. */
  fresh(): Promise<TaskStoreUnderTest>;
  close(): Promise<void>;
}

const alice = callContext('alice', 'acme');
const bob = callContext('bob', 'acme');
const aliceElsewhere = callContext('alice', 'globex');
const HOUR = 3_600_000;

function withTaskAgent(context: ServerCallContext, agent: string): ServerCallContext {
  attachTaskAgent(context, agent);
  return context;
}

function withEndpointAgents(context: ServerCallContext, agents: string[]): ServerCallContext {
  attachEndpointAgents(context, agents);
  return context;
}

function listRequest(params: Partial<ListTasksRequest> = {}): ListTasksRequest {
  return {
    tenant: '',
    contextId: '',
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageToken: '',
    statusTimestampAfter: undefined,
    ...params,
  };
}

async function listAll(
  store: TaskStore,
  params: Partial<ListTasksRequest>,
): Promise<{ ids: string[]; pages: number; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  let pageToken = '';
  let pages = 0;
  do {
    const page = await store.list(listRequest({ ...params, pageToken }), alice);
    ids.push(...page.tasks.map((task) => task.id));
    totals.push(page.totalSize);
    pageToken = page.nextPageToken;
    pages++;
  } while (pageToken && pages < 100);
  return { ids, pages, totals };
}

/** The behaviour every TaskStore must have, whatever it is backed by. */
export function describeTaskStoreContract(name: string, fixture: () => Promise<TaskStoreFixture>): void {
  describe(`${name} TaskStore contract`, () => {
    let backing: TaskStoreFixture;
    let store: TaskStore;
    let pushConfigs: PushNotificationStore | undefined;

    beforeAll(async () => {
      backing = await fixture();
    });
    afterAll(() => backing?.close());
    beforeEach(async () => {
      ({ store, pushConfigs } = await backing.fresh());
    });

    describe('save and load', () => {
      it('round-trips a task exactly as its JSON form', async () => {
        const task = makeTask('t1', { history: ['hi', 'there'], artifacts: ['report'] });
        await store.save(task, alice);
        const loaded = await store.load('t1', alice);
        expect(loaded).toBeDefined();
        expect(Task.toJSON(loaded!)).toEqual(Task.toJSON(task));
        expect(loaded).toEqual(Task.fromJSON(Task.toJSON(task)));
      });

      it('returns undefined for an unknown task', async () => {
        expect(await store.load('missing', alice)).toBeUndefined();
      });

      it('replaces the task on a second save, and never shares objects with the caller', async () => {
        const task = makeTask('t1', { history: ['one'] });
        await store.save(task, alice);
        task.history.push(message('mutated after save'));
        expect((await store.load('t1', alice))!.history).toHaveLength(1);
        await store.save(makeTask('t1', { state: TaskState.TASK_STATE_COMPLETED, history: ['one', 'two'] }), alice);
        const loaded = (await store.load('t1', alice))!;
        expect(loaded.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(loaded.history).toHaveLength(2);
        loaded.history = [];
        expect((await store.load('t1', alice))!.history).toHaveLength(2);
      });
    });

    describe('scoping by tenant and owner', () => {
      beforeEach(() => store.save(makeTask('t1'), alice));

      it('hides a task from another owner and from the same owner in another tenant', async () => {
        expect(await store.load('t1', bob)).toBeUndefined();
        expect(await store.load('t1', aliceElsewhere)).toBeUndefined();
        expect((await store.list(listRequest(), bob)).tasks).toEqual([]);
        expect((await store.list(listRequest(), aliceElsewhere)).totalSize).toBe(0);
        expect((await store.list(listRequest(), alice)).totalSize).toBe(1);
      });

      it('refuses overwrites from another scope', async () => {
        await expect(store.save(makeTask('t1', { state: TaskState.TASK_STATE_FAILED }), bob)).rejects.toBeInstanceOf(
          TaskScopeConflictError,
        );
        expect((await store.load('t1', alice))!.status!.state).toBe(TaskState.TASK_STATE_WORKING);
      });
    });

    describe('scoping by the agent whose endpoint a call came to', () => {
      /** A call of alice's whose task agent `agent` writes (a send to it, or its turn). */
      const writtenBy = (agent: string) => withTaskAgent(callContext('alice', 'acme'), agent);
      /** A call of alice's to an A2A endpoint that reads the tasks of `agents`. */
      const atEndpointOf = (...agents: string[]) => withEndpointAgents(callContext('alice', 'acme'), agents);

      beforeEach(async () => {
        await store.save(makeTask('of-echo', { timestamp: at(1) }), writtenBy('echo'));
        await store.save(makeTask('of-slow', { timestamp: at(2) }), writtenBy('slow'));
        // A write that names no agent (a cancel, the orphan sweep) leaves the task with the agent it was first stored with.
        await store.saveUnlessEnded(makeTask('of-slow', { timestamp: at(3) }), alice);
        await store.save(makeTask('of-no-agent', { timestamp: at(4) }), alice);
      });

      it("loads and lists that agent's tasks only, in the total too", async () => {
        expect(await store.load('of-echo', atEndpointOf('slow'))).toBeUndefined();
        expect(await store.load('of-no-agent', atEndpointOf('slow'))).toBeUndefined();
        expect((await store.load('of-slow', atEndpointOf('slow')))?.id).toBe('of-slow');
        const page = await store.list(listRequest(), atEndpointOf('slow'));
        expect({ ids: page.tasks.map((task) => task.id), total: page.totalSize }).toEqual({
          ids: ['of-slow'],
          total: 1,
        });
        expect((await store.list(listRequest(), atEndpointOf('echo'))).tasks.map((task) => task.id)).toEqual([
          'of-echo',
        ]);
        expect((await store.list(listRequest(), atEndpointOf('echo', 'slow'))).tasks.map((task) => task.id)).toEqual([
          'of-slow',
          'of-echo',
        ]);
      });

      it("shows every agent's tasks to a call that came to no agent's endpoint", async () => {
        expect((await store.list(listRequest(), alice)).tasks.map((task) => task.id)).toEqual([
          'of-no-agent',
          'of-slow',
          'of-echo',
        ]);
        expect((await store.load('of-echo', writtenBy('slow')))?.id).toBe('of-echo');
      });
    });

    describe('list', () => {
      // t00..t19 share timestamps in pairs, u0..u2 have none: newest first, ties by id descending, untimed last.
      const expectedOrder = [
        ...Array.from({ length: 20 }, (_, i) => `t${String(19 - i).padStart(2, '0')}`),
        'u2',
        'u1',
        'u0',
      ];

      beforeEach(async () => {
        const tasks = [
          ...Array.from({ length: 20 }, (_, i) =>
            makeTask(`t${String(i).padStart(2, '0')}`, {
              timestamp: at(Math.floor(i / 2)),
              contextId: i % 2 === 0 ? 'even' : 'odd',
              state: i % 5 === 0 ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_WORKING,
              history: ['a', 'b', 'c'],
              artifacts: ['out'],
            }),
          ),
          ...['u0', 'u1', 'u2'].map((id) => makeTask(id, { timestamp: null, contextId: 'none' })),
        ];
        for (const index of [7, 21, 3, 15, 0, 11, 19, 1, 22, 5, 13, 9, 17, 2, 20, 4, 8, 6, 10, 12, 14, 16, 18]) {
          await store.save(tasks[index], alice);
        }
        await store.save(makeTask('other-owner', { timestamp: at(50) }), bob);
      });

      it('orders newest status first, ties by id, tasks without a timestamp last', async () => {
        const page = await store.list(listRequest({ pageSize: 100 }), alice);
        expect(page.tasks.map((task) => task.id)).toEqual(expectedOrder);
        expect(page).toMatchObject({ totalSize: 23, pageSize: 100, nextPageToken: '' });
      });

      it('pages through every task once, in order, with the total on every page', async () => {
        const { ids, pages, totals } = await listAll(store, { pageSize: 5 });
        expect(ids).toEqual(expectedOrder);
        expect(pages).toBe(5);
        expect(new Set(totals)).toEqual(new Set([23]));
      });

      it('pages through a filtered list', async () => {
        const { ids } = await listAll(store, { pageSize: 2, contextId: 'even' });
        expect(ids).toEqual(expectedOrder.filter((id) => id.startsWith('t') && Number(id.slice(1)) % 2 === 0));
      });

      it('filters by status and by status timestamp', async () => {
        const completed = await store.list(listRequest({ status: TaskState.TASK_STATE_COMPLETED }), alice);
        expect(completed.tasks.map((task) => task.id)).toEqual(['t15', 't10', 't05', 't00']);
        expect(completed.totalSize).toBe(4);
        const recent = await store.list(listRequest({ statusTimestampAfter: at(5) }), alice);
        expect(recent.tasks.map((task) => task.id)).toEqual(['t19', 't18', 't17', 't16', 't15', 't14', 't13', 't12']);
      });

      it('defaults to pages of 50', async () => {
        for (let i = 0; i < 30; i++) await store.save(makeTask(`extra-${i}`, { timestamp: at(100 + i) }), alice);
        const page = await store.list(listRequest(), alice);
        expect(page.tasks).toHaveLength(50);
        expect(page.pageSize).toBe(50);
        expect(page.totalSize).toBe(53);
        expect(page.nextPageToken).not.toBe('');
      });

      it('strips artifacts unless asked for them, and trims history to historyLength', async () => {
        const [plain] = (await store.list(listRequest({ pageSize: 1 }), alice)).tasks;
        expect(plain.artifacts).toEqual([]);
        expect(plain.history).toHaveLength(3);
        const [full] = (await store.list(listRequest({ pageSize: 1, includeArtifacts: true, historyLength: 2 }), alice))
          .tasks;
        expect(full.artifacts.map((artifact) => artifact.name)).toEqual(['out']);
        expect(full.history.map((entry) => entry.messageId)).toEqual(['m-t19-b', 'm-t19-c']);
        const [none] = (await store.list(listRequest({ pageSize: 1, historyLength: 0 }), alice)).tasks;
        expect(none.history).toEqual([]);
      });

      it('continues after the cursor position even when the cursor task is gone', async () => {
        const first = await store.list(listRequest({ pageSize: 5 }), alice);
        expect(first.tasks.map((task) => task.id).at(-1)).toBe('t15');
        await store.applyRetention({ maxTasks: 1_000_000, ttlMs: 0, now: new Date(Date.now() + HOUR) });
        const next = await store.list(listRequest({ pageSize: 3, pageToken: first.nextPageToken }), alice);
        expect(next.tasks.map((task) => task.id)).toEqual(['t14', 't13', 't12']);
      });

      it('rejects a malformed page token', async () => {
        const token = Buffer.from('no separator').toString('base64');
        await expect(store.list(listRequest({ pageToken: token }), alice)).rejects.toBeInstanceOf(
          RequestMalformedError,
        );
      });
    });

    describe('saveUnlessEnded', () => {
      it('creates a task, then replaces it while it is active', async () => {
        const created = await store.saveUnlessEnded(makeTask('t1', { history: ['a'] }), alice);
        expect(created.written).toBe(true);
        expect(created.task.history).toHaveLength(1);
        const replaced = await store.saveUnlessEnded(
          makeTask('t1', { history: ['a', 'b'], state: TaskState.TASK_STATE_COMPLETED }),
          alice,
        );
        expect(replaced).toMatchObject({ written: true, task: { status: { state: TaskState.TASK_STATE_COMPLETED } } });
        expect((await store.load('t1', alice))!.history).toHaveLength(2);
      });

      it('never rewrites a terminal task, and answers with the stored one', async () => {
        await store.save(makeTask('t1', { state: TaskState.TASK_STATE_CANCELED }), alice);
        const kept = await store.saveUnlessEnded(
          makeTask('t1', { state: TaskState.TASK_STATE_COMPLETED, history: ['late'] }),
          alice,
        );
        expect(kept.written).toBe(false);
        expect(kept.task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
        expect(await store.load('t1', alice)).toEqual(kept.task);
      });

      it("never undoes a cancel that races with the turn's writes", async () => {
        await store.save(makeTask('t1'), alice);
        const writes = Array.from({ length: 20 }, (_, i) =>
          store.saveUnlessEnded(makeTask('t1', { history: [`w${i}`] }), alice),
        );
        await Promise.all([
          ...writes.slice(0, 10),
          store.save(makeTask('t1', { state: TaskState.TASK_STATE_CANCELED }), alice),
          ...writes.slice(10),
        ]);
        expect((await store.load('t1', alice))!.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      });

      it('refuses a task id of another scope', async () => {
        await store.save(makeTask('t1'), alice);
        await expect(store.saveUnlessEnded(makeTask('t1'), bob)).rejects.toBeInstanceOf(TaskScopeConflictError);
        await store.save(makeTask('t2', { state: TaskState.TASK_STATE_FAILED }), alice);
        await expect(store.saveUnlessEnded(makeTask('t2'), bob)).rejects.toBeInstanceOf(TaskScopeConflictError);
      });
    });

    describe('saveUnlessTurnRecorded', () => {
      const submitted = (history: string[]) => makeTask('t1', { state: TaskState.TASK_STATE_SUBMITTED, history });

      it('creates a task, and submits a later message of it', async () => {
        expect(await store.saveUnlessTurnRecorded(submitted(['a']), 'm-t1-a', alice)).toMatchObject({
          written: true,
          task: { history: [{ messageId: 'm-t1-a' }] },
        });
        await store.save(makeTask('t1', { state: TaskState.TASK_STATE_INPUT_REQUIRED, history: ['a'] }), alice);
        const next = await store.saveUnlessTurnRecorded(submitted(['a', 'b']), 'm-t1-b', alice);
        expect(next).toMatchObject({ written: true, task: { status: { state: TaskState.TASK_STATE_SUBMITTED } } });
        expect((await store.load('t1', alice))!.history).toHaveLength(2);
      });

      it('never moves back a task whose turn recorded the message already, and answers with the stored one', async () => {
        const working = makeTask('t1', { state: TaskState.TASK_STATE_WORKING, history: ['a'], artifacts: ['partial'] });
        await store.saveUnlessEnded(working, alice);
        const kept = await store.saveUnlessTurnRecorded(submitted(['a']), 'm-t1-a', alice);
        expect(kept.written).toBe(false);
        expect(kept.task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
        expect(await store.load('t1', alice)).toEqual(kept.task);
      });

      it('never rewrites a terminal task', async () => {
        await store.save(makeTask('t1', { state: TaskState.TASK_STATE_CANCELED }), alice);
        expect(await store.saveUnlessTurnRecorded(submitted(['b']), 'm-t1-b', alice)).toMatchObject({
          written: false,
          task: { status: { state: TaskState.TASK_STATE_CANCELED } },
        });
      });

      it('refuses a task id of another scope', async () => {
        await store.save(makeTask('t1'), alice);
        await expect(store.saveUnlessTurnRecorded(submitted(['b']), 'm-t1-b', bob)).rejects.toBeInstanceOf(
          TaskScopeConflictError,
        );
      });
    });

    it('counts tasks by state across every scope', async () => {
      await store.save(makeTask('w1'), alice);
      await store.save(makeTask('w2'), bob);
      await store.save(makeTask('c1', { state: TaskState.TASK_STATE_COMPLETED }), aliceElsewhere);
      expect(await store.countByState()).toEqual({ TASK_STATE_WORKING: 2, TASK_STATE_COMPLETED: 1 });
    });

    describe('retention', () => {
      const terminalStates = [
        TaskState.TASK_STATE_COMPLETED,
        TaskState.TASK_STATE_FAILED,
        TaskState.TASK_STATE_CANCELED,
        TaskState.TASK_STATE_REJECTED,
      ];
      const activeStates = [
        TaskState.TASK_STATE_SUBMITTED,
        TaskState.TASK_STATE_WORKING,
        TaskState.TASK_STATE_INPUT_REQUIRED,
        TaskState.TASK_STATE_AUTH_REQUIRED,
      ];
      const ids = async (context = alice) =>
        (await store.list(listRequest({ pageSize: 100 }), context)).tasks.map((task) => task.id).sort();

      it('evicts only terminal tasks, leaving active ones even above the cap', async () => {
        for (const [i, state] of [...terminalStates, ...activeStates].entries())
          await store.save(makeTask(`t${i}`, { state }), alice);
        expect(await store.applyRetention({ maxTasks: 2, ttlMs: HOUR })).toBe(4);
        expect(await ids()).toEqual(['t4', 't5', 't6', 't7']);
        expect(await store.applyRetention({ maxTasks: 2, ttlMs: HOUR })).toBe(0);
      });

      it('evicts terminal tasks older than the TTL and keeps younger ones', async () => {
        await store.save(makeTask('done', { state: TaskState.TASK_STATE_COMPLETED }), alice);
        await store.save(makeTask('running'), alice);
        expect(await store.applyRetention({ maxTasks: 100, ttlMs: HOUR, now: new Date(Date.now() + HOUR / 2) })).toBe(
          0,
        );
        expect(await store.applyRetention({ maxTasks: 100, ttlMs: HOUR, now: new Date(Date.now() + 2 * HOUR) })).toBe(
          1,
        );
        expect(await ids()).toEqual(['running']);
      });

      it('evicts the least recently updated terminal tasks first, across scopes', async () => {
        for (const [i, context] of [alice, bob, alice, aliceElsewhere, alice].entries()) {
          await store.save(makeTask(`t${i}`, { state: TaskState.TASK_STATE_COMPLETED }), context);
          await nextMillisecond();
        }
        await store.save(makeTask('t0', { state: TaskState.TASK_STATE_COMPLETED }), alice);
        expect(await store.applyRetention({ maxTasks: 3, ttlMs: HOUR })).toBe(2);
        expect(await ids()).toEqual(['t0', 't4']);
        expect(await store.load('t1', bob)).toBeUndefined();
        expect(await store.load('t3', aliceElsewhere)).toBeDefined();
      });

      it('removes the push configs of evicted tasks', async () => {
        await store.save(makeTask('t1', { state: TaskState.TASK_STATE_COMPLETED }), alice);
        await pushConfigs?.save('t1', alice, {
          tenant: '',
          id: 'hook',
          taskId: 't1',
          url: 'https://example.com/hook',
          token: '',
          authentication: undefined,
        });
        expect(await store.applyRetention({ maxTasks: 0, ttlMs: HOUR })).toBe(1);
        expect(await store.load('t1', alice)).toBeUndefined();
        if (pushConfigs) expect(await pushConfigs.load('t1', alice)).toEqual([]);
      });
    });

    describe('findIdle', () => {
      const wanted = [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING];

      it('finds tasks in the given states not written for the given time, across scopes, least recently written first, with their scope', async () => {
        await store.save(makeTask('submitted', { state: TaskState.TASK_STATE_SUBMITTED }), bob);
        await nextMillisecond();
        await store.save(makeTask('working'), aliceElsewhere);
        await store.save(makeTask('waiting', { state: TaskState.TASK_STATE_INPUT_REQUIRED }), alice);
        await store.save(makeTask('done', { state: TaskState.TASK_STATE_COMPLETED }), alice);
        const idle = await store.findIdle({
          states: wanted,
          idleMs: HOUR,
          limit: 10,
          now: new Date(Date.now() + 2 * HOUR),
        });
        expect(idle.map(({ task, scope }) => [task.id, scope])).toEqual([
          ['submitted', { tenant: 'acme', owner: 'bob' }],
          ['working', { tenant: 'globex', owner: 'alice' }],
        ]);
        expect(idle[0].task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
      });

      it('leaves out tasks written within the idle time, and stops at the limit', async () => {
        await store.save(makeTask('t1'), alice);
        await store.save(makeTask('t2'), alice);
        expect(await store.findIdle({ states: wanted, idleMs: HOUR, limit: 10 })).toEqual([]);
        expect(
          await store.findIdle({ states: wanted, idleMs: HOUR, limit: 1, now: new Date(Date.now() + 2 * HOUR) }),
        ).toHaveLength(1);
      });
    });
  });
}
