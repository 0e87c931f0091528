/**
 * The audit trail through the admin API on a durable service (real Postgres, Redis and BullMQ; the
 * worker in the API process): console logins and refused ones, an operator's cancel, the filters and
 * pages, bad input, and retention on the maintenance queue.
 */
import { Queue } from 'bullmq';
import { AUDIT_STORE, type AuditStore } from '../../src/audit/audit-store.interface';
import { JobHandlerRegistry } from '../../src/queue/job-handler.registry';
import { JobName, QueueName } from '../../src/queue/queue.constants';
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from '../console/support/operator-key';
import { writeConfigFile } from '../support/config-file';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import type { Json } from '../support/json';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { TEST_API_KEY } from '../support/test-app';
import { testRedisUrl } from '../support/test-database';
import { adminCall, sendMessage } from './support/admin-client';

const WRONG_KEY = 'wrong-key-that-must-never-be-recorded';
const DAY = 24 * 3600 * 1000;

describe('audit trail (durable)', () => {
  let service: DurableTestApp;
  let url: string;
  let store: AuditStore;
  const audit = (query = '', key = OPERATOR_KEY) => adminCall(url, `/api/admin/audit${query}`, { key });
  const logIn = (key: string) =>
    fetch(`${url}/console/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
      body: new URLSearchParams({ api_key: key }),
    });

  beforeAll(async () => {
    service = await startDurableTestApp({
      SWITCHBOARD_CONFIG: writeConfigFile(`${OPERATOR_RULE_TOML}\n[audit]\nretention_days = 30\n${TEST_AGENTS_TOML}`),
      SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
    });
    url = service.url;
    store = service.app.get<AuditStore>(AUDIT_STORE);
  });

  afterAll(() => service?.close());

  it("records each console login with the key's name, and refused ones without the key", async () => {
    expect((await logIn(OPERATOR_KEY)).status).toBe(303);
    expect((await logIn(WRONG_KEY)).status).toBe(401);
    expect((await logIn(TEST_API_KEY)).status).toBe(403);

    const { status, body } = await audit('?target=console');
    expect(status).toBe(200);
    const ip = expect.any(String);
    expect(body.entries).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: 'tester',
        action: 'console.login_refused',
        target: 'console',
        detail: { ip, reason: 'no operator rights' },
      },
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: 'anonymous',
        action: 'console.login_refused',
        target: 'console',
        detail: { ip, reason: 'invalid key' },
      },
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: 'operator',
        action: 'console.login',
        target: 'console',
        detail: { ip },
      },
    ]);
    const answer = JSON.stringify(body);
    for (const key of [OPERATOR_KEY, WRONG_KEY, TEST_API_KEY]) expect(answer).not.toContain(key);
  });

  it('records a task an operator cancels, with the operator as its actor; a refused cancel is not recorded', async () => {
    const task = await sendMessage(url, 'ask', TEST_API_KEY, 'weather?');
    const cancel = () => adminCall(url, `/api/admin/tasks/${task.id}/cancel`, { method: 'POST', key: OPERATOR_KEY });
    expect((await cancel()).status).toBe(200);
    expect((await cancel()).status).toBe(409);

    const { body } = await audit(`?target=${encodeURIComponent(`task:${task.id}`)}`);
    expect(body.entries).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: 'operator',
        action: 'task.cancel',
        target: `task:${task.id}`,
        detail: { tenant: expect.any(String), owner: 'tester', agent: 'ask' },
      },
    ]);
  });

  it('filters by actor, action and since, and pages newest first, 50 a page', async () => {
    const before = new Date(Date.now() - 1000);
    for (let i = 0; i < 60; i++)
      await store.append({ at: new Date(), actor: 'bulk', action: 'test.bulk', target: `t${i}` });
    await store.append({ at: new Date(), actor: 'bulk', action: 'test.other', target: 'other' });
    const targets = (body: Json) => (body.entries as Json[]).map((entry) => entry.target as string);

    const first = (await audit('?actor=bulk&action=test.bulk')).body;
    expect(targets(first)).toEqual(Array.from({ length: 50 }, (_, i) => `t${59 - i}`));
    const second = (await audit(`?actor=bulk&action=test.bulk&pageToken=${first.nextPageToken}`)).body;
    expect(targets(second)).toEqual(Array.from({ length: 10 }, (_, i) => `t${9 - i}`));
    expect(second.nextPageToken).toBeUndefined();

    expect(targets((await audit('?action=test.other')).body)).toEqual(['other']);
    expect(targets((await audit(`?actor=bulk&action=test.other&since=${before.toISOString()}`)).body)).toEqual([
      'other',
    ]);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect((await audit(`?actor=bulk&since=${later}`)).body.entries).toEqual([]);
  });

  it('answers bad input with 400 naming the parameter', async () => {
    for (const [query, parameter] of [
      ['?since=yesterday', 'since'],
      ['?since=2026-13-45', 'since'],
      ['?since=Dec%201%202026', 'since'],
      ['?pageToken=not-a-token', 'pageToken'],
      [`?pageToken=${Buffer.from('{"before":"x"}').toString('base64url')}`, 'pageToken'],
      ['?actor=a&actor=b', 'actor'],
    ]) {
      const { status, body } = await audit(query);
      expect([query, status, body.message]).toEqual([query, 400, expect.stringContaining(parameter)]);
    }
  });

  it('answers only callers with operator rights', async () => {
    expect((await audit('', TEST_API_KEY)).status).toBe(403);
    expect((await adminCall(url, '/api/admin/audit')).status).toBe(401);
  });

  it('removes entries older than audit.retention_days when the maintenance job runs, which is scheduled', async () => {
    await store.append({ at: new Date(Date.now() - 31 * DAY), actor: 'retention', action: 'test.old', target: 'old' });
    await store.append({ at: new Date(Date.now() - 29 * DAY), actor: 'retention', action: 'test.old', target: 'kept' });

    await service.app.get(JobHandlerRegistry).dispatch(JobName.AuditRetention, {});
    expect(((await audit('?actor=retention')).body.entries as Json[]).map((entry) => entry.target)).toEqual(['kept']);

    const maintenance = new Queue(QueueName.Maintenance, {
      connection: { url: testRedisUrl() },
      prefix: `${service.config.redis.key_prefix}bull`,
    });
    try {
      expect(await maintenance.getJobScheduler(JobName.AuditRetention)).toMatchObject({ every: 3600 * 1000 });
    } finally {
      await maintenance.close();
    }
  });
});
