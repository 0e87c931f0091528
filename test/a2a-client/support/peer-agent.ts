/**
 * A real external A2A agent for the A2A client's tests: the SDK's own server stack (express,
 * `DefaultRequestHandler`, `InMemoryTaskStore`) speaking v1.0 or only v0.3, with switches for auth
 * and misbehaviour. Run by peer-process.ts as
 * `node -r ts-node/register/transpile-only peer-agent.ts '<PeerSettings[] as JSON>'`; prints
 * `{"listening":[<port>, ...]}` once every peer accepts connections.
 *
 * It imports nothing from src/: it stands for someone else's agent, not for Switchboard.
 */
import {
  A2A_PROTOCOL_VERSION,
  AGENT_CARD_PATH,
  AgentCard,
  type Message,
  type Part,
  Role,
  TaskState,
} from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { legacyRestRouter } from '@a2a-js/sdk/compat/v0_3/server/express';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
  UnauthenticatedUser,
} from '@a2a-js/sdk/server';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import * as grpc from '@grpc/grpc-js';
import { jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express, { type RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

const CARD_PATH = `/${AGENT_CARD_PATH}`;
/** Where v0.2-era agents served their card. */
const LEGACY_CARD_PATH = '/.well-known/agent.json';
const JSONRPC_PATH = '/a2a/jsonrpc';
const REST_PATH = '/a2a/rest';
/** What the peer has received; outside the A2A surface, never behind auth, never recorded. */
const REQUESTS_PATH = '/__peer/requests';
/** The cloud metadata endpoint, for a card that tries to steer the client at it. */
const METADATA_URL = 'http://169.254.169.254/a2a';
const OVERSIZED_CARD_BYTES = 3 * 1024 * 1024;
/** How v0.3 cards spell their version. */
const LEGACY_CARD_VERSION = '0.3.0';

const settingsSchema = z.strictObject({
  /** `v1-grpc`: a v1.0 agent whose card prefers gRPC (listed first, on a port of its own), with JSON-RPC beside it. */
  mode: z.enum(['v1', 'v1-rest', 'v03', 'v1-grpc']),
  /** 0 picks a free port; a fixed one lets a test bring an agent up late at an address already configured. */
  port: z.number().int().min(0).max(65535).default(0),
  streaming: z.boolean().default(true),
  auth: z
    .union([
      z.strictObject({ bearer: z.string().min(1) }),
      z.strictObject({ apiKey: z.strictObject({ header: z.string().min(1), value: z.string().min(1) }) }),
    ])
    .optional(),
  card: z.enum(['garbage', 'oversized', 'missing-fields', 'metadata-url']).optional(),
  rpc: z.enum(['500', 'garbage', 'hang']).optional(),
  cardPath: z.enum([CARD_PATH, LEGACY_CARD_PATH]).default(CARD_PATH),
});

/** What a test passes to `startPeer` (defaults: port 0, streaming on, card at /.well-known/agent-card.json). */
export type PeerSettings = z.input<typeof settingsSchema>;
type Settings = z.output<typeof settingsSchema>;
type Auth = NonNullable<Settings['auth']>;
type Binding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** One request as the peer saw it: who called (User-Agent) and with which credentials. */
export interface PeerRequest {
  method: string;
  path: string;
  userAgent?: string;
  authorization?: string;
  /** The configured API-key header's value (X-API-Key when the peer expects none). */
  apiKey?: string;
  /** The W3C trace context the request carried. */
  traceparent?: string;
}

const BINDINGS: Record<Settings['mode'], Binding[]> = {
  v1: ['JSONRPC', 'HTTP+JSON'],
  'v1-rest': ['HTTP+JSON'],
  v03: ['JSONRPC', 'HTTP+JSON'],
  'v1-grpc': ['GRPC', 'JSONRPC'],
};

/** Where a binding is served: under the HTTP base URL; gRPC's address is known once its server is bound, and set then (listen). */
function interfaceUrl(binding: Binding, baseUrl: string): string {
  return binding === 'GRPC' ? '' : `${baseUrl}${binding === 'JSONRPC' ? JSONRPC_PATH : REST_PATH}`;
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: {} };
}

/** Builds the SDK's events for one request's task. */
class Publisher {
  constructor(
    private readonly bus: ExecutionEventBus,
    private readonly context: RequestContext,
  ) {}

  /** The SDK requires a task (or message) as every execution's first event, follow-ups included. */
  task(): void {
    const { taskId, contextId, task, userMessage } = this.context;
    const history = task?.history ?? [];
    this.bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        history: history.some((m) => m.messageId === userMessage.messageId) ? history : [...history, userMessage],
        artifacts: task?.artifacts ?? [],
        metadata: {},
      }),
    );
  }

  status(state: TaskState, text?: string): void {
    this.bus.publish(statusEvent(this.context.taskId, this.context.contextId, state, text));
  }

  artifact(text: string, chunk = { append: false, lastChunk: true }): void {
    const { taskId, contextId } = this.context;
    const artifact = {
      artifactId: 'result',
      name: 'result',
      description: '',
      parts: [textPart(text)],
      metadata: {},
      extensions: [],
    };
    this.bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, ...chunk, metadata: {} }));
  }

  /** A direct answer: no task is created. */
  message(text: string): void {
    this.bus.publish(AgentEvent.message(agentMessage('', this.context.contextId, text)));
  }
}

function statusEvent(taskId: string, contextId: string, state: TaskState, text?: string) {
  const message = text === undefined ? undefined : agentMessage(taskId, contextId, text);
  return AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: { state, message, timestamp: new Date().toISOString() },
    metadata: {},
  });
}

function agentMessage(taskId: string, contextId: string, text: string): Message {
  return {
    messageId: randomUUID(),
    taskId,
    contextId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The agent's behaviours, chosen by the first word of the user's text: echo, slow, ask, fail, hang, late, message. */
class PeerExecutor implements AgentExecutor {
  /** Every task this process has run: its context, and the switch that stops its executor. */
  private readonly tasks = new Map<string, { contextId: string; stop: AbortController }>();

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const stop = new AbortController();
    this.tasks.set(context.taskId, { contextId: context.contextId, stop });
    const publish = new Publisher(bus, context);
    const text = context.userMessage.parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('')
      .trim();
    if (context.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      publish.task();
      publish.artifact(`weather in ${text}: sunny`);
      publish.status(TaskState.TASK_STATE_COMPLETED);
      return;
    }
    const [command, ...words] = text.split(/\s+/);
    const rest = words.join(' ');
    if (command === 'message') return publish.message(rest);
    // `late <ms>`: names its task only after a while (then hangs), as a busy agent's first event comes late.
    if (command === 'late') await sleep(Number(words[0]));
    publish.task();
    switch (command) {
      case 'ask':
        return publish.status(TaskState.TASK_STATE_INPUT_REQUIRED, 'which city?');
      case 'fail':
        publish.status(TaskState.TASK_STATE_WORKING);
        return publish.status(TaskState.TASK_STATE_FAILED, 'peer failure');
      case 'hang':
      case 'late':
        publish.status(TaskState.TASK_STATE_WORKING);
        await once(stop.signal, 'abort'); // cancelTask publishes the final status
        return;
      case 'slow': {
        const [ms, ...answer] = words;
        publish.status(TaskState.TASK_STATE_WORKING);
        const finished = await sleep(Number(ms), true, { signal: stop.signal }).catch(() => false);
        if (!finished) return; // canceled: cancelTask has published the final status
        const chunks = inThree(answer.join(' '));
        chunks.forEach((chunk, index) =>
          publish.artifact(chunk, { append: index > 0, lastChunk: index === chunks.length - 1 }),
        );
        return publish.status(TaskState.TASK_STATE_COMPLETED);
      }
      default: {
        const echo = command === 'echo' ? rest : text;
        publish.artifact(echo);
        return publish.status(TaskState.TASK_STATE_COMPLETED, echo);
      }
    }
  };

  /** The SDK waits on the bus for a final status after calling this, so one is always published. */
  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const task = this.tasks.get(taskId);
    if (!task) throw new Error(`peer agent never ran task ${taskId}`);
    task.stop.abort();
    bus.publish(statusEvent(taskId, task.contextId, TaskState.TASK_STATE_CANCELED));
  };
}

function inThree(text: string): string[] {
  const size = Math.ceil(text.length / 3);
  return [text.slice(0, size), text.slice(size, 2 * size), text.slice(2 * size)];
}

function securityScheme(auth: Auth): { name: string; v1: object; v03: object } {
  if ('bearer' in auth)
    return {
      name: 'bearer',
      v1: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
      v03: { type: 'http', scheme: 'bearer' },
    };
  const { header } = auth.apiKey;
  return {
    name: 'apiKey',
    v1: { apiKeySecurityScheme: { location: 'header', name: header } },
    v03: { type: 'apiKey', in: 'header', name: header },
  };
}

/** The v1.0 card the SDK's handlers check requests against; v03 declares its interfaces at version 0.3. */
function coreCard(settings: Settings, baseUrl: string): AgentCard {
  const protocolVersion = settings.mode === 'v03' ? A2A_LEGACY_PROTOCOL_VERSION : A2A_PROTOCOL_VERSION;
  const scheme = settings.auth && securityScheme(settings.auth);
  return AgentCard.fromJSON({
    name: 'peer',
    description: 'An external A2A agent for the tests of the Switchboard A2A client',
    version: '1.0.0',
    supportedInterfaces: BINDINGS[settings.mode].map((protocolBinding) => ({
      url: settings.card === 'metadata-url' ? METADATA_URL : interfaceUrl(protocolBinding, baseUrl),
      protocolBinding,
      protocolVersion,
    })),
    capabilities: { streaming: settings.streaming, pushNotifications: false },
    securitySchemes: scheme ? { [scheme.name]: scheme.v1 } : {},
    securityRequirements: scheme ? [{ schemes: { [scheme.name]: { list: [] } } }] : [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      { id: 'peer', name: 'Peer', description: 'echo, slow, ask, fail, hang, late and message', tags: ['test'] },
    ],
  });
}

/**
 * The card as served. Not the SDK's `agentCardHandler`: it `JSON.stringify`s the ts-proto object,
 * which writes security schemes as `{scheme: {$case, value}}` instead of the spec's JSON.
 */
function cardDocument(settings: Settings, card: AgentCard): object {
  if (settings.mode !== 'v03') return AgentCard.toJSON(card) as object;
  const [primary] = card.supportedInterfaces;
  const scheme = settings.auth && securityScheme(settings.auth);
  return {
    name: card.name,
    description: card.description,
    version: card.version,
    protocolVersion: LEGACY_CARD_VERSION,
    url: primary.url,
    preferredTransport: primary.protocolBinding,
    additionalInterfaces: card.supportedInterfaces.map(({ url, protocolBinding }) => ({
      url,
      transport: protocolBinding,
    })),
    capabilities: { streaming: settings.streaming, pushNotifications: false },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map(({ id, name, description, tags }) => ({ id, name, description, tags })),
    ...(scheme && { securitySchemes: { [scheme.name]: scheme.v03 }, security: [{ [scheme.name]: [] }] }),
  };
}

function cardBody(settings: Settings, card: AgentCard): string {
  switch (settings.card) {
    case 'garbage':
      return 'not json{';
    case 'missing-fields':
      return JSON.stringify({ description: 'a card without name, interfaces or url', version: '1.0.0' });
    case 'oversized':
      return JSON.stringify({ ...cardDocument(settings, card), description: 'x'.repeat(OVERSIZED_CARD_BYTES) });
    default:
      return JSON.stringify(cardDocument(settings, card));
  }
}

function apiKeyHeader(auth: Auth | undefined): string {
  return auth && 'apiKey' in auth ? auth.apiKey.header : 'X-API-Key';
}

function recordRequests(requests: PeerRequest[], auth: Auth | undefined): RequestHandler {
  return (req, _res, next) => {
    const { 'user-agent': userAgent, authorization, traceparent } = req.headers;
    requests.push({
      method: req.method,
      path: req.path,
      userAgent,
      authorization,
      apiKey: req.header(apiKeyHeader(auth)),
      traceparent: traceparent as string | undefined,
    });
    next();
  };
}

function authenticate(auth: Auth | undefined): RequestHandler {
  return (req, res, next) => {
    if (!auth) return next();
    const presented =
      'bearer' in auth
        ? req.header('authorization') === `Bearer ${auth.bearer}`
        : req.header(auth.apiKey.header) === auth.apiKey.value;
    if (presented) return next();
    if ('bearer' in auth) res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(401).json({ error: 'unauthorized', message: 'missing or wrong credentials' });
  };
}

function misbehave(rpc: Settings['rpc']): RequestHandler {
  return (_req, res, next) => {
    if (rpc === '500')
      res.status(500).type('html').send('<html><body><h1>500 Internal Server Error</h1></body></html>');
    else if (rpc === 'garbage') res.status(200).type('application/json').send('not json');
    else if (rpc !== 'hang') next();
  };
}

/** A v0.3 server predates the A2A-Version header; the SDK would route by it, so a v0.3 peer ignores it. */
const ignoreVersionHeader: RequestHandler = (req, _res, next) => {
  delete req.headers['a2a-version'];
  next();
};

function peerApp(settings: Settings, card: AgentCard, requestHandler: DefaultRequestHandler): express.Express {
  const userBuilder = UserBuilder.noAuthentication;
  const requests: PeerRequest[] = [];
  const app = express();
  app.get(REQUESTS_PATH, (_req, res) => res.json(requests));
  app.use(recordRequests(requests, settings.auth));
  app.get(settings.cardPath, (_req, res) => res.type('application/json').send(cardBody(settings, card)));
  app.use('/a2a', authenticate(settings.auth), misbehave(settings.rpc));
  if (settings.mode === 'v03') {
    app.use('/a2a', ignoreVersionHeader);
    app.use(JSONRPC_PATH, jsonRpcHandler({ requestHandler, userBuilder, legacyCompat: { enabled: true } }));
    app.use(REST_PATH, legacyRestRouter({ requestHandler, userBuilder }));
    return app;
  }
  if (BINDINGS[settings.mode].includes('JSONRPC'))
    app.use(JSONRPC_PATH, jsonRpcHandler({ requestHandler, userBuilder }));
  app.use(REST_PATH, restHandler({ requestHandler, userBuilder }));
  return app;
}

/** The SDK's gRPC service for the peer's handler, on a port of its own; resolves with its address. */
async function listenGrpc(settings: Settings, requestHandler: DefaultRequestHandler): Promise<string> {
  const server = new grpc.Server();
  const userBuilder = async (call: { metadata: grpc.Metadata }) => {
    const bearer = settings.auth && 'bearer' in settings.auth ? settings.auth.bearer : undefined;
    if (bearer && call.metadata.get('authorization')[0]?.toString() !== `Bearer ${bearer}`)
      throw new Error('missing or wrong credentials');
    return new UnauthenticatedUser();
  };
  server.addService(A2AService, grpcService({ requestHandler, userBuilder }));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return `127.0.0.1:${port}`;
}

/** Serves one peer; resolves with its port. */
function listen(settings: Settings): Promise<number> {
  const server = createServer();
  server.on('error', (error) => {
    throw error;
  });
  return new Promise((resolvePort, reject) => {
    // The card names the ports, so the app is built once they are known.
    server.listen(settings.port, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const card = coreCard(settings, `http://127.0.0.1:${port}`);
      const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new PeerExecutor());
      const grpcInterface = card.supportedInterfaces.find(({ protocolBinding }) => protocolBinding === 'GRPC');
      const grpcBound = grpcInterface
        ? listenGrpc(settings, requestHandler).then((address) => (grpcInterface.url = address))
        : Promise.resolve();
      grpcBound.then(() => {
        server.on('request', peerApp(settings, card, requestHandler));
        resolvePort(port);
      }, reject);
    });
  });
}

/** One peer per settings object of the JSON array argument, each on a port of its own: one process start for all of them. */
async function main(): Promise<void> {
  const all = z.array(settingsSchema).parse(JSON.parse(process.argv[2] ?? '[]'));
  const ports = await Promise.all(all.map(listen));
  process.stdout.write(`${JSON.stringify({ listening: ports })}\n`);
}

if (require.main === module) void main();
