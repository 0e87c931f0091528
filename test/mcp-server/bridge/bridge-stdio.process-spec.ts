/**
 * The bridge over `switchboard mcp` (embedded): task resources subscribed to over stdio, by a
 * 2025-era client (`resources/subscribe`) and a 2026-07-28 one (`subscriptions/listen`), with the
 * official clients of each era spawning the real command.
 */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeConfigFile } from '../../support/config-file';
import { eventually } from '../../support/eventually';
import { artifactText, readTask, startedTask, statesUntil, UpdateLog } from '../support/bridge-clients';

const BIN = resolve(__dirname, '../../../bin/switchboard.js');
const CONFIG = `
[[agents]]
name = "slow"
[agents.executor]
type = "echo"
chunks = 3
delay_ms = 200
`;

function command(): { command: string; args: string[]; cwd: string; env: Record<string, string> } {
  const env = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', SWITCHBOARD_CONFIG: writeConfigFile(CONFIG) };
  return { command: process.execPath, args: [BIN, 'mcp'], cwd: mkdtempSync(join(tmpdir(), 'switchboard-mcp-')), env };
}

describe('the bridge over switchboard mcp', () => {
  it('announces every change of a subscribed task to a 2025-era client, and none of a task it did not subscribe to', async () => {
    const client = new ClientV1({ name: 'stdio-bridge-v1', version: '1.0.0' });
    const updates = new UpdateLog();
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
      updates.record(notification.params.uri),
    );
    await client.connect(new StdioTransportV1({ ...command(), stderr: 'ignore' }));
    try {
      const followed = startedTask(
        await client.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://slow', text: 'abc' } }),
      );
      const other = startedTask(
        await client.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://slow', text: 'xyz' } }),
      );
      await client.subscribeResource({ uri: followed.taskUri });
      expect((await statesUntil(updates, client, followed.taskUri, 'completed')).at(-1)).toBe('completed');
      expect(artifactText(await readTask(client, followed.taskUri))).toBe('abc');
      await eventually(
        () => readTask(client, other.taskUri),
        (task) => task.state === 'completed',
      );
      expect(updates.count(other.taskUri)).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('announces the changes of the tasks a 2026-07-28 client listens to', async () => {
    const client = new ClientV2(
      { name: 'stdio-bridge-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const updates = new UpdateLog();
    client.setNotificationHandler('notifications/resources/updated', (notification) =>
      updates.record(notification.params.uri),
    );
    await client.connect(new StdioTransportV2({ ...command(), stderr: 'ignore' }));
    try {
      const followed = startedTask(
        await client.callTool({ name: 'subagent_start', arguments: { subagentUri: 'a2a-agent://slow', text: 'abc' } }),
      );
      const listening = await client.listen({ resourceSubscriptions: [followed.taskUri] });
      expect(listening.honoredFilter.resourceSubscriptions).toEqual([followed.taskUri]);
      expect((await statesUntil(updates, client, followed.taskUri, 'completed')).at(-1)).toBe('completed');
      await listening.close();
    } finally {
      await client.close();
    }
  });
});
