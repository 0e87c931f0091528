import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { bearer } from '../../support/test-app';

export interface RawAnswer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

/** A send's params; with `webhookUrl`, it asks for the task's events there. */
function sendBody(text: string, returnImmediately: boolean, webhookUrl?: string) {
  const webhook = webhookUrl ? { taskPushNotificationConfig: { url: webhookUrl, token: 'outage' } } : {};
  return {
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
    configuration: { returnImmediately, ...webhook },
  };
}

async function answerOf(response: Response): Promise<RawAnswer> {
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** POSTs `body` as JSON with the API key; the answer with its HTTP status and headers. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...bearer(), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return answerOf(response);
}

/** A v1.0 JSON-RPC SendMessage as it travels, so the test sees the HTTP status and headers too. */
export function jsonRpcSend(
  baseUrl: string,
  agent: string,
  text: string,
  returnImmediately = false,
  webhookUrl?: string,
): Promise<RawAnswer> {
  const body = { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: sendBody(text, returnImmediately, webhookUrl) };
  return postJson(`${baseUrl}/a2a/agents/${agent}`, body, { 'a2a-version': '1.0' });
}

/** A v1.0 HTTP+JSON `message:send`. */
export function restSend(
  baseUrl: string,
  agent: string,
  text: string,
  returnImmediately = false,
  webhookUrl?: string,
): Promise<RawAnswer> {
  return postJson(`${baseUrl}/a2a/rest/agents/${agent}/message:send`, sendBody(text, returnImmediately, webhookUrl), {
    'a2a-version': '1.0',
  });
}

export interface TaskRow {
  id: string;
  state: string;
  /** The text of the task's status message. */
  statusText: string | undefined;
}

/** Every task row of the database, read with SQL: what is durably there, whatever the service answers. */
export async function taskRows(databaseUrl: string): Promise<TaskRow[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      id: string;
      state: string;
      data: { status?: { message?: { parts?: { text?: string }[] } } };
    }>('SELECT id, state, data FROM tasks ORDER BY created_at');
    return rows.map(({ id, state, data }) => ({ id, state, statusText: data.status?.message?.parts?.[0]?.text }));
  } finally {
    await client.end();
  }
}

/** How many webhook configs the database holds. */
export async function pushConfigCount(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM push_configs');
    return Number(rows[0].count);
  } finally {
    await client.end();
  }
}
