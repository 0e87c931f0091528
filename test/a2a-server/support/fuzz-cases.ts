/**
 * Malformed, truncated, oversized and wrong-typed requests to every A2A route, drawn from a seeded
 * PRNG so that a failing case replays exactly. No case is a valid send: every message carries at
 * least one defect that its protocol version's schema forbids (`badMessage`), so a send that is
 * taken, or a task row after the fuzz, is a request the server should have refused.
 */

/** How an answer is judged: as JSON-RPC (an error object, or a result), or as HTTP (a 4xx has a JSON body). */
export type Protocol = 'json-rpc' | 'http';

export interface FuzzCase {
  /** Route pattern and binding, for the distribution in failure messages. */
  route: string;
  protocol: Protocol;
  method: string;
  /** Sent as is: may hold traversal, bad escapes and bytes that a URL parser would rewrite. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The id a JSON-RPC answer must carry: the request's own, when it was valid and readable as JSON. */
  id?: string | number;
  /** A send (SendMessage, message/stream, message:send, tasks/send ...): it must be refused. */
  send: boolean;
  /** The agent named in the path is not hosted: a plain 4xx with a JSON body is a fair answer to JSON-RPC too. */
  unknownAgent: boolean;
  /** What is wrong with the request. */
  note: string;
}

export interface FuzzPlan {
  agents: string[];
  bodyLimit: number;
  auth: Record<string, string>;
}

/** mulberry32: small, fast and the same on every platform. */
export class Rng {
  constructor(private state: number) {}

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

type Json = Record<string, unknown>;

// ---- Values ------------------------------------------------------------------------------------

const NUL = '\u0000';
const ODD_STRINGS = [
  '',
  ' ',
  'x',
  NUL,
  `a${NUL}b`,
  '\ud800',
  '\udfff\ud800',
  '\u202egnp.exe',
  '😀',
  'e\u0301',
  '\uffff',
  '\ufeff',
  '%00',
  '%ZZ',
  "' OR '1'='1",
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  '\r\n\t',
  'null',
  '0',
  '[]',
];
const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53 + 2,
  1e308,
  -1e308,
  [],
  [null],
  [[]],
  {},
  { a: 1 },
  [1, 'a', {}],
];
const NOT_OBJECTS: unknown[] = [null, 5, 'text', [], [{ text: 'x' }], true];
const ODD_NUMBERS: unknown[] = [
  -1,
  0,
  101,
  -(2 ** 31),
  2 ** 31,
  2 ** 53,
  1e308,
  1.5,
  '5',
  'abc',
  '',
  null,
  true,
  [],
  {},
  [3],
];
const TASK_IDS = [
  'no-such-task',
  '00000000-0000-0000-0000-000000000000',
  ' ',
  '',
  '../../etc/passwd',
  '..\\..\\boot.ini',
  `a${NUL}b`,
  NUL,
  '\ud800',
  '😀',
  "' OR '1'='1",
  '*',
  '%',
  '_',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'a/b',
  'a:b',
  '?',
  '#',
  ':cancel',
  'x'.repeat(10_000),
];
/** Unparsable dates, and dates that JavaScript parses but Postgres cannot store. */
const BAD_DATES: unknown[] = [
  'not a date',
  '2020-13-45T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-004714-01-01T00:00:00Z',
  '0000-00-00',
  '1e20',
  `2020-01-01T00:00:00Z${NUL}`,
  5,
  true,
  {},
];
/** Page tokens are base64 of `timestamp|id`: garbage, and well-formed tokens holding bad timestamps and ids. */
const PAGE_TOKENS = [
  '!!!',
  'x',
  '%00',
  'x'.repeat(2000),
  ...[
    'no separator',
    `2020-01-01T00:00:00Z|a${NUL}b`,
    '-271821-04-20T00:00:00Z|x',
    '+275760-09-13T00:00:00Z|x',
    '|',
    `${NUL}|${NUL}`,
  ].map((text) => Buffer.from(text).toString('base64')),
];
const STATES: unknown[] = [
  'TASK_STATE_BOGUS',
  'completed',
  99,
  -1,
  `TASK_STATE_COMPLETED${NUL}`,
  '',
  null,
  {},
  'TASK_STATE_COMPLETED',
];
const PUSH_URLS: unknown[] = [
  'not a url',
  '',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'http://169.254.169.254/latest/meta-data',
  'http://[::1',
  5,
  null,
  {},
];

function junk(rng: Rng): unknown {
  const r = rng.next();
  if (r < 0.45) return rng.pick(ODD_STRINGS);
  if (r < 0.9) return rng.pick(WRONG_TYPES);
  if (r < 0.95) return hugeString(rng);
  return deep(rng);
}

/** Up to ~50 KB once in JSON: NUL and backslash grow six- and twofold when escaped. */
function hugeString(rng: Rng): string {
  const [unit, width] = rng.pick([
    ['x', 1],
    ['é', 2],
    ['😀', 4],
    [NUL, 6],
    ['\\', 2],
  ] as const);
  return unit.repeat(Math.floor((1000 + rng.int(50_000)) / width));
}

/** A placeholder that `serialize` turns into raw nested JSON, so that deep values are never built as objects here. */
function deep(rng: Rng): string {
  return `@@deep:${rng.pick(['array', 'object'])}:${rng.pick([100, 5000, 20_000])}@@`;
}

function serialize(value: unknown): string {
  return JSON.stringify(value).replace(/"@@deep:(array|object):(\d+)@@"/g, (_, kind: string, depth: string) => {
    const n = Number(depth);
    return kind === 'array' ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '0' + '}'.repeat(n);
  });
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Each field with probability `p`. */
function someOf(rng: Rng, fields: Record<string, () => unknown>, p = 0.5): Json {
  return Object.fromEntries(Object.entries(fields).flatMap(([key, value]) => (rng.chance(p) ? [[key, value()]] : [])));
}

function taskIdValue(rng: Rng): unknown {
  return rng.chance(0.75) ? rng.pick(TASK_IDS) : junk(rng);
}

// ---- Messages ----------------------------------------------------------------------------------

/** v1.0 (JSON-RPC and REST), v0.3 JSON-RPC, the seeds' early dialect, and v0.3 REST's protobuf JSON. */
type Dialect = 'v1' | 'v03' | 'seed' | 'v03rest';

/** Per dialect: role and parts as a valid message has them, and what breaks them. */
const ROLE: Record<Dialect, string> = { v1: 'ROLE_USER', v03: 'user', seed: 'user', v03rest: 'ROLE_USER' };
const BAD_ROLES: Record<Dialect, unknown[]> = {
  v1: ['ROLE_UNSPECIFIED', 0, 3, -1, 'ROLE_SYSTEM', 'role_user', '', 1.5, true, {}, ['ROLE_USER']],
  v03: ['ROLE_USER', 'User', 'system', '', 0, 1, true, {}, ['user'], `user${NUL}`],
  seed: ['ROLE_USER', 'User', 'system', '', 0, 1, true, {}, ['user'], `user${NUL}`],
  v03rest: ['ROLE_UNSPECIFIED', 0, 3, 'ROLE_SYSTEM', '', 1.5, true, {}, ['ROLE_USER']],
};
const PARTS_KEY: Record<Dialect, string> = { v1: 'parts', v03: 'parts', seed: 'parts', v03rest: 'content' };
const GOOD_PART: Record<Dialect, Json> = {
  v1: { text: 'hi' },
  v03: { kind: 'text', text: 'hi' },
  seed: { type: 'text', text: 'hi' },
  v03rest: { text: 'hi' },
};
const BAD_PARTS: Record<Dialect, unknown[]> = {
  v1: [
    ...NOT_OBJECTS,
    {},
    { text: null },
    { text: 5 },
    { text: {} },
    { text: ['a'] },
    { url: 7 },
    { raw: 5 },
    { filename: 'x' },
    { mediaType: 'text/plain' },
    { text: 'x', metadata: 'm' },
    { kind: 'text', text: 5 },
  ],
  v03: [
    ...NOT_OBJECTS,
    {},
    { kind: 'bogus', text: 'x' },
    { kind: 'text' },
    { kind: 'text', text: 5 },
    { kind: 'text', text: null },
    { kind: 'text', text: {} },
    { kind: 'file' },
    { kind: 'file', file: null },
    { kind: 'file', file: 'f' },
    { kind: 'file', file: {} },
    { kind: 'file', file: { uri: 5 } },
    { kind: 'data' },
    { kind: 'data', data: 'd' },
    { kind: 5 },
    { text: 'no kind' },
  ],
  seed: [
    ...NOT_OBJECTS,
    {},
    { type: 'bogus' },
    { type: 'text' },
    { type: 'text', text: 5 },
    { type: 'file', mime_type: 'text/plain' },
    { type: 'file', data: 5 },
    { type: 'data', data: 'd' },
    { type: 5, text: 'x' },
    { text: 'no type' },
  ],
  v03rest: [
    ...NOT_OBJECTS,
    {},
    { text: null },
    { text: 5 },
    { file: 'f' },
    { file: {} },
    { file: { fileWithUri: 5 } },
    { data: 'd' },
    { data: { data: 'd' } },
  ],
};
/** Seeds have no messageId; every other dialect must send one. */
const DEFECTS: Record<Dialect, string[]> = {
  v1: ['role', 'messageId', 'parts', 'part', 'part', 'part'],
  v03: ['role', 'messageId', 'parts', 'part', 'part', 'part'],
  seed: ['role', 'parts', 'part', 'part', 'part'],
  v03rest: ['role', 'messageId', 'parts', 'part', 'part'],
};

/** A message with one or two defects that the dialect's schema forbids, now and then with wrong-typed optional fields. */
function badMessage(rng: Rng, dialect: Dialect): { message: unknown; defect: string } {
  if (rng.chance(0.08)) return { message: rng.pick(NOT_OBJECTS), defect: 'message not an object' };
  const key = PARTS_KEY[dialect];
  const message: Json = { role: ROLE[dialect], [key]: [GOOD_PART[dialect]] };
  if (dialect !== 'seed') message.messageId = `m-${rng.int(1e9)}`;
  if (dialect === 'v03') message.kind = 'message';
  const defects = Array.from({ length: 1 + rng.int(2) }, () => rng.pick(DEFECTS[dialect]));
  for (const defect of defects) {
    if (defect === 'role') {
      if (rng.chance(0.2)) delete message.role;
      else message.role = rng.pick(BAD_ROLES[dialect]);
    } else if (defect === 'messageId') {
      if (rng.chance(0.3)) delete message.messageId;
      else message.messageId = rng.pick(['', null, 5, {}, [], true]);
    } else if (defect === 'parts') {
      message[key] = rng.pick([null, 'text', 5, {}, { text: 'x' }, true, ...(dialect === 'v1' ? [[]] : [])]);
      if (rng.chance(0.2)) delete message[key];
    } else {
      const parts = Array.isArray(message[key]) ? [...(message[key] as unknown[])] : [GOOD_PART[dialect]];
      parts.splice(rng.int(parts.length + 1), 0, rng.pick(BAD_PARTS[dialect]));
      message[key] = parts;
    }
  }
  if (rng.chance(0.3))
    message[rng.pick(['contextId', 'taskId', 'referenceTaskIds', 'extensions', 'metadata'])] = junk(rng);
  return { message, defect: defects.join('+') };
}

function sendParams(rng: Rng, dialect: Dialect): { params: Json; note: string } {
  const { message, defect } = badMessage(rng, dialect);
  const params: Json = { [dialect === 'v03rest' && rng.chance(0.5) ? 'request' : 'message']: message };
  const pushConfig = () => (rng.chance(0.5) ? junk(rng) : { url: rng.pick(PUSH_URLS) });
  if (rng.chance(0.3)) {
    params.configuration =
      dialect === 'v1'
        ? someOf(rng, {
            acceptedOutputModes: () => junk(rng),
            historyLength: () => rng.pick(ODD_NUMBERS),
            returnImmediately: () => rng.pick([true, 'yes', 1, null]),
            taskPushNotificationConfig: pushConfig,
          })
        : someOf(rng, {
            acceptedOutputModes: () => junk(rng),
            historyLength: () => rng.pick(ODD_NUMBERS),
            history_length: () => rng.pick(ODD_NUMBERS),
            blocking: () => rng.pick([false, 'no', 0, null]),
            pushNotificationConfig: pushConfig,
          });
  }
  if (rng.chance(0.15)) params.metadata = junk(rng);
  if (dialect === 'v1' && rng.chance(0.1)) params.tenant = junk(rng);
  if (dialect === 'seed' && rng.chance(0.3)) params.sessionId = junk(rng);
  return { params, note: `message: ${defect}` };
}

// ---- JSON-RPC ----------------------------------------------------------------------------------

const V1_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
];
/** v0.3's methods, with the seeds' aliases `tasks/send` and `tasks/sendSubscribe`. */
const V03_METHODS = [
  'message/send',
  'message/stream',
  'tasks/send',
  'tasks/sendSubscribe',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
];
const SEND_METHODS = new Set([
  'SendMessage',
  'SendStreamingMessage',
  'message/send',
  'message/stream',
  'tasks/send',
  'tasks/sendSubscribe',
]);
const BAD_METHODS: unknown[] = [
  'unknown/method',
  'sendmessage',
  'SENDMESSAGE',
  'message/send ',
  'rpc.discover',
  '__proto__',
  'constructor',
  'toString',
  'x'.repeat(5000),
  '',
  5,
  null,
  [],
  {},
];

/** Params for a method, every field wrong-typed or pointing at nothing. */
function methodParams(rng: Rng, method: string, dialect: 'v1' | 'v03'): { params: unknown; note: string } {
  if (SEND_METHODS.has(method)) return sendParams(rng, method.startsWith('tasks/') ? 'seed' : dialect);
  const id = () => taskIdValue(rng);
  const number = () => rng.pick(ODD_NUMBERS);
  const any = () => junk(rng);
  const fields: Record<string, Record<string, () => unknown>> = {
    GetTask: { id, historyLength: number, tenant: any },
    ListTasks: {
      pageSize: number,
      pageToken: () => rng.pick([...PAGE_TOKENS, ...WRONG_TYPES]),
      status: () => rng.pick(STATES),
      contextId: () => rng.pick(TASK_IDS),
      statusTimestampAfter: () => rng.pick(BAD_DATES),
      historyLength: number,
      includeArtifacts: any,
      tenant: any,
    },
    CancelTask: { id, metadata: any },
    SubscribeToTask: { id },
    CreateTaskPushNotificationConfig: {
      taskId: id,
      id: any,
      url: () => rng.pick(PUSH_URLS),
      token: any,
      authentication: () => (rng.chance(0.5) ? junk(rng) : { scheme: junk(rng), credentials: junk(rng) }),
    },
    GetTaskPushNotificationConfig: { taskId: id, id: any },
    ListTaskPushNotificationConfigs: { taskId: id, pageSize: number, pageToken: () => rng.pick(PAGE_TOKENS) },
    DeleteTaskPushNotificationConfig: { taskId: id, id: any },
    GetExtendedAgentCard: { tenant: any },
    'tasks/get': { id, historyLength: number, history_length: number },
    'tasks/cancel': { id, metadata: any },
    'tasks/resubscribe': { id },
    'tasks/pushNotificationConfig/set': {
      taskId: id,
      pushNotificationConfig: () =>
        rng.chance(0.4) ? junk(rng) : { url: rng.pick(PUSH_URLS), id: junk(rng), authentication: junk(rng) },
    },
    'tasks/pushNotificationConfig/get': { id, pushNotificationConfigId: any },
    'tasks/pushNotificationConfig/list': { id },
    'tasks/pushNotificationConfig/delete': { id, pushNotificationConfigId: any },
    'agent/getAuthenticatedExtendedCard': { metadata: any },
  };
  return { params: someOf(rng, fields[method] ?? {}, 0.7), note: 'params' };
}

/** A request with a plausible id, method and bad params; in about two cases of three, envelope fields broken too. */
function envelope(rng: Rng, dialect: 'v1' | 'v03'): { value: Json; send: boolean; note: string } {
  const method = rng.pick(dialect === 'v1' ? V1_METHODS : V03_METHODS);
  const { params, note } = methodParams(rng, method, dialect);
  const value: Json = { jsonrpc: '2.0', id: rng.chance(0.5) ? rng.int(1e6) : `req-${rng.int(1e6)}`, method, params };
  const broken: string[] = [];
  for (let i = rng.int(3); i > 0; i--) {
    const field = rng.pick(['jsonrpc', 'id', 'method', 'params', 'extra']);
    broken.push(field);
    const values: Record<string, unknown[]> = {
      jsonrpc: [undefined, '1.0', '2', 2, null, '', ' 2.0', {}, []],
      id: [undefined, null, 1.5, true, {}, [], [1], '', 'x'.repeat(5000), 2 ** 53 + 2, deep(rng)],
      method: [undefined, ...BAD_METHODS, rng.pick(dialect === 'v1' ? V03_METHODS : V1_METHODS)],
      params: [undefined, null, [], [{}], 'str', 5, true, { '': 1 }, deep(rng)],
      extra: [junk(rng)],
    };
    const replacement = rng.pick(values[field]);
    if (field === 'extra')
      value[rng.pick(['result', 'error', 'jsonrpc2', '__proto__x', 'x'.repeat(100)])] = replacement;
    else if (replacement === undefined) delete value[field];
    else value[field] = replacement;
  }
  const send = typeof value.method === 'string' && SEND_METHODS.has(value.method);
  const envelopeNote = broken.length > 0 ? `; envelope: ${broken.join('+')}` : '';
  return { value, send, note: `${String(value.method).slice(0, 40)} ${note}${envelopeNote}` };
}

function validId(id: unknown): id is string | number {
  return (typeof id === 'string' && !id.startsWith('@@deep:')) || (typeof id === 'number' && Number.isSafeInteger(id));
}

// ---- Bodies and headers ------------------------------------------------------------------------

const WRONG_TOP_LEVEL = [
  '[]',
  '[{}]',
  '[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}]',
  '5',
  '"str"',
  'null',
  'true',
  '-0',
  '1e999',
];
const MALFORMED: Buffer[] = [
  ...[
    '{',
    '}',
    '[',
    '{"a":}',
    "{'a':1}",
    '{"a":1,}',
    '{"a" 1}',
    'NaN',
    'undefined',
    '{"a":1}{"b":2}',
    '{"a":1} trailing',
    NUL,
    '\ufeff{}',
    'nul',
    '{"a":"\\x41"}',
    '{"a":"\\u12"}',
    '{"a":"unterminated',
    '[1,2',
    '01',
    '.5',
    '+1',
    '{"a":"\t"}',
  ].map((text) => Buffer.from(text)),
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
];
const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/a2a+json'];
const ODD_TYPES = [
  '',
  'APPLICATION/JSON',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  '*/*',
  ';',
  'application/a2a+json; version=2',
];
const BAD_VERSIONS = [
  '2.0',
  '0.2',
  'abc',
  '1.0.0',
  '1',
  '1.0, 0.3',
  'null',
  '99999999999999999999',
  '-1.0',
  '1.0;q=1',
  '%31.0',
];

interface Body {
  bytes: Buffer;
  note: string;
  /** Sent whole, as the structured value: the server can read its id. */
  intact: boolean;
}

/** The structured value as JSON, or one of the ways a body goes wrong on the wire. */
function body(rng: Rng, value: unknown, limit: number): Body {
  const text = serialize(value);
  const sent = (bytes: string | Buffer, note: string, intact = false): Body => ({
    bytes: Buffer.from(bytes),
    note,
    intact,
  });
  const r = rng.next();
  if (r < 0.5) return sent(text, 'JSON', Buffer.byteLength(text) <= limit);
  if (r < 0.6) return sent(rng.pick(WRONG_TOP_LEVEL), 'wrong top-level type');
  if (r < 0.64) return sent(JSON.stringify(text), 'JSON text inside a JSON string');
  if (r < 0.76) {
    const cut = 1 + rng.int(Math.max(1, text.length - 1));
    return sent(text.slice(0, cut), `truncated at ${cut} of ${text.length}`);
  }
  if (r < 0.84) return sent(rng.pick(MALFORMED), 'malformed JSON');
  if (r < 0.88) return sent('', 'empty');
  if (r < 0.95) {
    const target = limit + (rng.chance(0.2) ? 0 : 1 + rng.int(4096));
    // Padding as a member of the object itself, so that a JSON-RPC request at the limit is still one.
    const pad = (n: number) =>
      serialize(isObject(value) ? { ...value, padding: 'x'.repeat(n) } : { padding: 'x'.repeat(n), value });
    const padded = pad(Math.max(0, target - Buffer.byteLength(pad(0))));
    const over = Buffer.byteLength(padded) - limit;
    return sent(padded, `${over} bytes over the limit`, over <= 0);
  }
  const polluted =
    text.startsWith('{') && text.length > 2
      ? `{"__proto__":{"x":1},${text.slice(1)}`
      : '{"constructor":{"prototype":{"x":1}}}';
  return sent(polluted, 'prototype keys');
}

function versionHeader(rng: Rng, current: boolean): Record<string, string> {
  if (rng.chance(0.08)) return { 'a2a-version': rng.pick(BAD_VERSIONS) };
  if (current) return rng.chance(0.95) ? { 'a2a-version': '1.0' } : {};
  return rng.chance(0.1) ? { 'a2a-version': '0.3' } : {};
}

/** Headers of a request with `bytes` as body: mostly a JSON content type; `json` tells whether it is one. */
function bodyHeaders(rng: Rng, plan: FuzzPlan, current: boolean, bytes: Buffer | undefined) {
  const type = rng.chance(0.85) ? rng.pick(JSON_TYPES) : rng.pick(ODD_TYPES);
  const headers: Record<string, string> = {
    ...plan.auth,
    ...versionHeader(rng, current),
    ...(bytes && type && { 'content-type': type }),
  };
  if (rng.chance(0.05))
    headers['a2a-extensions'] = rng.pick([',', ' , ,', 'x'.repeat(2000), 'https://example.com/ext,,', '%00']);
  return { headers, json: JSON_TYPES.includes(type) };
}

// ---- Paths -------------------------------------------------------------------------------------

/** Path segments sent raw: traversal, bad or truncated escapes, encoded separators, a latin-1 byte. */
const RAW_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '%2F',
  '%00',
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%C0%AE%C0%AE',
  '%FF',
  '\u00e9',
  ';',
  '*',
  '~',
  '%20',
  '%0d%0aX-Injected:%201',
  "'",
  '"',
  '<script>',
  '{id}',
  ':id',
  '$',
  '!',
  '@',
];
const UNKNOWN_AGENTS = [
  'nosuch',
  'ECHO',
  'echo%20',
  '%00',
  '..',
  '%2e%2e',
  'echo%2F..',
  'a'.repeat(300),
  '__proto__',
  'constructor',
  'toString',
  '%ZZ',
];
const TENANTS = ['t1', 'v1', '%00', 'tasks', '..', 'x'.repeat(300), '%ZZ', 'message:send'];

function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, which encodeURIComponent refuses, as a sloppy client encodes it
  }
}

/** Node answers a request head over 16 KiB with a bare 431 before any route sees it; paths stay well under. */
function capped(path: string): string {
  return path.slice(0, 12_000);
}

function pathId(rng: Rng): string {
  const r = rng.next();
  if (r < 0.55) return encodeSegment(rng.pick(TASK_IDS).slice(0, 4000));
  if (r < 0.85) return rng.pick(RAW_SEGMENTS);
  if (r < 0.93) return `../..${rng.chance(0.5) ? '/..' : ''}/etc/passwd`;
  if (r < 0.97) return 'x'.repeat(2000 + rng.int(3000));
  return '';
}

/** A query string from `fields` (name to candidate values), with repeated, bracketed and badly escaped keys now and then. */
function query(rng: Rng, fields: Record<string, readonly unknown[]>): string {
  const parts = Object.entries(fields).flatMap(([key, values]) => {
    if (!rng.chance(0.4)) return [];
    if (rng.chance(0.15))
      return [rng.pick([key, `${key}=`, `${key}[]=1`, `${key}=1&${key}=2`, `${key}[a]=1`, `${key}=%ZZ`, `${key}=%00`])];
    const value = rng.pick(values);
    return [
      `${key}=${encodeSegment(typeof value === 'string' ? value.slice(0, 2000) : (JSON.stringify(value) ?? ''))}`,
    ];
  });
  if (rng.chance(0.05))
    parts.push(rng.pick(['&&&', '=', '%', '__proto__=1', 'constructor[prototype][x]=1', `x=${'y'.repeat(2000)}`]));
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** Trailing slash, other case, escaped colon, doubled slash: spellings a router may or may not take for the route. */
function spelling(rng: Rng, path: string): string {
  const r = rng.next();
  if (r < 0.05) return `${path}/`;
  if (r < 0.08) return path.toUpperCase();
  if (r < 0.1) return path.replace(/:/g, '%3A');
  if (r < 0.12) return `/${path}`;
  return path;
}

function agentName(rng: Rng, plan: FuzzPlan, unknown: number): { name: string; unknown: boolean } {
  return rng.chance(unknown)
    ? { name: rng.pick(UNKNOWN_AGENTS), unknown: true }
    : { name: rng.pick(plan.agents), unknown: false };
}

// ---- Cases -------------------------------------------------------------------------------------

function jsonRpcCase(rng: Rng, plan: FuzzPlan, dialect: 'v1' | 'v03', perAgent: boolean): FuzzCase {
  const agent = perAgent ? agentName(rng, plan, 0.1) : undefined;
  const rpc = envelope(rng, dialect);
  const sent = body(rng, rpc.value, plan.bodyLimit);
  const { headers, json } = bodyHeaders(rng, plan, dialect === 'v1', sent.bytes);
  return {
    route: `POST /a2a${perAgent ? '/agents/:name' : ''} (${dialect === 'v1' ? 'v1.0' : 'v0.3'})`,
    protocol: 'json-rpc',
    method: 'POST',
    path: capped(
      `/a2a${agent ? `/agents/${agent.name}` : ''}${rng.chance(0.05) ? query(rng, { x: ODD_STRINGS }) : ''}`,
    ),
    headers,
    body: sent.bytes,
    id: sent.intact && json && validId(rpc.value.id) ? rpc.value.id : undefined,
    send: rpc.send,
    unknownAgent: agent?.unknown ?? false,
    note: `${rpc.note}; body: ${sent.note}`,
  };
}

interface Endpoint {
  route: string;
  method: string;
  path: (rng: Rng) => string;
  query?: Record<string, readonly unknown[]>;
  body?: (rng: Rng) => { params: unknown; note: string };
  send?: boolean;
}

function httpCase(
  rng: Rng,
  plan: FuzzPlan,
  endpoint: Endpoint,
  route: string,
  prefix: string,
  current: boolean,
  unknownAgent = false,
): FuzzCase {
  const path = capped(
    `${prefix}${spelling(rng, endpoint.path(rng))}${endpoint.query ? query(rng, endpoint.query) : ''}`,
  );
  const fuzz = {
    route,
    protocol: 'http' as const,
    method: endpoint.method,
    path,
    send: endpoint.send ?? false,
    unknownAgent,
  };
  if (!endpoint.body)
    return { ...fuzz, headers: { ...plan.auth, ...versionHeader(rng, current) }, note: 'path and query' };
  const { params, note } = endpoint.body(rng);
  const sent = rng.chance(0.15) ? { bytes: undefined, note: 'none' } : body(rng, params, plan.bodyLimit);
  const { headers } = bodyHeaders(rng, plan, current, sent.bytes);
  return { ...fuzz, headers, body: sent.bytes, note: `${note}; body: ${sent.note}` };
}

const taskPath = (suffix: string) => (rng: Rng) => `/tasks/${pathId(rng)}${suffix}`;
const junkBody = (rng: Rng) => ({
  params: someOf(rng, { metadata: () => junk(rng), id: () => taskIdValue(rng), tenant: () => junk(rng) }),
  note: 'junk',
});

/** The SDK's HTTP+JSON binding: v1.0's paths, or v0.3's under `/v1`. */
function restEndpoints(legacy: boolean): Endpoint[] {
  const dialect: Dialect = legacy ? 'v03rest' : 'v1';
  const send = (rng: Rng) => sendParams(rng, dialect);
  const history: Record<string, readonly unknown[]> = legacy
    ? { historyLength: ODD_NUMBERS, history_length: ODD_NUMBERS }
    : { historyLength: ODD_NUMBERS, tenant: ODD_STRINGS };
  const pushConfig = (rng: Rng) => ({
    params: legacy
      ? someOf(rng, {
          name: () => junk(rng),
          pushNotificationConfig: () => (rng.chance(0.5) ? junk(rng) : { url: rng.pick(PUSH_URLS), id: junk(rng) }),
        })
      : someOf(rng, {
          id: () => junk(rng),
          url: () => rng.pick(PUSH_URLS),
          token: () => junk(rng),
          authentication: () => junk(rng),
        }),
    note: 'push config',
  });
  const configPath = (rng: Rng) => `/tasks/${pathId(rng)}/pushNotificationConfigs/${pathId(rng)}`;
  const endpoints: Endpoint[] = [
    { route: 'POST /message:send', method: 'POST', path: () => '/message:send', body: send, send: true },
    { route: 'POST /message:stream', method: 'POST', path: () => '/message:stream', body: send, send: true },
    { route: 'GET /tasks/:id', method: 'GET', path: taskPath(''), query: history },
    { route: 'POST /tasks/:id:cancel', method: 'POST', path: taskPath(':cancel'), body: junkBody },
    { route: 'GET /tasks/:id:subscribe', method: 'GET', path: taskPath(':subscribe') },
    { route: 'POST /tasks/:id:subscribe', method: 'POST', path: taskPath(':subscribe'), body: junkBody },
    {
      route: 'POST /tasks/:id/pushNotificationConfigs',
      method: 'POST',
      path: taskPath('/pushNotificationConfigs'),
      body: pushConfig,
    },
    {
      route: 'GET /tasks/:id/pushNotificationConfigs',
      method: 'GET',
      path: taskPath('/pushNotificationConfigs'),
      query: { pageSize: ODD_NUMBERS, pageToken: PAGE_TOKENS },
    },
    { route: 'GET /tasks/:id/pushNotificationConfigs/:configId', method: 'GET', path: configPath },
    { route: 'DELETE /tasks/:id/pushNotificationConfigs/:configId', method: 'DELETE', path: configPath },
    legacy
      ? { route: 'GET /card', method: 'GET', path: () => '/card' }
      : {
          route: 'GET /extendedAgentCard',
          method: 'GET',
          path: () => '/extendedAgentCard',
          query: { tenant: ODD_STRINGS },
        },
  ];
  if (!legacy) {
    endpoints.push({
      route: 'GET /tasks',
      method: 'GET',
      path: () => '/tasks',
      query: {
        pageSize: ODD_NUMBERS,
        pageToken: PAGE_TOKENS,
        status: STATES,
        contextId: TASK_IDS,
        statusTimestampAfter: BAD_DATES,
        historyLength: ODD_NUMBERS,
        includeArtifacts: ODD_STRINGS,
      },
    });
  }
  const v = legacy ? '/v1' : '';
  return endpoints.map((endpoint) => ({
    ...endpoint,
    route: endpoint.route.replace(' /', ` ${v}/`),
    path: (rng) => v + endpoint.path(rng),
  }));
}

/** Under the primary agent or a named one (sometimes not hosted), in v1.0 sometimes under a tenant. */
function restCase(rng: Rng, plan: FuzzPlan, endpoint: Endpoint, legacy: boolean): FuzzCase {
  const agent = rng.chance(0.3) ? agentName(rng, plan, 0.15) : undefined;
  const tenant = !legacy && rng.chance(0.1) ? `/${rng.pick(TENANTS)}` : '';
  const prefix = `/a2a/rest${agent ? `/agents/${agent.name}` : ''}${tenant}`;
  return httpCase(rng, plan, endpoint, `REST ${endpoint.route}`, prefix, !legacy, agent?.unknown);
}

/** Bare params (PocketPaw) or a whole JSON-RPC request (OpenFang). */
function seedBody(rng: Rng): { params: unknown; note: string } {
  const { params, note } = sendParams(rng, 'seed');
  if (rng.chance(0.5)) return { params, note };
  const method = rng.pick(['tasks/send', 'message/send', 'bogus', 5]);
  return { params: { jsonrpc: rng.pick(['2.0', 5, null]), id: junk(rng), method, params }, note: `envelope, ${note}` };
}

const SEED_ENDPOINTS: Endpoint[] = [
  { route: 'POST /a2a/tasks/send', method: 'POST', path: () => '/tasks/send', body: seedBody, send: true },
  {
    route: 'POST /a2a/tasks/send/stream',
    method: 'POST',
    path: () => '/tasks/send/stream',
    body: seedBody,
    send: true,
  },
  { route: 'GET /a2a/tasks/:id', method: 'GET', path: taskPath(''), query: { history_length: ODD_NUMBERS } },
  { route: 'POST /a2a/tasks/:id/cancel', method: 'POST', path: taskPath('/cancel'), body: junkBody },
];

const CARD_ENDPOINTS: Endpoint[] = [
  {
    route: 'GET /.well-known/agent-card.json',
    method: 'GET',
    path: (rng) => rng.pick(['/.well-known/agent-card.json', '/.well-known/agent.json']),
    query: { x: ODD_STRINGS },
  },
  { route: 'GET /a2a/agents', method: 'GET', path: () => '/a2a/agents', query: { x: ODD_STRINGS } },
];

/** A card route, with odd Accept, If-None-Match and Host headers now and then; `undefined` is one agent's card. */
function cardCase(rng: Rng, plan: FuzzPlan, endpoint: Endpoint | undefined): FuzzCase {
  const agent = agentName(rng, plan, 0.5);
  const card = endpoint ?? {
    route: 'GET /a2a/agents/:name/agent-card.json',
    method: 'GET',
    path: () => `/a2a/agents/${agent.name}/agent-card.json`,
  };
  const fuzz = httpCase(rng, plan, card, card.route, '', true, !endpoint && agent.unknown);
  const headers = someOf(
    rng,
    {
      accept: () => rng.pick(['application/xml', '*/*;q=x', '', 'text/html, */*;q=0.1']),
      'if-none-match': () => rng.pick(['*', 'W/"x"', '"', 'x'.repeat(2000)]),
      host: () => rng.pick(['evil.example', 'a'.repeat(300), '127.0.0.1:99999', '[::1]', '"><script>']),
      'x-forwarded-host': () => rng.pick(['evil.example', ',,,']),
      'x-forwarded-proto': () => rng.pick(['gopher', '', 'https, http']),
    },
    0.2,
  ) as Record<string, string>;
  return { ...fuzz, headers: { ...fuzz.headers, ...headers } };
}

const STRAY_REQUESTS = [
  ['GET', '/a2a/rest'],
  ['GET', '/a2a/rest/'],
  ['GET', '/a2a/rest/nope'],
  ['POST', '/a2a/rest/message:bogus'],
  ['GET', '/a2a/rest/message:send'],
  ['DELETE', '/a2a/rest/message:send'],
  ['POST', '/a2a/rest/tasks/x:bogus'],
  ['GET', '/a2a/rest/v1/tasks'],
  ['GET', '/a2a/rest/agents/echo/'],
  ['PUT', '/a2a'],
  ['PATCH', '/a2a'],
  ['GET', '/a2a'],
  ['PUT', '/a2a/agents/echo'],
  ['PATCH', '/a2a/rest/message:send'],
  ['PUT', '/a2a/rest/tasks/x'],
  ['DELETE', '/a2a/tasks/x'],
  ['PUT', '/a2a/tasks/send'],
  ['POST', '/.well-known/agent-card.json'],
  ['DELETE', '/a2a/rest/v1/message:send'],
] as const;

/** Paths under the REST prefix that no route of the binding serves, and methods that no route takes. */
function strayCase(rng: Rng, plan: FuzzPlan): FuzzCase {
  const [method, path] = rng.pick(STRAY_REQUESTS);
  const endpoint: Endpoint = { route: '', method, path: () => path };
  if (method !== 'GET') endpoint.body = (r) => ({ params: junk(r), note: 'junk' });
  return httpCase(rng, plan, endpoint, 'unrouted path or method', '', rng.chance(0.5));
}

/** Every case, in a fixed order: 2,930 of them. */
export function fuzzCases(plan: FuzzPlan, seed = 0x5eed): FuzzCase[] {
  const rng = new Rng(seed);
  const cases: FuzzCase[] = [];
  const add = (count: number, make: () => FuzzCase) => {
    for (let i = 0; i < count; i++) cases.push(make());
  };
  for (const dialect of ['v1', 'v03'] as const) {
    add(450, () => jsonRpcCase(rng, plan, dialect, false));
    add(300, () => jsonRpcCase(rng, plan, dialect, true));
  }
  for (const endpoint of restEndpoints(false)) add(50, () => restCase(rng, plan, endpoint, false));
  for (const endpoint of restEndpoints(true)) add(30, () => restCase(rng, plan, endpoint, true));
  for (const endpoint of SEED_ENDPOINTS)
    add(80, () => httpCase(rng, plan, endpoint, `seed ${endpoint.route}`, '/a2a', rng.chance(0.5)));
  for (const endpoint of [...CARD_ENDPOINTS, undefined]) add(40, () => cardCase(rng, plan, endpoint));
  add(60, () => strayCase(rng, plan));
  return cases;
}
