import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, LabelValues, Registry } from 'prom-client';

/** Label values of one sample of a gauge read at scrape time, and its value. */
export type Sample<L extends string> = [labels: Record<L, string>, value: number];

/** How long a scrape waits for one gauge's reader (a store that does not answer). */
const READ_TIMEOUT_MS = 2_000;

/**
 * A gauge read from where its state lives at each scrape; without a reader (a process that has none
 * of it) it has no samples. A reader that fails or does not answer (its store is down) leaves only
 * its own gauge empty: the rest of the scrape, the store errors among it, is what an outage needs.
 */
export class ScrapedGauge<L extends string> {
  private read?: () => Iterable<Sample<L>> | Promise<Iterable<Sample<L>>>;

  constructor(registry: Registry, name: string, help: string, labelNames: readonly L[]) {
    const gauge: Gauge<L> = new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect: async () => {
        gauge.reset();
        for (const [labels, value] of await this.samples()) gauge.set(labels as LabelValues<L>, value);
      },
    });
  }

  private async samples(): Promise<Iterable<Sample<L>>> {
    if (!this.read) return [];
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<[]>((done) => (timer = setTimeout(() => done([]), READ_TIMEOUT_MS)));
    try {
      return await Promise.race([Promise.resolve(this.read()), timedOut]);
    } catch {
      return [];
    } finally {
      clearTimeout(timer);
    }
  }

  /** Where the samples come from: called at every scrape. */
  readFrom(read: () => Iterable<Sample<L>> | Promise<Iterable<Sample<L>>>): void {
    this.read = read;
  }
}

/** How an agent turn ended: its task's final (or interrupted) state, a direct answer, or a failure to run or record it. */
export type TurnOutcome =
  | 'completed'
  | 'failed'
  | 'canceled'
  | 'rejected'
  | 'input_required'
  | 'auth_required'
  | 'message'
  | 'not_recorded'
  | 'error';

/** Who serves a tool: the service itself, an MCP server (named in the `server` label), or A2A delegation. */
export type ToolKind = 'builtin' | 'mcp' | 'delegation' | 'unknown';

/** The protocol an SSE stream answers. */
export type StreamProtocol = 'a2a' | 'mcp';

/**
 * The store calls of the task lifecycle, which a turn on a worker tries again while its store is
 * down: task reads and writes (Postgres, or memory), event publishes and webhook enqueues (Redis).
 */
const STORE_OPERATIONS = ['task_load', 'task_save', 'event_publish', 'webhook_queue'] as const;
export type StoreOperation = (typeof STORE_OPERATIONS)[number];

const SECONDS_FAST = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
const SECONDS_SLOW = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

function histogram<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: number[],
): Histogram<L> {
  return new Histogram({ name, help, labelNames, buckets, registers: [registry] });
}

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [registry] });
}

/**
 * How often the event-loop delay histogram samples. prom-client's default (10 ms) wakes an idle
 * process 100 times a second: 0.5-0.8% of a core for an idle API, measured, and a worker runs the
 * same monitor. Every stall of 100 ms or more is still seen.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * Every series Switchboard exports, in one registry per process: the API serves it at `/metrics`, a
 * worker on its health port. Labels are bounded: agent, server and queue names come from config,
 * the rest from fixed sets; never a task or request id. Gauges of state that lives elsewhere (queue
 * depth, connections) are read at scrape time from the reader their owner registers.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  private readonly httpDuration = histogram(
    this.registry,
    'switchboard_http_request_duration_seconds',
    'HTTP request duration by method, route template and status code',
    ['method', 'route', 'status'],
    SECONDS_FAST,
  );

  private readonly turnDuration = histogram(
    this.registry,
    'switchboard_agent_turn_duration_seconds',
    'Agent turns run by this process, by agent and outcome (the task state the turn ended in, message, not_recorded or error)',
    ['agent', 'outcome'],
    SECONDS_SLOW,
  );

  private readonly toolCallDuration = histogram(
    this.registry,
    'switchboard_tool_call_duration_seconds',
    'Tool calls by kind (builtin, mcp, delegation, unknown), MCP server and outcome (ok, tool_error, refused, timeout, failed)',
    ['kind', 'server', 'outcome'],
    SECONDS_SLOW,
  );

  private readonly queueWait = histogram(
    this.registry,
    'switchboard_queue_wait_seconds',
    'Time from a job being due (enqueued, or its delay over) to a worker starting its first attempt, by queue',
    ['queue'],
    SECONDS_SLOW,
  );

  private readonly openStreams = new Gauge({
    name: 'switchboard_open_streams',
    help: 'SSE streams open on this process, by protocol (a2a: streaming sends and resubscribes; mcp: /mcp answer, GET and listen streams)',
    labelNames: ['protocol'] as const,
    registers: [this.registry],
  });

  private readonly storeRetries = counter(
    this.registry,
    'switchboard_store_retries_total',
    'Store calls that failed and are tried again, by operation',
    ['operation'],
  );
  private readonly storeErrors = counter(
    this.registry,
    'switchboard_store_errors_total',
    'Store calls that failed for good (retries exhausted, or not retried), by operation',
    ['operation'],
  );

  readonly queueJobs = new ScrapedGauge(this.registry, 'switchboard_queue_jobs', 'Jobs per queue and state', [
    'queue',
    'state',
  ]);
  readonly tasks = new ScrapedGauge(this.registry, 'switchboard_tasks', 'A2A tasks by state', ['state']);
  readonly mcpServerUp = new ScrapedGauge(
    this.registry,
    'switchboard_mcp_server_up',
    'Whether this process is connected to the configured MCP server (1) or not (0)',
    ['server'],
  );
  readonly externalAgentUp = new ScrapedGauge(
    this.registry,
    'switchboard_external_agent_up',
    "Whether the configured external A2A agent's card was read at its last try (1) or not (0)",
    ['agent'],
  );
  readonly mcpSessions = new ScrapedGauge(
    this.registry,
    'switchboard_mcp_sessions',
    'Open 2025-era /mcp sessions (Mcp-Session-Id) in the session store',
    [],
  );

  private readonly streamResponses = new WeakSet<object>();

  private readonly streams: Record<StreamProtocol, Gauge.Internal<'protocol'>> = {
    a2a: this.openStreams.labels('a2a'),
    mcp: this.openStreams.labels('mcp'),
  };

  constructor() {
    collectDefaultMetrics({
      register: this.registry,
      prefix: 'switchboard_',
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });
    // A counter's series appears at its first increment, which rate() and increase() read as no
    // change: at 0 from the start, the first store failure of a process counts.
    for (const operation of STORE_OPERATIONS) {
      this.storeRetries.inc({ operation }, 0);
      this.storeErrors.inc({ operation }, 0);
    }
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  turnEnded(agent: string, outcome: TurnOutcome, seconds: number): void {
    this.turnDuration.observe({ agent, outcome }, seconds);
  }

  toolCallEnded(kind: ToolKind, server: string, outcome: string, seconds: number): void {
    this.toolCallDuration.observe({ kind, server, outcome }, seconds);
  }

  /** A job's first attempt starts now; it was due at `dueAtMs` (ms since the epoch, by the clock of the process that enqueued it). */
  jobStarted(queue: string, dueAtMs: number): void {
    this.queueWait.observe({ queue }, Math.max(0, Date.now() - dueAtMs) / 1000);
  }

  /** Counts an SSE stream as open from now until its response closes. */
  streamOpened(
    protocol: StreamProtocol,
    response: { destroyed: boolean; once(event: 'close', listener: () => void): unknown },
  ): void {
    this.streamResponses.add(response);
    if (response.destroyed) return;
    const open = this.streams[protocol];
    open.inc();
    response.once('close', () => open.dec());
  }

  /**
   * Whether a response was an SSE stream: its duration is how long the client followed a task, not
   * a latency, so the HTTP histogram leaves it out (its buckets end at 10 s).
   */
  wasStream(response: object): boolean {
    return this.streamResponses.has(response);
  }

  storeRetried(operation: StoreOperation): void {
    this.storeRetries.inc({ operation });
  }

  storeFailed(operation: StoreOperation): void {
    this.storeErrors.inc({ operation });
  }
}
