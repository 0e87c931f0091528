/**
 * MCP<->A2A bridge latency: how long after an external agent publishes a task event the MCP client
 * subscribed to the task's resource hears `notifications/resources/updated`.
 * The external agent is the A2A SDK's own server in this process (so both ends read one clock);
 * Switchboard runs embedded in a child process with it as an external agent; a v2 MCP client
 * (2026-07-28, `subscriptions/listen`) starts the task with `subagent_start`. The agent publishes
 * one status update at a time, the next only once the previous one was heard, so each sample is
 * one event's whole trip: remote SSE -> Switchboard's gateway turn -> task stream -> MCP listen stream.
 * Usage: npm run bench:bridge -- [--events 200]
 */
import { AGENT_CARD_PATH, AgentCard, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import express from 'express';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../test/support/free-port';
import { ensureSwitchboardBuilt, SWITCHBOARD_BIN } from '../a2a/build';
import { shutdown, startNode, waitUntilReady } from '../a2a/processes';

const API_KEY = 'bench-key-0123456789abcdef';

/** Hands the agent's events out one at a time: `next()` lets the agent publish its next event. */
class Pacer {
  private release?: () => void;
  publishedAt = 0;

  wait(): Promise<void> {
    return new Promise((resolve) => (this.release = resolve));
  }

  next(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }
}

function remoteAgent(events: number, pacer: Pacer): AgentExecutor {
  return {
    async execute({ taskId, contextId, userMessage }, bus) {
      const status = (state: TaskState, text: string) =>
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            timestamp: new Date().toISOString(),
            message: {
              messageId: randomUUID(),
              taskId,
              contextId,
              role: Role.ROLE_AGENT,
              parts: [{ content: { $case: 'text', value: text }, filename: '', mediaType: 'text/plain', metadata: {} }],
              metadata: {},
              extensions: [],
              referenceTaskIds: [],
            },
          },
          metadata: {},
        });
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString(), message: undefined },
          history: [userMessage],
          artifacts: [],
          metadata: {},
        }),
      );
      for (let index = 0; index < events; index++) {
        await pacer.wait();
        pacer.publishedAt = performance.now();
        bus.publish(status(TaskState.TASK_STATE_WORKING, `step ${index}`));
      }
      await pacer.wait();
      bus.publish(status(TaskState.TASK_STATE_COMPLETED, 'done'));
      bus.finished();
    },
    cancelTask: async () => {},
  };
}

async function startRemote(events: number, pacer: Pacer): Promise<string> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = AgentCard.fromJSON({
    name: 'remote',
    description: 'bench agent',
    version: '1.0.0',
    supportedInterfaces: [{ url: `${url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  });
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), remoteAgent(events, pacer));
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return url;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { events: { type: 'string', default: '200' } } });
  const events = Number(values.events);
  await ensureSwitchboardBuilt();
  const pacer = new Pacer();
  const remoteUrl = await startRemote(events, pacer);
  const dir = mkdtempSync(join(tmpdir(), 'bench-bridge-'));
  writeFileSync(
    join(dir, 'switchboard.toml'),
    `[outbound]\nallow_hosts = ["127.0.0.1"]\n[[a2a.external_agents]]\nname = "remote"\nurl = "${remoteUrl}"\n`,
  );
  const port = await freePort();
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    SWITCHBOARD_API_KEYS: API_KEY,
    SWITCHBOARD_RATE_LIMIT: '100000000',
    LOG_LEVEL: 'warn',
  };
  const switchboard = startNode('switchboard', [SWITCHBOARD_BIN, 'serve'], env, dir);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(`${baseUrl}/readyz`, [switchboard]);

  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${API_KEY}` } },
  });
  const client = new Client(
    { name: 'bench-bridge', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  const started = await client.callTool({
    name: 'subagent_start',
    arguments: { subagentUri: 'a2a-agent://remote', text: 'go' },
  });
  const { taskUri } = started.structuredContent as { taskUri: string };
  const samples: number[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    if (notification.params.uri !== taskUri || pacer.publishedAt === 0) return;
    samples.push(performance.now() - pacer.publishedAt);
    pacer.publishedAt = 0;
    if (samples.length >= events) done();
    else pacer.next();
  });
  await client.listen({ resourceSubscriptions: [taskUri] });
  pacer.next();
  await finished;
  pacer.next();
  await client.close();
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(
    `bridge: ${samples.length} remote events, each heard as notifications/resources/updated by a 2026-07-28 subscriber`,
  );
  console.log(
    `latency ms  p50 ${percentile(sorted, 50).toFixed(1)}  p90 ${percentile(sorted, 90).toFixed(1)}  p99 ${percentile(sorted, 99).toFixed(1)}  max ${sorted.at(-1)!.toFixed(1)}`,
  );
  console.log(`target: p50 < 50 ms: ${percentile(sorted, 50) < 50 ? 'met' : 'MISSED'}`);
}

main()
  .catch((error: Error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(shutdown);
