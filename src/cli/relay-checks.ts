/** What `switchboard mcp` checks of SWITCHBOARD_URL before it relays a single message there. */
import { EXIT_NOPERM, StartupError } from './startup-error';

/** How long each check waits for the Switchboard at SWITCHBOARD_URL. */
const PROBE_TIMEOUT_MS = 2_000;

/** Why `healthUrl` does not answer OK; undefined when it does. */
export async function whyNotAnswering(healthUrl: string): Promise<string | undefined> {
  try {
    const response = await fetch(healthUrl, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return response.ok ? undefined : `HTTP ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? (error as Error).message;
  }
}

/**
 * Refuses to start when `/mcp` refuses the key: otherwise every request of the client would fail
 * with the same error while the process looks healthy. A sessionless `ping` is answered with
 * nothing logged; only the bearer guard's 401 is about the key (a 403 may be the Host check's).
 */
export async function assertKeyAccepted(url: string, apiKey: string | undefined): Promise<void> {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
    signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
  });
  await response.body?.cancel();
  if (response.status !== 401) return;
  throw new StartupError(
    apiKey
      ? `switchboard mcp: the Switchboard at SWITCHBOARD_URL=${url} refuses SWITCHBOARD_API_KEY (HTTP ${response.status}); set it to one of that Switchboard's API keys.`
      : `switchboard mcp: the Switchboard at SWITCHBOARD_URL=${url} requires an API key (HTTP ${response.status}); set SWITCHBOARD_API_KEY to one of its keys.`,
    EXIT_NOPERM,
  );
}
