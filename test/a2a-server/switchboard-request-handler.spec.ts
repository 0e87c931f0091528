import {
  A2A_PROTOCOL_VERSION,
  CancelTaskRequest,
  GetExtendedAgentCardRequest,
  GetTaskRequest,
  Role,
  SendMessageRequest,
  type StreamResponse,
  SubscribeToTaskRequest,
  type Task,
  TaskState,
} from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import {
  ContentTypeNotSupportedError,
  ExtendedAgentCardNotConfiguredError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { ServerCallContext } from '@a2a-js/sdk/server';
import type { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createAppContext } from '../../src/app.factory';
import { configSchema } from '../../src/config/config.schema';
import { TASK_STORE, type TaskStore } from '../../src/task-store/task-store.interface';
import { AgentHandlers } from '../../src/a2a-server/agent-handlers.service';
import { ServiceUnavailableError } from '../../src/a2a-server/service-unavailable.error';
import type { SwitchboardRequestHandler } from '../../src/a2a-server/switchboard-request-handler';

/** The blocking deadline: far above an echo's turn, short enough to wait for once. */
const BLOCKING_TIMEOUT_SECS = 1;

/** Embedded mode (memory stores, in-process queue and worker) with an agent for each path of a turn. */
const config = configSchema.parse({
  log: { level: 'silent' },
  a2a: { blocking_timeout_secs: BLOCKING_TIMEOUT_SECS, max_message_parts: 3 },
  agents: [
    { name: 'echo', executor: { type: 'echo' } },
    {
      name: 'asker',
      executor: {
        type: 'script',
        steps: [{ status: 'input-required', text: 'Which one?' }],
        reply_steps: [{ status: 'completed', text: 'Done.' }],
      },
    },
    // Works for ten minutes: a turn that runs until it is canceled.
    {
      name: 'endless',
      executor: {
        type: 'script',
        steps: [
          { status: 'working' },
          { artifact: { text: 'partial' } },
          { delay_ms: 600_000 },
          { status: 'completed' },
        ],
      },
    },
  ],
});

interface SendOptions {
  taskId?: string;
  returnImmediately?: boolean;
  acceptedOutputModes?: string[];
  webhook?: string;
  parts?: object[];
}

function sendRequest(
  text: string,
  { taskId, returnImmediately, acceptedOutputModes, webhook, parts }: SendOptions = {},
): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: parts ?? [{ text }], taskId },
    configuration: { returnImmediately, acceptedOutputModes, taskPushNotificationConfig: webhook && { url: webhook } },
  });
}

/** The events of `stream` up to and including the first that `until` accepts; the stream stays open. */
async function readUntil(
  stream: AsyncGenerator<StreamResponse>,
  until: (response: StreamResponse) => boolean,
): Promise<StreamResponse[]> {
  const seen: StreamResponse[] = [];
  for (let next = await stream.next(); !next.done; next = await stream.next()) {
    seen.push(next.value);
    if (until(next.value)) return seen;
  }
  throw new Error(
    `the stream ended before the awaited event; it gave ${seen.map((response) => response.payload?.$case).join(', ')}`,
  );
}

async function readAll(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const seen: StreamResponse[] = [];
  for await (const response of stream) seen.push(response);
  return seen;
}

const hasArtifact = (response: StreamResponse) => response.payload?.$case === 'artifactUpdate';
const stateOf = (response: StreamResponse | undefined) =>
  response?.payload?.$case === 'statusUpdate' ? response.payload.value.status?.state : undefined;

describe('SwitchboardRequestHandler', () => {
  let app: INestApplicationContext;
  let handlers: AgentHandlers;
  const handler = (agent: string): SwitchboardRequestHandler => handlers.find(agent)!.handler;
  const context = () => new ServerCallContext();
  const send = async (agent: string, request: SendMessageRequest) =>
    (await handler(agent).sendMessage(request, context())) as Task;
  const get = (agent: string, id: string) => handler(agent).getTask(GetTaskRequest.fromJSON({ id }), context());
  const cancel = (agent: string, id: string) =>
    handler(agent).cancelTask(CancelTaskRequest.fromJSON({ id }), context());
  /** A task of `endless` whose turn has published its partial artifact, and the stream that saw it (still open). */
  const endlessUnderWay = async () => {
    const stream = handler('endless').sendMessageStream(sendRequest('take your time'), context());
    const events = await readUntil(stream, hasArtifact);
    const first = events[0].payload!;
    return { taskId: first.$case === 'task' ? first.value.id : first.value!.taskId, stream };
  };

  beforeAll(async () => {
    app = await createAppContext(config, 'stdio');
    handlers = app.get(AgentHandlers);
  });

  afterAll(() => app?.close());

  describe('a blocking send', () => {
    it('answers with the task its turn finished', async () => {
      const task = await send('echo', sendRequest('hello'));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'hello' });
      expect(await get('echo', task.id)).toMatchObject({
        id: task.id,
        status: { state: TaskState.TASK_STATE_COMPLETED },
      });
    });

    it('continues a task that asked for input with a turn of its own, which knows it continues', async () => {
      const asked = await send('asker', sendRequest('start'));
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const reply = sendRequest('this one', { taskId: asked.id });
      const answered = await send('asker', reply);
      expect(answered.id).toBe(asked.id);
      // The reply, then what the agent's new turn said.
      expect(answered.history.slice(asked.history.length).map((message) => message.role)).toEqual([
        Role.ROLE_USER,
        Role.ROLE_AGENT,
      ]);
      expect(answered.history[asked.history.length].messageId).toBe(reply.message!.messageId);
      // The script agent plays its reply_steps on a turn that continues its task.
      expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    });

    it('answers by the deadline with the task as it stands, and its turn goes on', async () => {
      const task = await send('endless', sendRequest('take your time'));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      expect(task.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'partial' });
      expect((await get('endless', task.id)).status?.state).toBe(TaskState.TASK_STATE_WORKING);
      await cancel('endless', task.id);
    });
  });

  it('answers a non-blocking send at once with its task, submitted and stored, while its turn runs', async () => {
    const task = await send('endless', sendRequest('take your time', { returnImmediately: true }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect((await get('endless', task.id)).id).toBe(task.id);
    await cancel('endless', task.id);
  });

  describe('refuses a send', () => {
    it('to a task that does not exist', async () => {
      await expect(send('echo', sendRequest('hello?', { taskId: randomUUID() }))).rejects.toBeInstanceOf(
        TaskNotFoundError,
      );
    });

    it('to an ended task, naming its state', async () => {
      const task = await send('echo', sendRequest('once'));
      const refused = send('echo', sendRequest('twice', { taskId: task.id }));
      await expect(refused).rejects.toBeInstanceOf(UnsupportedOperationError);
      await expect(refused).rejects.toThrow('terminal state (completed)');
    });

    it('that accepts none of the output modes the agent produces', async () => {
      await expect(
        send('echo', sendRequest('a picture', { acceptedOutputModes: ['image/png'] })),
      ).rejects.toBeInstanceOf(ContentTypeNotSupportedError);
    });

    it('past the message limits, or with text that cannot be stored, before anything runs', async () => {
      const tooMany = sendRequest('', { parts: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }] });
      await expect(send('echo', tooMany)).rejects.toBeInstanceOf(RequestMalformedError);
      await expect(send('echo', sendRequest('nul \u0000 byte'))).rejects.toThrow(
        'params.message.parts[0].content.value: must not contain U+0000',
      );
    });

    it('whose webhook could never be delivered to', async () => {
      await expect(send('echo', sendRequest('call me back', { webhook: 'http://127.0.0.1:9/hook' }))).rejects.toThrow(
        RequestMalformedError,
      );
    });

    describe('whose new task could not be stored, with the retryable error naming no task', () => {
      let store: TaskStore;
      let down: jest.SpyInstance[];
      beforeEach(() => {
        store = app.get(TASK_STORE);
        const outage = () => Promise.reject(new Error('ECONNREFUSED'));
        down = [
          jest.spyOn(store, 'save').mockImplementation(outage),
          jest.spyOn(store, 'saveUnlessEnded').mockImplementation(outage),
          jest.spyOn(store, 'saveUnlessTurnRecorded').mockImplementation(outage),
        ];
      });
      afterEach(() => down.forEach((spy) => spy.mockRestore()));

      it.each([
        ['blocking', false],
        ['non-blocking', true],
      ])('%s', async (_, returnImmediately) => {
        const refusal: unknown = await send('echo', sendRequest('never stored', { returnImmediately })).catch(
          (error: unknown) => error,
        );
        expect(refusal).toBeInstanceOf(ServiceUnavailableError);
        expect((refusal as Error).message).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);
      });
    });
  });

  describe('get', () => {
    it('answers with the task, or TaskNotFoundError for a task it does not know', async () => {
      const task = await send('echo', sendRequest('keep me'));
      expect(await get('echo', task.id)).toMatchObject({
        id: task.id,
        history: [expect.objectContaining({ messageId: task.history[0].messageId })],
      });
      await expect(get('echo', randomUUID())).rejects.toBeInstanceOf(TaskNotFoundError);
    });
  });

  describe('cancel', () => {
    it('stops a running turn and answers with the canceled task', async () => {
      const { taskId, stream } = await endlessUnderWay();
      expect(await cancel('endless', taskId)).toMatchObject({
        id: taskId,
        status: { state: TaskState.TASK_STATE_CANCELED },
      });
      // The send's own stream ends with the turn.
      expect(stateOf((await readAll(stream)).at(-1))).toBe(TaskState.TASK_STATE_CANCELED);
    });

    it('ends a task that waits for input, which no turn runs', async () => {
      const asked = await send('asker', sendRequest('start'));
      expect((await cancel('asker', asked.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    });

    it('refuses an ended task with TaskNotCancelableError naming its state, and an unknown one with TaskNotFoundError', async () => {
      const task = await send('echo', sendRequest('done already'));
      await expect(cancel('echo', task.id)).rejects.toThrow(
        new TaskNotCancelableError(`Task ${task.id} is completed and cannot be canceled.`),
      );
      await expect(cancel('echo', randomUUID())).rejects.toBeInstanceOf(TaskNotFoundError);
    });
  });

  describe('resubscribe', () => {
    it('shows the task as it is, then only the events that follow', async () => {
      const { taskId, stream } = await endlessUnderWay();
      const resubscription = handler('endless').resubscribe(SubscribeToTaskRequest.fromJSON({ id: taskId }), context());
      const [first] = await readUntil(resubscription, () => true);
      expect(first.payload).toMatchObject({
        $case: 'task',
        value: { id: taskId, status: { state: TaskState.TASK_STATE_WORKING } },
      });
      expect(
        first.payload?.$case === 'task' &&
          first.payload.value.artifacts.map((artifact) => artifact.parts[0].content?.value),
      ).toEqual(['partial']);
      await cancel('endless', taskId);
      const later = await readAll(resubscription);
      expect(later.map((response) => response.payload?.$case)).not.toContain('artifactUpdate');
      expect(stateOf(later.at(-1))).toBe(TaskState.TASK_STATE_CANCELED);
      await readAll(stream);
    });

    it('refuses an ended task, naming its state, and an unknown one', async () => {
      const task = await send('echo', sendRequest('over'));
      await expect(
        readAll(handler('echo').resubscribe(SubscribeToTaskRequest.fromJSON({ id: task.id }), context())),
      ).rejects.toThrow('terminal state (completed)');
      await expect(
        readAll(handler('echo').resubscribe(SubscribeToTaskRequest.fromJSON({ id: randomUUID() }), context())),
      ).rejects.toBeInstanceOf(TaskNotFoundError);
    });
  });

  it('answers a request for an extended card the agent lacks with the error of the protocol version asked', async () => {
    const current = new ServerCallContext({ requestedVersion: A2A_PROTOCOL_VERSION });
    await expect(
      handler('echo').getAuthenticatedExtendedAgentCard(GetExtendedAgentCardRequest.fromJSON({}), current),
    ).rejects.toBeInstanceOf(UnsupportedOperationError);
    const legacy = new ServerCallContext({ requestedVersion: A2A_LEGACY_PROTOCOL_VERSION });
    await expect(
      handler('echo').getAuthenticatedExtendedAgentCard(GetExtendedAgentCardRequest.fromJSON({}), legacy),
    ).rejects.toBeInstanceOf(ExtendedAgentCardNotConfiguredError);
  });
});
