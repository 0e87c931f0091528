import { lookup } from 'node:dns/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createGuardedFetch } from '../../src/security/guarded-fetch';
import { OutboundUrlBlockedError, OutboundUrlPolicy } from '../../src/security/outbound-url-policy';
import { freePort } from '../support/free-port';

jest.mock('node:dns/promises', () => ({ lookup: jest.fn(jest.requireActual('node:dns/promises').lookup) }));

interface TestServer {
  url: string;
  port: number;
  hits: string[];
  server: Server;
}

const servers: TestServer[] = [];

async function startServer(handler: RequestListener = (_req, res) => res.end('hello')): Promise<TestServer> {
  const port = await freePort();
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const started = { url: `http://127.0.0.1:${port}`, port, hits, server };
  servers.push(started);
  return started;
}

const guardedFetch = (allowHosts: string[] = [], timeoutMs?: number) =>
  createGuardedFetch(new OutboundUrlPolicy({ allowHosts }), { timeoutMs });

afterEach(async () => {
  for (const { server } of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('guarded fetch', () => {
  it('refuses a loopback server by default, before sending anything', async () => {
    const target = await startServer();
    await expect(guardedFetch()(`${target.url}/hook`)).rejects.toThrow(OutboundUrlBlockedError);
    await expect(guardedFetch()(`${target.url}/hook`)).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
    expect(target.hits).toEqual([]);
  });

  it.each(['127.0.0.1', '127.0.0.0/8', '127.0.0.1:PORT'])(
    'reaches the server once %s is allowlisted',
    async (entry) => {
      const target = await startServer();
      const allowed = guardedFetch([entry.replace('PORT', String(target.port))]);
      const response = await allowed(`${target.url}/hook`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('hello');
      expect(target.hits).toEqual(['/hook']);
    },
  );

  it('refuses localhost, a name that resolves to loopback', async () => {
    const target = await startServer();
    await expect(guardedFetch()(`http://localhost:${target.port}/`)).rejects.toThrow(
      /localhost:\d+\/ blocked: 127\.0\.0\.1 is a loopback address/,
    );
    expect(target.hits).toEqual([]);
  });

  it('checks the addresses it connects to, not only the ones seen by the first check (DNS rebinding)', async () => {
    const target = await startServer();
    jest.mocked(lookup).mockResolvedValueOnce([{ address: '93.184.216.34', family: 4 }] as never);
    await expect(guardedFetch()(`http://localhost:${target.port}/`)).rejects.toThrow(
      `outbound URL http://localhost:${target.port} blocked: 127.0.0.1 is a loopback address`,
    );
    expect(target.hits).toEqual([]);
  });

  it.each(['127.0.0.1', 'localhost'])(
    'refuses a redirect from an allowlisted server to a blocked %s address',
    async (host) => {
      const blocked = await startServer();
      const redirecting = await startServer((_req, res) =>
        res.writeHead(302, { location: `http://${host}:${blocked.port}/secret` }).end(),
      );
      const fetchAllowed = guardedFetch([`127.0.0.1:${redirecting.port}`]);
      await expect(fetchAllowed(`${redirecting.url}/start`)).rejects.toThrow(OutboundUrlBlockedError);
      expect(redirecting.hits).toEqual(['/start']);
      expect(blocked.hits).toEqual([]);
    },
  );

  it('follows a redirect that stays within the policy', async () => {
    const target = await startServer();
    const redirecting = await startServer((_req, res) => res.writeHead(302, { location: `${target.url}/moved` }).end());
    const response = await guardedFetch(['127.0.0.0/8'])(`${redirecting.url}/start`);
    expect(await response.text()).toBe('hello');
    expect(target.hits).toEqual(['/moved']);
  });

  it('gives up on a server that never answers after timeoutMs', async () => {
    const silent = await startServer(() => undefined);
    const started = Date.now();
    await expect(guardedFetch(['127.0.0.1'], 200)(`${silent.url}/hook`)).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(silent.hits).toEqual(['/hook']);
  });

  it('still honours the caller’s abort signal', async () => {
    const controller = new AbortController();
    // Aborted once the server has the request, which it never answers.
    const silent = await startServer(() => controller.abort(new Error('caller gave up')));
    const pending = guardedFetch(['127.0.0.1'])(`${silent.url}/hook`, { signal: controller.signal });
    await expect(pending).rejects.toThrow('caller gave up');
  });
});
