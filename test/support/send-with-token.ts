/** A v1.0 JSON-RPC SendMessage to an agent, raw, with `token` as the bearer: for what the service answers a credential. */
export function sendWithToken(url: string, token: string, agent = 'echo'): Promise<Response> {
  return fetch(`${url}/a2a/agents/${agent}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    }),
  });
}
