/**
 * SIGTERM after a load that left keep-alive connections open and blocking sends whose clients
 * left before their answer (a load generator stopping at its deadline does both): the API does not
 * wait for turns that nobody waits for, and exits 0 promptly.
 */
import { Queue } from 'bullmq';
import { Agent, ClientRequest, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { QueueName } from '../../src/queue/queue.constants';
import { ServiceProcess, ServiceProcesses } from '../a2a/support/service-processes';
import { TEST_AGENTS_TOML } from '../a2a/support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { bearer } from '../support/test-app';
import { createTestDatabase, deleteRedisKeys, TestDatabase, testRedisPrefix, testRedisUrl } from '../support/test-database';

jest.setTimeout(40_000);

const ABANDONED_SENDS = 5;
/** Far below the drain (80% of the default 25 s) and Fastify's close timeout (10 s by default) that it used to wait for. */
const PROMPT_EXIT_MS = 5_000;

describe('shutdown after load', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let services: ServiceProcesses;
  let api: ServiceProcess;
  let turns: Queue;
  const keepAlive = new Agent({ keepAlive: true });

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    const { hostname, port } = new URL(testRedisUrl());
    turns = new Queue(QueueName.AgentTurns, { connection: { host: hostname, port: Number(port) }, prefix: `${redisPrefix}bull` });
    // No worker: the turns stay queued, so the blocking sends stay in flight until their clients leave.
    api = await services.api('api');
  });

  afterAll(async () => {
    keepAlive.destroy();
    await turns?.close();
    await services?.stopAll();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  const post = (body: object): { sent: ClientRequest; answer: Promise<string> } => {
    const { hostname, port } = new URL(api.baseUrl);
    const sent = request({
      host: hostname,
      port,
      path: '/a2a',
      method: 'POST',
      agent: keepAlive,
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...bearer() },
    });
    const answer = new Promise<string>((resolve, reject) => {
      sent.once('error', reject);
      sent.once('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.once('end', () => resolve(text));
      });
    });
    sent.end(JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), ...body }));
    return { sent, answer };
  };

  it('exits 0 promptly on SIGTERM once the clients of blocking sends have left', async () => {
    const sends = Array.from({ length: ABANDONED_SENDS }, (_, n) =>
      post({ method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: `send ${n}` }] } } }),
    );
    for (const { answer } of sends) answer.catch(() => undefined); // destroyed below
    // A send queues its turn once it follows the task's stream: all of them follow once all are queued.
    await eventually(() => turns.getWaitingCount(), (count) => count === ABANDONED_SENDS);
    for (const { sent } of sends) sent.destroy();

    const started = Date.now();
    const exit = await services.explain(() => api.stop('SIGTERM'));
    const tookMs = Date.now() - started;

    await services.explain(() => {
      expect(exit).toBe(0);
      expect(tookMs).toBeLessThan(PROMPT_EXIT_MS);
    });
  });
});
