/**
 * Whether a send waits for its turn, decided alike in embedded and durable mode, from the raw
 * requests clients send: v1.0's `returnImmediately` (default false; v0.3's `blocking` is no v1.0
 * field and is ignored), and v0.3 JSON-RPC's `blocking`, which waits unless it is false, as the
 * 0.3 servers did. v0.3 HTTP+JSON is the v0.3 protobuf's JSON, where a false `blocking` is left out.
 */
import { randomUUID } from 'node:crypto';
import { postJson } from '../faults/support/store-outage-clients';
import { writeConfigFile } from '../support/config-file';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { startTestAppIn } from '../support/test-app-in-mode';
import type { Json } from '../support/json';

const V1 = { 'a2a-version': '1.0' };
/** `slow` takes about 1.5 s: a send answered before its turn ends shows `submitted` or `working`. */
const AGENT = 'slow';

const v1Send = (configuration?: Json) => ({
  message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'wait for me' }] },
  ...(configuration && { configuration }),
});
const v03Send = (configuration?: Json) => ({
  message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'wait for me' }] },
  ...(configuration && { configuration }),
});
const v03RestSend = (configuration?: Json) => ({
  message: { messageId: randomUUID(), role: 'ROLE_USER', content: [{ text: 'wait for me' }] },
  ...(configuration && { configuration }),
});

describe.each(['embedded', 'durable'] as const)('whether a send waits for its turn (%s)', (mode) => {
  let url: string;
  let close: () => Promise<unknown>;

  beforeAll(async () => {
    ({ url, close } = await startTestAppIn(mode, { SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML) }));
  });

  afterAll(() => close?.());

  const answer = async (path: string, body: Json, headers: Record<string, string> = {}) =>
    (await postJson(url + path, body, headers)).body as Json;
  /** The state a send answered with, in whichever form its dialect answers (the whole answer when it is none). */
  const jsonRpcState = async (params: Json, headers: Record<string, string> = {}) => {
    const method = 'a2a-version' in headers ? 'SendMessage' : 'message/send';
    const body = await answer(`/a2a/agents/${AGENT}`, { jsonrpc: '2.0', id: 1, method, params }, headers);
    return (body.result?.task?.status?.state ?? body.result?.status?.state ?? JSON.stringify(body)) as string;
  };
  const restState = async (path: string, params: Json, headers: Record<string, string> = {}) => {
    const body = await answer(`/a2a/rest/agents/${AGENT}${path}`, params, headers);
    return (body.task?.status?.state ?? JSON.stringify(body)) as string;
  };

  describe('v1.0', () => {
    it.each([
      ['JSON-RPC', (params: Json) => jsonRpcState(params, V1)],
      ['HTTP+JSON', (params: Json) => restState('/message:send', params, V1)],
    ])(
      'over %s, waits unless returnImmediately is true; a v0.3 `blocking: false` is no v1.0 field and changes nothing',
      async (_, send) => {
        expect(await send(v1Send({ blocking: false }))).toBe('TASK_STATE_COMPLETED');
        expect(await send(v1Send({ acceptedOutputModes: ['text/plain'] }))).toBe('TASK_STATE_COMPLETED');
        expect(await send(v1Send())).toBe('TASK_STATE_COMPLETED');
        expect(await send(v1Send({ returnImmediately: true, blocking: true }))).toMatch(
          /^TASK_STATE_(SUBMITTED|WORKING)$/,
        );
      },
    );
  });

  describe('v0.3', () => {
    it('over JSON-RPC, waits unless blocking is false, whether or not the configuration names it', async () => {
      expect(await jsonRpcState(v03Send({ acceptedOutputModes: ['text/plain'] }))).toBe('completed');
      expect(await jsonRpcState(v03Send({}))).toBe('completed');
      expect(await jsonRpcState(v03Send())).toBe('completed');
      expect(await jsonRpcState(v03Send({ blocking: true }))).toBe('completed');
      expect(await jsonRpcState(v03Send({ blocking: false }))).toMatch(/^(submitted|working)$/);
    });

    it('in the legacy REST form (the primary agent), waits unless blocking is false', async () => {
      const state = async (configuration: Json) => {
        const body = await answer('/a2a/tasks/send', {
          message: { role: 'user', parts: [{ type: 'text', text: 'wait' }] },
          configuration,
        });
        return (body.status?.state ?? JSON.stringify(body)) as string;
      };
      expect(await state({ accepted_output_modes: ['text/plain'] })).toBe('completed');
      expect(await state({ blocking: false })).toMatch(/^(submitted|working)$/);
    });

    it('over HTTP+JSON, reads blocking as the v0.3 protobuf has it: a configuration without it is answered at once', async () => {
      expect(await restState('/v1/message:send', v03RestSend())).toBe('TASK_STATE_COMPLETED');
      expect(await restState('/v1/message:send', v03RestSend({ blocking: true }))).toBe('TASK_STATE_COMPLETED');
      expect(await restState('/v1/message:send', v03RestSend({ acceptedOutputModes: ['text/plain'] }))).toMatch(
        /^TASK_STATE_(SUBMITTED|WORKING)$/,
      );
      expect(await restState('/v1/message:send', v03RestSend({ blocking: false }))).toMatch(
        /^TASK_STATE_(SUBMITTED|WORKING)$/,
      );
    });
  });
});
