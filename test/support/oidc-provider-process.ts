import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port';

const SCRIPT = join(__dirname, 'oidc-provider.mjs');

export interface OidcClient {
  client_id: string;
  client_secret: string;
  /** The scopes it may ask for, space-separated. */
  scope: string;
}

/**
 * A real OpenID provider (`oidc-provider`) in a child process of its own, issuing JWT access
 * tokens by client credentials for a resource (RFC 8707). `stop()` it in afterAll.
 */
export class OidcProvider {
  private constructor(
    readonly issuer: string,
    private readonly child: ChildProcess,
  ) {}

  static async start({ clients, scopes, shortLived }: { clients: OidcClient[]; scopes: string[]; shortLived?: string }): Promise<OidcProvider> {
    const port = await freePort();
    const settings = { port, scopes, shortLived, clients: clients.map((client) => ({ ...client, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] })) };
    const child = spawn(process.execPath, [SCRIPT, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const issuer = await new Promise<string>((resolve, reject) => {
      child.stdout!.once('data', (line: Buffer) => resolve((JSON.parse(line.toString()) as { issuer: string }).issuer));
      child.once('exit', (code) => reject(new Error(`the OpenID provider exited (${code}) before it listened`)));
    });
    return new OidcProvider(issuer, child);
  }

  /** An access token for `resource`, got as a service gets one: the client credentials grant. */
  async token(client: OidcClient, resource: string, scope = client.scope): Promise<string> {
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource, ...(scope && { scope }) }),
    });
    const body = (await response.json()) as { access_token?: string; error?: string };
    if (!body.access_token) throw new Error(`no token for ${client.client_id}: ${body.error}`);
    return body.access_token;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }
}
