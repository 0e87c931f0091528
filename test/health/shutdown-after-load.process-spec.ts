/**
 * SIGTERM after a load that left keep-alive connections open and blocking sends whose clients
 * left before their answer (a load generator stopping at its deadline does both): the API does not
 * wait for turns that nobody waits for, and exits 0 promptly. Calls whose clients stay get the whole
 * drain (80% of `server.shutdown_timeout_secs`), also when that is longer than Fastify's own close
 * timeout, then an error naming their task, and the API still exits 0.
 */
import { Queue } from 'bullmq';
import { Agent, type ClientRequest, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { QueueName } from '../../src/queue/queue.constants';
import { type ServiceProcess, ServiceProcesses } from '../support/service-processes';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { bearer } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';

jest.setTimeout(40_000);

const ABANDONED_SENDS = 5;
/** Far below the drain (80% of the default 25 s) and Fastify's close timeout (10 s by default) that it used to wait for. */
const PROMPT_EXIT_MS = 5_000;
/** A drain of 10.4 s: longer than Fastify's default close timeout (10 s). */
const LONG_SHUTDOWN_TOML = `${TEST_AGENTS_TOML}
[server]
shutdown_timeout_secs = 13
`;

type SendRoute = 'JSON-RPC' | 'seed';
/** A blocking send's path, headers and body on each route that follows a task for the request. */
const SEND_REQUESTS: Record<SendRoute, () => [string, Record<string, string>, object]> = {
  'JSON-RPC': () => [
    '/a2a',
    { 'a2a-version': '1.0' },
    {
      jsonrpc: '2.0',
      id: randomUUID(),
      method: 'SendMessage',
      params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello' }] } },
    },
  ],
  seed: () => ['/a2a/tasks/send', {}, { message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] } }],
};

/** One API process (no worker: turns stay queued, so blocking sends stay in flight) with a Redis prefix of its own. */
class LoneApi {
  readonly turns: Queue;
  private readonly keepAlive = new Agent({ keepAlive: true });

  private constructor(
    readonly services: ServiceProcesses,
    readonly api: ServiceProcess,
    readonly redisPrefix: string,
  ) {
    const { hostname, port } = new URL(testRedisUrl());
    this.turns = new Queue(QueueName.AgentTurns, {
      connection: { host: hostname, port: Number(port) },
      prefix: `${redisPrefix}bull`,
    });
  }

  static async start(database: TestDatabase, toml: string): Promise<LoneApi> {
    const redisPrefix = testRedisPrefix();
    const services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(toml),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    return new LoneApi(services, await services.api('api'), redisPrefix);
  }

  /** A blocking send on a keep-alive connection; resolves once its turn is queued, when the request follows its task. */
  async send(route: SendRoute = 'JSON-RPC'): Promise<{ sent: ClientRequest; answer: Promise<string> }> {
    const queued = await this.turns.getWaitingCount();
    const call = this.post(...SEND_REQUESTS[route]());
    call.answer.catch(() => undefined); // a test that destroys the request expects no answer
    await eventually(
      () => this.turns.getWaitingCount(),
      (count) => count > queued,
    );
    return call;
  }

  /** SIGTERM; resolves with the exit code (or signal) and how long the exit took. */
  async terminate(): Promise<{ exit: number | NodeJS.Signals; tookMs: number }> {
    const started = Date.now();
    process.kill(this.api.pid, 'SIGTERM');
    const exit = await this.api.exited;
    return { exit, tookMs: Date.now() - started };
  }

  async close(): Promise<void> {
    this.keepAlive.destroy();
    await this.turns.close();
    await this.services.stopAll();
    await deleteRedisKeys(this.redisPrefix);
  }

  private post(
    path: string,
    headers: Record<string, string>,
    body: object,
  ): { sent: ClientRequest; answer: Promise<string> } {
    const { hostname, port } = new URL(this.api.baseUrl);
    const sent = request({
      host: hostname,
      port,
      path,
      method: 'POST',
      agent: this.keepAlive,
      headers: { 'content-type': 'application/json', ...bearer(), ...headers },
    });
    const answer = new Promise<string>((resolve, reject) => {
      sent.once('error', reject);
      sent.once('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.once('end', () => resolve(text));
      });
    });
    sent.end(JSON.stringify(body));
    return { sent, answer };
  }
}

describe('shutdown after load', () => {
  let database: TestDatabase;
  const started: LoneApi[] = [];
  const startApi = async (toml: string) => {
    const lone = await LoneApi.start(database, toml);
    started.push(lone);
    return lone;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(started.map((lone) => lone.close()));
    await database?.drop();
  });

  it.each<SendRoute>(['JSON-RPC', 'seed'])(
    'exits 0 promptly on SIGTERM once the clients of blocking sends (%s) have left',
    async (route) => {
      const lone = await startApi(TEST_AGENTS_TOML);
      const sends = [];
      for (let n = 0; n < ABANDONED_SENDS; n++) sends.push(await lone.send(route));
      for (const { sent } of sends) sent.destroy();

      const { exit, tookMs } = await lone.terminate();

      await lone.services.explain(() => {
        expect(exit).toBe(0);
        expect(tookMs).toBeLessThan(PROMPT_EXIT_MS);
      });
    },
  );

  it('gives a call whose client stays the whole drain, although longer than Fastify\u2019s close timeout, then exits 0', async () => {
    const lone = await startApi(LONG_SHUTDOWN_TOML);
    const { answer } = await lone.send();

    const { exit, tookMs } = await lone.terminate();

    await lone.services.explain(async () => {
      expect(exit).toBe(0);
      expect(tookMs).toBeGreaterThanOrEqual(10_400);
      expect(await answer).toMatch(/Stopped following task .* this server is shutting down/);
    });
  });
});
