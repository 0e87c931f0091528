/**
 * Each hosted agent is an A2A server of its own: at its endpoint (JSON-RPC, HTTP+JSON, gRPC with
 * its name as the tenant) the caller sees that agent's tasks only. Another agent's task is not
 * found, by every method that names a task; the default endpoint serves the default agent's; the
 * admin API (operators) lists every agent's.
 */
import { ListTasksRequest, type Task, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { randomUUID } from 'node:crypto';
import { writeConfigFile } from '../support/config-file';
import { freePort } from '../support/free-port';
import { bearer } from '../support/test-app';
import { grpcClient } from './support/grpc-client';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { type StoreMode, startTestAppIn } from '../support/test-app-in-mode';
import type { Json } from '../support/json';

type Face = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

const ADMIN_KEY = 'admin-key-0123456789abcdef';

const toml = (grpcPort: number) => `
[a2a.grpc]
port = ${grpcPort}
[[auth.api_keys]]
name = "tester"
key = "test-key-0123456789abcdef"
[[auth.api_keys]]
name = "operator"
key = "${ADMIN_KEY}"
admin = true
${TEST_AGENTS_TOML}`;

describe.each<StoreMode>(['durable', 'embedded'])('the tasks an agent’s endpoint sees (%s)', (mode) => {
  let url: string;
  let close: () => Promise<unknown>;

  beforeAll(async () => {
    const env = { SWITCHBOARD_CONFIG: writeConfigFile(toml(await freePort())), SWITCHBOARD_API_KEYS: undefined };
    ({ url, close } = await startTestAppIn(mode, env));
  });

  afterAll(() => close?.());

  const clientOf = (agent: string, face: Face): Promise<Client> =>
    face === 'GRPC' ? grpcClient(url, agent) : sdkClient(url, agent, face);

  describe.each<Face>(['JSONRPC', 'HTTP+JSON', 'GRPC'])('over %s', (face) => {
    /** One task of each of three agents, in one context. */
    const contextId = randomUUID();
    const tasks: Record<'echo' | 'slow' | 'ask', Task> = {} as never;
    const listed = async (agent: string, params: Json = {}) =>
      (await (await clientOf(agent, face)).listTasks(ListTasksRequest.fromJSON({ contextId, ...params }))).tasks.map(
        ({ id }) => id,
      );

    beforeAll(async () => {
      for (const agent of ['echo', 'slow', 'ask'] as const) {
        tasks[agent] = asTask(
          await (await clientOf(agent, face)).sendMessage(userMessage(`for ${agent}`, { contextId })),
        );
      }
      expect(tasks.ask.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    });

    it("lists the agent's own tasks only, in total too", async () => {
      expect(await listed('slow')).toEqual([tasks.slow.id]);
      expect(await listed('echo')).toEqual([tasks.echo.id]);
      const everyContext = await (await clientOf('slow', face)).listTasks(ListTasksRequest.fromJSON({ pageSize: 100 }));
      expect(everyContext.tasks.map(({ id }) => id)).toContain(tasks.slow.id);
      expect(everyContext.tasks.map(({ id }) => id)).not.toContain(tasks.echo.id);
      expect(everyContext.totalSize).toBe(everyContext.tasks.length);
    });

    it("answers TaskNotFound for another agent's task, by every method that names one, and leaves it as it was", async () => {
      const echo = await clientOf('echo', face);
      const id = tasks.ask.id;
      const notFound = expect.any(TaskNotFoundError);
      await expect(echo.getTask({ id, tenant: '' })).rejects.toEqual(notFound);
      await expect(echo.cancelTask({ id, tenant: '', metadata: {} })).rejects.toEqual(notFound);
      await expect(echo.resubscribeTask({ id, tenant: '' })[Symbol.asyncIterator]().next()).rejects.toEqual(notFound);
      await expect(echo.sendMessage(userMessage('not yours', { taskId: id, contextId }))).rejects.toEqual(notFound);
      const config = {
        tenant: '',
        id: 'hook',
        taskId: id,
        url: 'https://hooks.example.com/a',
        token: 't',
        authentication: undefined,
      };
      await expect(echo.createTaskPushNotificationConfig(config)).rejects.toEqual(notFound);
      await expect(echo.getTaskPushNotificationConfig({ tenant: '', taskId: id, id: 'hook' })).rejects.toEqual(
        notFound,
      );
      await expect(
        echo.listTaskPushNotificationConfig({ tenant: '', taskId: id, pageSize: 0, pageToken: '' }),
      ).rejects.toEqual(notFound);
      await expect(echo.deleteTaskPushNotificationConfig({ tenant: '', taskId: id, id: 'hook' })).rejects.toEqual(
        notFound,
      );

      const own = await (await clientOf('ask', face)).getTask({ id, tenant: '' });
      expect(own.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(own.history).toHaveLength(tasks.ask.history.length);
      expect(
        (
          await (
            await clientOf('ask', face)
          ).listTaskPushNotificationConfig({ tenant: '', taskId: id, pageSize: 0, pageToken: '' })
        ).configs,
      ).toEqual([]);
    });
  });

  describe('the default endpoint and the admin API', () => {
    const contextId = randomUUID();
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      for (const agent of ['echo', 'slow'])
        ids[agent] = asTask(
          await (await sdkClient(url, agent, 'JSONRPC')).sendMessage(userMessage('x', { contextId })),
        ).id;
    });

    it("lists the default agent's tasks only, over JSON-RPC and HTTP+JSON", async () => {
      const rpc = await fetch(`${url}/a2a`, {
        method: 'POST',
        headers: { ...bearer(), 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: { contextId } }),
      });
      expect(((await rpc.json()) as Json).result.tasks.map((task: Json) => task.id)).toEqual([ids.echo]);
      const rest = await fetch(`${url}/a2a/rest/tasks?contextId=${contextId}`, {
        headers: { ...bearer(), 'a2a-version': '1.0' },
      });
      expect(((await rest.json()) as Json).tasks.map((task: Json) => task.id)).toEqual([ids.echo]);
      const other = await fetch(`${url}/a2a/rest/tasks/${ids.slow}`, {
        headers: { ...bearer(), 'a2a-version': '1.0' },
      });
      expect(other.status).toBe(404);
    });

    it("answers another agent's task as not found in v0.3 and the legacy forms too", async () => {
      const v03 = await fetch(`${url}/a2a/agents/slow`, {
        method: 'POST',
        headers: { ...bearer(), 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: ids.echo } }),
      });
      expect(((await v03.json()) as Json).error).toMatchObject({ code: -32001 });
      expect((await fetch(`${url}/a2a/tasks/${ids.slow}`, { headers: bearer() })).status).toBe(404);
      expect((await fetch(`${url}/a2a/tasks/${ids.echo}`, { headers: bearer() })).status).toBe(200);
    });

    it("lists every agent's tasks to operators", async () => {
      const response = await fetch(`${url}/api/admin/tasks`, { headers: bearer(ADMIN_KEY) });
      const listed = ((await response.json()) as Json).tasks.map((task: Json) => task.id);
      expect(listed).toEqual(expect.arrayContaining([ids.echo, ids.slow]));
    });
  });
});
