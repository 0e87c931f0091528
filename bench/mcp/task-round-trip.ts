/**
 * MCP Tasks' cost: an agent (`echo`, one chunk) called as a task through Switchboard's `/mcp`,
 * from the `tools/call` that creates it to its result, the caller polling `tasks/get` at the
 * `pollInterval` the server gives (`--poll-ms`, set in its config), beside a plain call of the same
 * tool. 2025-11-25 with the 1.x SDK client (create, `tasks/get` until it ends, `tasks/result`);
 * 2026-07-28 as ext-tasks sends it (create, `tasks/get` until it ends, the result in the last).
 * Embedded mode: one process, memory stores, the turn run in the API process.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { messageOf, modernHeaders, modernMeta } from '../../test/mcp-server/support/raw-mcp';
import { freePort } from '../../test/support/free-port';
import { SWITCHBOARD_BIN } from '../a2a/build';
import { startNode, waitUntilReady } from '../a2a/processes';
import { cpuMsPerCall, expectText, measure, MEASURED_HEADER, measuredCells, printTable, type Timing } from './measure';

const TOOL = 'switchboard_agent_echo';
const AGENT_TOML = '[[agents]]\nname = "echo"\n[agents.executor]\ntype = "echo"\n';
/** A 2026-07-28 request's envelope, its client taking the tasks extension. */
const TASKS_ENVELOPE = {
  ...modernMeta(),
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/** Polls `get` every `intervalMs` while the task is working; the task as it was when it stopped. */
async function pollWhileWorking<T extends { status: string }>(
  created: T,
  intervalMs: number,
  get: () => Promise<T>,
): Promise<T> {
  let task = created;
  while (task.status === 'working') {
    await sleep(intervalMs);
    task = await get();
  }
  return task;
}

/** One 2026-07-28 request to `/mcp` as ext-tasks' raw path sends it (`Mcp-Name`: the tool or the task). */
async function modernRequest(
  mcpUrl: URL,
  method: string,
  params: Record<string, unknown>,
  name: string,
): Promise<Record<string, unknown>> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: TASKS_ENVELOPE } });
  const response = await fetch(mcpUrl, { method: 'POST', headers: modernHeaders(method, name), body });
  const message = messageOf(await response.text());
  if (!message?.result) throw new Error(`${method}: ${response.status} ${JSON.stringify(message?.error)}`);
  return message.result as Record<string, unknown>;
}

export async function benchTaskRoundTrip(timing: Timing, concurrencies: number[], pollMs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-mcp-tasks-'));
  const config = join(dir, 'switchboard.toml');
  writeFileSync(config, `${AGENT_TOML}\n[mcp_server]\ntask_poll_interval_ms = ${pollMs}\n`);
  const port = await freePort();
  const server = startNode(
    'switchboard',
    [SWITCHBOARD_BIN, 'serve'],
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SWITCHBOARD_CONFIG: config,
      SWITCHBOARD_RATE_LIMIT: '100000000',
    },
    dir,
  );
  const mcpUrl = new URL(`http://127.0.0.1:${port}/mcp`);
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`, [server]);
    const plain = new Client({ name: 'bench-plain', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await plain.connect(new StreamableHTTPClientTransport(mcpUrl));
    const legacy = new ClientV1({ name: 'bench-tasks-2025', version: '1.0.0' });
    await legacy.connect(new TransportV1(mcpUrl));

    let n = 0;
    const plainCall = async () => {
      const text = `m${++n}`;
      expectText(await plain.callTool({ name: TOOL, arguments: { message: text } }), text);
    };
    const task2025 = async () => {
      const text = `m${++n}`;
      const { task } = await legacy.request(
        { method: 'tools/call', params: { name: TOOL, arguments: { message: text }, task: {} } },
        CreateTaskResultSchema,
      );
      await pollWhileWorking(task, task.pollInterval ?? pollMs, () => legacy.experimental.tasks.getTask(task.taskId));
      expectText(await legacy.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema), text);
    };
    const task2026 = async () => {
      const text = `m${++n}`;
      const created = (await modernRequest(
        mcpUrl,
        'tools/call',
        { name: TOOL, arguments: { message: text } },
        TOOL,
      )) as {
        taskId: string;
        status: string;
        pollIntervalMs: number;
      };
      const ended = await pollWhileWorking(
        created,
        created.pollIntervalMs,
        async () =>
          (await modernRequest(mcpUrl, 'tasks/get', { taskId: created.taskId }, created.taskId)) as typeof created & {
            result?: object;
          },
      );
      expectText((ended as { result?: object }).result, text);
    };
    for (const concurrency of concurrencies) {
      const results = [
        await measure('plain tools/call (2026-07-28)', plainCall, timing, concurrency, [server]),
        await measure('task 2025-11-25, create to result', task2025, timing, concurrency, [server]),
        await measure('task 2026-07-28, create to result', task2026, timing, concurrency, [server]),
      ];
      printTable(
        ['path', ...MEASURED_HEADER],
        results.map((r) => [r.name, ...measuredCells(r)]),
      );
      for (const r of results.slice(1))
        console.log(
          `${r.name}: p50 +${(r.p50 - results[0].p50).toFixed(2)} ms, p99 +${(r.p99 - results[0].p99).toFixed(2)} ms, CPU +${(cpuMsPerCall(r) - cpuMsPerCall(results[0])).toFixed(2)} ms per call over the plain call`,
        );
    }
    await Promise.all([plain.close(), legacy.close()]);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
