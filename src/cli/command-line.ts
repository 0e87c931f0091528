/** What `switchboard <args>` asks for, and the help texts; settings themselves come from the config file and environment. */
import { SWITCHBOARD_VERSION } from '../common/version';

export const COMMANDS = ['serve', 'worker', 'mcp', 'migrate', 'check'] as const;
export type Command = (typeof COMMANDS)[number];

export type Invocation =
  /** `flags`: the command's own options given (see COMMAND_FLAGS). */
  | { kind: 'run'; command: Command; flags: string[] }
  | { kind: 'print'; text: string }
  | { kind: 'usage-error'; text: string };

const SETTINGS = `Settings come from ./switchboard.toml (or the file SWITCHBOARD_CONFIG names), then environment
overrides (DATABASE_URL, REDIS_URL, PORT, HOST, SWITCHBOARD_API_KEYS, ...). See README.md.`;

const USAGE = `Usage: switchboard <command> [--help]
       switchboard --version

Commands:
  serve    Run the HTTP API (A2A, MCP, health). Default command.
  worker   Run queue workers only (agent turns, webhooks, retention).
  mcp      Serve MCP over stdio: relays to the Switchboard at SWITCHBOARD_URL (with
           SWITCHBOARD_API_KEY), or runs the agents in this process when it is unset.
  migrate  Apply the database migrations (DATABASE_URL) and exit; safe to run again.
  check    Validate the configuration (file and environment) and exit; starts nothing.

${SETTINGS}`;

const HELP: Record<Command, string> = {
  serve: `Usage: switchboard serve

Runs the HTTP API: A2A at /a2a, MCP at /mcp, /healthz, /readyz and /metrics, on server.host and
server.port (HOST, PORT; default 127.0.0.1:8080). Without DATABASE_URL and REDIS_URL it runs
embedded: tasks in memory, agent turns in this process. With both it is durable and also runs
queue workers, unless queue.worker_in_api = false (SWITCHBOARD_WORKER_IN_API=false). It refuses a
database that lacks a migration: run \`switchboard migrate\` first.

Example: PORT=9000 SWITCHBOARD_API_KEYS=me=<16+ characters> switchboard serve`,
  worker: `Usage: switchboard worker

Runs queue workers only: agent turns, webhook deliveries and retention, taken from Redis
(REDIS_URL, required). With SWITCHBOARD_WORKER_HEALTH_PORT (queue.health_port) it serves
/healthz and /readyz for probes. Start as many as you like, beside \`switchboard serve\`.`,
  mcp: `Usage: switchboard mcp [--embedded-fallback]

Serves MCP over stdio (stdout carries the protocol, logs go to stderr), for IDEs and desktop
clients. If SWITCHBOARD_URL is set, every message is relayed to its /mcp with SWITCHBOARD_API_KEY
as the bearer key; if it does not answer, this is an error, unless --embedded-fallback is given:
the agents then run in this process. Without SWITCHBOARD_URL the agents run in this process.
When stdin ends, every request already sent is answered before exiting.`,
  migrate: `Usage: switchboard migrate

Applies prisma/migrations to the database at DATABASE_URL (database.url) and exits; run again,
it does nothing. Kept in Prisma's own bookkeeping (_prisma_migrations), so \`prisma migrate
deploy\` and \`prisma migrate status\` agree with it.`,
  check: `Usage: switchboard check

Loads the configuration as serve and worker would (the file, then the environment) and exits: 0
with a one-line summary when it is valid, 78 naming every bad key when it is not. It connects to
nothing, so it can run before the stores exist (docker-compose.yml runs it before Postgres starts,
so that a placeholder password never initializes a database).`,
};

/** `switchboard mcp --embedded-fallback`: run the agents in this process when SWITCHBOARD_URL does not answer. */
export const EMBEDDED_FALLBACK_FLAG = '--embedded-fallback';

/** The options each command takes; the rest of its settings come from the config file and the environment. */
const COMMAND_FLAGS: Record<Command, readonly string[]> = {
  serve: [],
  worker: [],
  mcp: [EMBEDDED_FALLBACK_FLAG],
  migrate: [],
  check: [],
};

const HELP_FLAGS = new Set(['--help', '-h']);
const VERSION_FLAGS = new Set(['--version', '-v']);

function isCommand(word: string): word is Command {
  return (COMMANDS as readonly string[]).includes(word);
}

export function parseCommandLine(args: string[]): Invocation {
  const [first = 'serve', ...rest] = args;
  if (HELP_FLAGS.has(first) || first === 'help') {
    if (rest.length === 0) return { kind: 'print', text: USAGE };
    return isCommand(rest[0]) ? { kind: 'print', text: `${HELP[rest[0]]}\n\n${SETTINGS}` } : unknownCommand(rest[0]);
  }
  if (VERSION_FLAGS.has(first)) return { kind: 'print', text: `switchboard ${SWITCHBOARD_VERSION}` };
  if (!isCommand(first)) return unknownCommand(first);
  if (rest.some((arg) => HELP_FLAGS.has(arg))) return { kind: 'print', text: `${HELP[first]}\n\n${SETTINGS}` };
  const unknown = rest.filter((arg) => !COMMAND_FLAGS[first].includes(arg));
  if (unknown.length > 0) {
    const takes =
      COMMAND_FLAGS[first].length === 0 ? 'takes no arguments' : `takes only ${COMMAND_FLAGS[first].join(', ')}`;
    return {
      kind: 'usage-error',
      text: `switchboard ${first} ${takes} (got ${unknown.map((arg) => JSON.stringify(arg)).join(' ')}): settings come from the config file and the environment. See switchboard ${first} --help.`,
    };
  }
  return { kind: 'run', command: first, flags: [...new Set(rest)] };
}

function unknownCommand(word: string): Invocation {
  const what = word.startsWith('-') ? 'option' : 'command';
  return { kind: 'usage-error', text: `Unknown ${what} "${word}".\n\n${USAGE}` };
}
