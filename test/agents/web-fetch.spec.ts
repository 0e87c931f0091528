/** The built-in `web_fetch` tool against real HTTP servers on 127.0.0.1, under the real SSRF policy. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BuiltinToolProvider } from '../../src/agents/tools/builtin-tool.provider';
import { WEB_FETCH_MAX_BYTES } from '../../src/agents/tools/builtin/web-fetch.tool';
import { OutboundUrlPolicy } from '../../src/security/outbound-url-policy';

interface TestServer {
  url: string;
  port: number;
  hits: string[];
}

const servers: Server[] = [];

async function startServer(handler: RequestListener): Promise<TestServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, hits };
}

const serving =
  (type: string, body: string | Buffer, status = 200): RequestListener =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': type }).end(body);

const tools = (...allowHosts: string[]) => new BuiltinToolProvider(new OutboundUrlPolicy({ allowHosts }));
const webFetch = (args: Record<string, unknown>, allowHosts = ['127.0.0.1'], signal = new AbortController().signal) =>
  tools(...allowHosts).call('web_fetch', args, signal);

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('web_fetch (built-in tool)', () => {
  it('is the one built-in tool, with an input schema taking a url and an optional max_chars', () => {
    const [definition] = tools().definitions();
    expect(tools().definitions()).toHaveLength(1);
    expect(definition).toMatchObject({
      name: 'web_fetch',
      inputSchema: { required: ['url'], properties: { url: { type: 'string' }, max_chars: { type: 'integer' } } },
    });
    expect(tools().has('web_fetch')).toBe(true);
    expect(tools().has('mcp_files_read')).toBe(false);
  });

  it('turns an HTML page into plain text, without its scripts, styles or tags', async () => {
    const page = `<!doctype html><html><head><title>Fares</title><style>body { color: red }</style>
      <script>alert("x")</script></head><body><h1>Flights  to&nbsp;Lisbon</h1><!-- hidden -->
      <p>From <b>&euro;</b>49 &amp; up &#8212; <a href="/book">book</a></p><ul><li>Mon</li><li>Tue</li></ul></body></html>`;
    const target = await startServer(serving('text/html; charset=utf-8', page));
    const result = await webFetch({ url: `${target.url}/fares` });
    expect(result).toEqual({ isError: false, text: 'Fares\nFlights to Lisbon\nFrom &euro;49 & up — book\nMon\nTue' });
  });

  it('passes JSON and plain text through as they are', async () => {
    const json = await startServer(serving('application/json', '{"price": 49,\n "currency": "EUR"}'));
    expect(await webFetch({ url: `${json.url}/api` })).toEqual({
      isError: false,
      text: '{"price": 49,\n "currency": "EUR"}',
    });
    const text = await startServer(serving('text/plain; charset=iso-8859-1', Buffer.from('caf\xe9', 'latin1')));
    expect(await webFetch({ url: text.url })).toEqual({ isError: false, text: 'caf\u00e9' });
  });

  it('refuses a content type it cannot read as text, naming the type', async () => {
    const target = await startServer(serving('image/png', 'PNG'));
    expect(await webFetch({ url: target.url })).toEqual({
      isError: true,
      text: expect.stringContaining('of type image/png'),
    });
  });

  it('answers a non-2xx status with an error result carrying the status', async () => {
    const target = await startServer(serving('text/html', '<p>gone</p>', 404));
    expect(await webFetch({ url: `${target.url}/missing` })).toEqual({
      isError: true,
      text: `${target.url}/missing answered HTTP 404 Not Found.`,
    });
  });

  it('refuses the cloud metadata endpoint with an error result naming why', async () => {
    const result = await webFetch({ url: 'http://169.254.169.254/latest/meta-data/' }, ['169.254.0.0/16']);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Refused: .*169\.254\.169\.254 is a cloud metadata endpoint/);
  });

  it('refuses a loopback server that outbound.allow_hosts does not list, sending it nothing', async () => {
    const target = await startServer(serving('text/plain', 'secret'));
    const result = await webFetch({ url: target.url }, []);
    expect(result).toEqual({
      isError: true,
      text: expect.stringMatching(
        /^Refused: .*127\.0\.0\.1 is a loopback address \(allow it with outbound\.allow_hosts\)/,
      ),
    });
    expect(target.hits).toEqual([]);
  });

  it('follows a redirect within the policy, and refuses one that leaves it', async () => {
    const target = await startServer(serving('text/plain', 'moved here'));
    const redirecting = await startServer((req, res) =>
      res.writeHead(302, { location: req.url === '/ok' ? `${target.url}/new` : 'http://169.254.169.254/' }).end(),
    );
    expect(await webFetch({ url: `${redirecting.url}/ok` })).toEqual({ isError: false, text: 'moved here' });
    expect(target.hits).toEqual(['/new']);
    const result = await webFetch({ url: `${redirecting.url}/away` });
    expect(result).toEqual({ isError: true, text: expect.stringMatching(/^Refused: .*cloud metadata endpoint/) });
  });

  it('gives up after five redirects', async () => {
    const looping = await startServer((req, res) => res.writeHead(301, { location: `/${req.url!.length}` }).end());
    await expect(webFetch({ url: `${looping.url}/` })).rejects.toThrow(/redirected more than 5 times/);
    expect(looping.hits).toHaveLength(6);
  });

  it('reads at most 1 MB of a larger body and says it was cut', async () => {
    let written = 0;
    const target = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'a'.repeat(64 * 1024);
      const more = () => {
        while (written < 50 * WEB_FETCH_MAX_BYTES && res.write(chunk)) written += chunk.length;
        if (written < 50 * WEB_FETCH_MAX_BYTES && !res.destroyed) res.once('drain', more);
        else res.end();
      };
      more();
    });
    const result = await webFetch({ url: target.url });
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      `${'a'.repeat(WEB_FETCH_MAX_BYTES)}\n[truncated: only the first ${WEB_FETCH_MAX_BYTES} bytes were read]`,
    );
    expect(written).toBeLessThan(10 * WEB_FETCH_MAX_BYTES);
  });

  it('cuts the text at max_chars when asked', async () => {
    const target = await startServer(serving('text/plain', 'abcdefghij'));
    expect(await webFetch({ url: target.url, max_chars: 4 })).toEqual({
      isError: false,
      text: 'abcd\n[truncated: 4 of 10 characters shown]',
    });
  });

  it('refuses arguments it cannot use', async () => {
    expect(await webFetch({})).toEqual({ isError: true, text: expect.stringContaining('needs "url"') });
    expect(await webFetch({ url: 'http://example.com', max_chars: 0 })).toEqual({
      isError: true,
      text: expect.stringContaining('"max_chars"'),
    });
    expect(await webFetch({ url: 'file:///etc/passwd' })).toEqual({
      isError: true,
      text: expect.stringMatching(/^Refused: .*scheme file: is not allowed/),
    });
  });

  it('stops when the call is aborted, whether waiting for headers or reading the body', async () => {
    // Each server aborts the call itself: the silent one once it has the request, the trickling one
    // once its headers and a first chunk have been sent.
    let abort = new AbortController();
    const cancelTurn = () => abort.abort(new Error('turn canceled'));
    const silent = await startServer(cancelTurn);
    const trickling = await startServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).write('first', cancelTurn),
    );
    for (const target of [silent, trickling]) {
      abort = new AbortController();
      const started = Date.now();
      await expect(webFetch({ url: target.url }, ['127.0.0.1'], abort.signal)).rejects.toThrow('turn canceled');
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });
});
