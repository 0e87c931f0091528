/**
 * A push notification config whose URL the SSRF rules refuse (or that is no http(s) URL) could never
 * be delivered to: it is refused when registered, in every dialect, naming the rule, instead of
 * failing at each delivery.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import type { Json } from '../support/json';

const V1 = { 'a2a-version': '1.0' };
const LOOPBACK = 'http://127.0.0.1:9/hook';
const LOOPBACK_RULE = '127.0.0.1 is a loopback address (allow it with outbound.allow_hosts)';

describe('webhook registration', () => {
  let app: NestFastifyApplication;
  let url: string;
  let taskId: string;

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(), ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const rpc = (method: string, params: unknown, headers: Record<string, string> = V1) =>
    post('/a2a', { jsonrpc: '2.0', id: 1, method, params }, headers);
  const send = (text: string, configuration?: Json) =>
    rpc('SendMessage', { message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }] }, configuration });
  const taskCount = async () => ((await rpc('ListTasks', {})).body.result.tasks as unknown[]).length;
  const createConfig = (webhookUrl: string) =>
    rpc('CreateTaskPushNotificationConfig', { taskId, id: 'hook', url: webhookUrl, token: 'secret' });

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig()));
    taskId = (await send('a task to watch')).body.result.task.id;
  });

  afterAll(async () => {
    await app?.close();
  });

  it.each([
    [LOOPBACK, LOOPBACK_RULE],
    ['http://localhost:8080/hook', '127.0.0.1 is a loopback address'],
    ['http://10.1.2.3/hook', '10.1.2.3 is a private address'],
    ['http://169.254.169.254/latest', 'is a cloud metadata endpoint (blocked even when allowlisted)'],
    ['ftp://hooks.example.com/hook', 'scheme ftp: is not allowed (only http: and https:)'],
    ['https://user:pass@hooks.example.com/hook', 'URLs with credentials are not allowed'],
    ['not a url', 'params.url: not an absolute URL'],
  ])('v1.0 CreateTaskPushNotificationConfig refuses %s with -32602 naming the rule', async (webhookUrl, rule) => {
    const { body } = await createConfig(webhookUrl);
    expect(body.error).toMatchObject({ code: -32602, message: expect.stringContaining(rule) });
  });

  it('v0.3 tasks/pushNotificationConfig/set refuses it with -32602', async () => {
    const { body } = await rpc(
      'tasks/pushNotificationConfig/set',
      { taskId, pushNotificationConfig: { url: LOOPBACK, token: 'secret' } },
      {},
    );
    expect(body.error).toMatchObject({ code: -32602, message: expect.stringContaining(LOOPBACK_RULE) });
  });

  it('HTTP+JSON refuses it with 400', async () => {
    const { status, body } = await post(
      `/a2a/rest/tasks/${taskId}/pushNotificationConfigs`,
      { taskId, id: 'hook', url: LOOPBACK },
      V1,
    );
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain(LOOPBACK_RULE);
  });

  it('stores none of the refused configs', async () => {
    const { body } = await rpc('ListTaskPushNotificationConfigs', { taskId });
    expect(body.result.configs ?? []).toEqual([]);
  });

  it('refuses a name that resolves to a blocked address, naming the address and the rule', async () => {
    // The machine's own name resolves to one of its own (loopback or private) addresses.
    const { address } = await lookup(hostname());
    const { body } = await createConfig(`http://${hostname()}:9/hook`);
    expect(body.error).toMatchObject({ code: -32602, message: expect.stringContaining(`refused: ${address} is a`) });
  });

  it('takes a name that does not resolve (yet): each delivery resolves and checks it', async () => {
    const { body } = await createConfig('https://hooks.example.invalid/hook');
    expect(body.result).toMatchObject({ url: 'https://hooks.example.invalid/hook' });
  });

  describe('in a send, refuses it before any task exists', () => {
    it('v1.0 SendMessage with a taskPushNotificationConfig', async () => {
      const before = await taskCount();
      const { body } = await send('notify a loopback', {
        taskPushNotificationConfig: { url: LOOPBACK, token: 'secret' },
      });
      expect(body.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining(
          `params.configuration.taskPushNotificationConfig.url: webhook ${LOOPBACK} refused: ${LOOPBACK_RULE}`,
        ),
      });
      expect(await taskCount()).toBe(before);
    });

    it('v0.3 message/send with a pushNotificationConfig', async () => {
      const before = await taskCount();
      const message = {
        kind: 'message',
        messageId: 'm-v03',
        role: 'user',
        parts: [{ kind: 'text', text: 'notify a loopback' }],
      };
      const { body } = await rpc(
        'message/send',
        { message, configuration: { pushNotificationConfig: { url: LOOPBACK } } },
        {},
      );
      expect(body.error).toMatchObject({ code: -32602, message: expect.stringContaining(LOOPBACK_RULE) });
      expect(await taskCount()).toBe(before);
    });
  });
});
