/**
 * The delegation tools (`a2a_discover`, `a2a_send`) as an LLM agent calls them: the scripted model
 * picks the tool, Switchboard runs it against a real external agent process (peer-agent.ts), and
 * the model reads the result. Each delegated task is a local task of the caller's, found by GetTask
 * under their API key and linked to the peer's task.
 */
import { CancelTaskRequest, ListTasksRequest, SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ExternalAgents } from '../../src/a2a-client/external-agents.service';
import { REMOTE_TASK_METADATA_KEY } from '../../src/agents/executors/a2a/remote-task-link';
import { isTerminal } from '../../src/common/task-states';
import { artifactText, asTask, sdkClient, userMessage } from '../support/sdk-client';
import { ScriptedLlmServer } from './support/scripted-llm-server';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { startTestApp, TEST_API_KEY, testConfig } from '../support/test-app';
import { killAllPeers, type PeerAgent, startPeer } from '../a2a-client/support/peer-process';

const OTHER_API_KEY = 'other-key-0123456789abcdef';

/** What a2a_send hands the model, parsed. */
interface SendResult {
  state: string;
  taskId: string;
  contextId: string;
  answer?: string;
  reason?: string;
}

describe('the delegation tools of an LLM agent', () => {
  let llm: ScriptedLlmServer;
  let peer: PeerAgent;
  let app: NestFastifyApplication;
  let assistant: Client;
  let otherCaller: Client;

  beforeAll(async () => {
    [llm, peer] = await Promise.all([ScriptedLlmServer.start(), startPeer({ mode: 'v1' })]);
    // One peer process behind four names: in the agent's delegates, trusted, neither, and one that never answers.
    const toml = `
[outbound]
allow_hosts = ["127.0.0.1"]

[tools]
timeout_secs = 15             # a2a_send waits 10 s at most

[[agents]]
name = "assistant"
tools = ["a2a_send", "a2a_discover"]
delegates = ["peer", "offline"]
[agents.executor]
type = "llm"
base_url = "${llm.baseUrl}"
model = "test-model"

[[a2a.external_agents]]
name = "peer"
url = "${peer.url}"

[[a2a.external_agents]]
name = "trusted-peer"
url = "${peer.url}"
trusted = true

[[a2a.external_agents]]
name = "stranger"
url = "${peer.url}"

[[a2a.external_agents]]
name = "offline"
url = "http://127.0.0.1:1"
`;
    let url: string;
    ({ app, url } = await startTestApp(
      testConfig({
        SWITCHBOARD_CONFIG: writeConfigFile(toml),
        SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY},other=${OTHER_API_KEY}`,
      }),
    ));
    const externalAgents = app.get(ExternalAgents);
    await eventually(
      async () => ['peer', 'trusted-peer', 'stranger'].map((name) => externalAgents.get(name).status().state),
      (states) => states.every((state) => state === 'ready'),
    );
    [assistant, otherCaller] = await Promise.all([
      sdkClient(url, 'assistant', 'JSONRPC'),
      sdkClient(url, 'assistant', 'JSONRPC', OTHER_API_KEY),
    ]);
  });

  afterAll(async () => {
    await app?.close();
    await llm?.close();
    await killAllPeers();
  });

  /** Runs one turn of the assistant whose model makes `calls`, then answers; returns the tool results it read. */
  async function turnCalling(...calls: { name: string; arguments: Record<string, unknown> }[]): Promise<string[]> {
    llm.play({ toolCalls: calls }, { tokens: ['Done.'] });
    const task = asTask(await assistant.sendMessage(userMessage('Delegate this')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    return llm.requests[1].body.messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.content ?? '');
  }

  const sent = (content: string): SendResult => JSON.parse(content) as SendResult;

  it('offers the delegation tools the allowlist names, and lists the agents it may delegate to', async () => {
    const [listed] = await turnCalling({ name: 'a2a_discover', arguments: {} });
    expect(llm.requests[0].body.tools?.map((tool) => tool.function.name).sort()).toEqual(['a2a_discover', 'a2a_send']);
    const { agents } = JSON.parse(listed) as { agents: { name: string; status: string }[] };
    // Not "stranger": neither trusted nor a delegate of this agent.
    expect(agents.map(({ name, status }) => [name, status === 'ready'])).toEqual([
      ['peer', true],
      ['trusted-peer', true],
      ['offline', false],
    ]);
    expect(agents[0]).toEqual({
      name: 'peer',
      description: 'An external A2A agent for the tests of the Switchboard A2A client',
      status: 'ready',
      streaming: true,
      skills: [
        { id: 'peer', name: 'Peer', description: 'echo, slow, ask, fail, hang, late and message', examples: [] },
      ],
    });
  });

  it('reads the card at a URL without adding its agent, under the SSRF rules', async () => {
    const [card, metadata] = await turnCalling(
      { name: 'a2a_discover', arguments: { url: peer.url } },
      { name: 'a2a_discover', arguments: { url: 'http://169.254.169.254/' } },
    );
    expect(JSON.parse(card)).toMatchObject({
      card_url: `${peer.url}/.well-known/agent-card.json`,
      name: 'peer',
      streaming: true,
      skills: [{ id: 'peer' }],
    });
    expect(metadata).toMatch(/^Error: Refused: .*169\.254\.169\.254/);
  });

  it("hands the model the agent's answer, from a local task the caller finds under their key, linked to the remote task", async () => {
    const [content] = await turnCalling({
      name: 'a2a_send',
      arguments: { agent: 'peer', message: 'echo hello from the model' },
    });
    const result = sent(content);
    expect(result).toEqual({
      state: 'completed',
      taskId: expect.any(String),
      contextId: expect.any(String),
      answer: 'hello from the model',
    });

    const delegated = await assistant.getTask({ id: result.taskId, tenant: '' });
    expect(delegated.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(delegated)).toBe('hello from the model');
    const link = delegated.metadata?.[REMOTE_TASK_METADATA_KEY] as { agent: string; task_id: string };
    expect(link).toEqual({ agent: 'peer', task_id: expect.any(String), context_id: expect.any(String) });
    expect(link.task_id).not.toBe(result.taskId);
    // The peer ran the remote task the link names.
    const peerClient = await peerSdkClient(peer);
    expect(artifactText(await peerClient.getTask({ id: link.task_id, tenant: '' }))).toBe('hello from the model');

    await expect(otherCaller.getTask({ id: result.taskId, tenant: '' })).rejects.toThrow(/not found/i);
  });

  it('returns input-required with the question, and completes the same task when continued by its id', async () => {
    const [asked] = await turnCalling({ name: 'a2a_send', arguments: { agent: 'peer', message: 'ask' } });
    const question = sent(asked);
    expect(question).toEqual({
      state: 'input-required',
      taskId: expect.any(String),
      contextId: expect.any(String),
      answer: 'which city?',
    });

    const [answered] = await turnCalling({
      name: 'a2a_send',
      arguments: { agent: 'peer', message: 'Lisbon', taskId: question.taskId },
    });
    expect(sent(answered)).toEqual({
      state: 'completed',
      taskId: question.taskId,
      contextId: question.contextId,
      answer: 'weather in Lisbon: sunny',
    });
  });

  it('refuses to continue a task that is not waiting for input, or not of that agent', async () => {
    const [first] = await turnCalling({ name: 'a2a_send', arguments: { agent: 'peer', message: 'echo once' } });
    const { taskId } = sent(first);
    const [ended, elsewhere] = await turnCalling(
      { name: 'a2a_send', arguments: { agent: 'peer', message: 'again', taskId } },
      { name: 'a2a_send', arguments: { agent: 'trusted-peer', message: 'again', taskId } },
    );
    expect(ended).toBe(`Error: Task "${taskId}" has ended (completed); send without taskId to start a new one.`);
    expect(elsewhere).toBe(`Error: Task "${taskId}" is not a task of "trusted-peer".`);
  });

  it('delegates to a trusted agent, and refuses an agent that is not allowed, unknown or not discovered, naming it', async () => {
    const [trusted, stranger, unknown, offline] = await turnCalling(
      { name: 'a2a_send', arguments: { agent: 'trusted-peer', message: 'echo trusted' } },
      { name: 'a2a_send', arguments: { agent: 'stranger', message: 'echo hi' } },
      { name: 'a2a_send', arguments: { agent: 'nobody', message: 'echo hi' } },
      { name: 'a2a_send', arguments: { agent: 'offline', message: 'echo hi' } },
    );
    expect(sent(trusted)).toMatchObject({ state: 'completed', answer: 'trusted' });
    expect(stranger).toBe(
      'Error: Agent "assistant" may not delegate to "stranger" (it is neither trusted nor one of this agent\'s delegates).',
    );
    expect(unknown).toMatch(/^Error: No external agent is named "nobody"/);
    expect(offline).toMatch(/^Error: External agent "offline" is not available/);
  });

  it('returns a failed task as an error with the reason', async () => {
    const [content] = await turnCalling({ name: 'a2a_send', arguments: { agent: 'peer', message: 'fail' } });
    expect(content.startsWith('Error: ')).toBe(true);
    expect(sent(content.slice('Error: '.length))).toMatchObject({ state: 'failed', reason: 'peer failure' });
  });

  it('returns a slow task as working after wait_secs, and the task goes on to complete', async () => {
    const [content] = await turnCalling({
      name: 'a2a_send',
      arguments: { agent: 'peer', message: 'slow 3000 abcdefghi', wait_secs: 1 },
    });
    const result = sent(content);
    expect(result).toMatchObject({ state: 'working', taskId: expect.any(String), answer: '' });
    const done = await eventually(
      () => assistant.getTask({ id: result.taskId, tenant: '' }),
      (task) => task.status?.state === TaskState.TASK_STATE_COMPLETED,
    );
    expect(artifactText(done)).toBe('abcdefghi');
  });

  it.each(['hang', 'late 1500'])(
    'cancels the delegated task, and the remote one, when the calling turn is canceled (the peer told: %s)',
    async (text) => {
      llm.play(
        { toolCalls: [{ name: 'a2a_send', arguments: { agent: 'peer', message: text } }] },
        { tokens: ['never read'] },
      );
      const request = SendMessageRequest.fromJSON({
        message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'Delegate a hang' }] },
        configuration: { returnImmediately: true },
      });
      const calling = asTask(await assistant.sendMessage(request));
      // Every other task of this file has ended by now: the one still running besides the calling task is the delegated one.
      const delegated = await eventually(
        async () =>
          (await assistant.listTasks(ListTasksRequest.fromJSON({ pageSize: 100 }))).tasks.find(
            (task) => task.id !== calling.id && !isTerminal(task),
          ),
        (task) => task !== undefined,
      );
      await assistant.cancelTask(CancelTaskRequest.fromJSON({ id: calling.id }));
      await eventually(
        () => assistant.getTask({ id: delegated!.id, tenant: '' }),
        (task) => task.status?.state === TaskState.TASK_STATE_CANCELED,
      );
      // Found on the peer, not through the local task's link: the cancel may come before the peer has
      // named its task, and the local task, ended, records nothing after it.
      const peerClient = await peerSdkClient(peer);
      await eventually(
        async () =>
          (
            await peerClient.listTasks(ListTasksRequest.fromJSON({ pageSize: 100, includeArtifacts: false }))
          ).tasks.filter((task) => firstText(task) === text),
        (tasks) => tasks.length === 1 && tasks[0].status?.state === TaskState.TASK_STATE_CANCELED,
      );
    },
  );
});

function firstText(task: Task): string | undefined {
  const part = task.history[0]?.parts[0];
  return part?.content?.$case === 'text' ? part.content.value : undefined;
}

/** The SDK's client straight to the peer (no auth), to see the remote side of a delegated task. */
function peerSdkClient(peer: PeerAgent): Promise<Client> {
  return new ClientFactory().createFromUrl(peer.url);
}
