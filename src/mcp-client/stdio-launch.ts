import { DEFAULT_INHERITED_ENV_VARS, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';

/** Present on every Linux and macOS host; `-u` is supported by GNU, BSD and BusyBox env alike. */
const ENV_BINARY = '/usr/bin/env';

/**
 * How a stdio server is spawned so that it sees `env` (PATH and its whitelisted variables, resolved
 * by the config loader), nothing else.
 * The SDK's transport always adds HOME, LOGNAME, SHELL, TERM and USER from our environment to the
 * child's; running the server under `env -u ...` removes those it adds (env then execs the server,
 * so the process we track and kill is the server itself). Values travel in the environment, never in
 * argv, where `ps` would show them.
 */
export function stdioLaunch(
  transport: { command: string; args: string[] },
  env: Record<string, string>,
): StdioServerParameters {
  const unset = DEFAULT_INHERITED_ENV_VARS.filter((name) => !(name in env));
  return {
    command: ENV_BINARY,
    args: [...unset.flatMap((name) => ['-u', name]), '--', transport.command, ...transport.args],
    env,
    stderr: 'pipe',
  };
}
