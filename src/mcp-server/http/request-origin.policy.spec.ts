import { requestOriginPolicy } from './request-origin.policy';

const base = { mcp_server: { enabled: true, allowed_hosts: [], allowed_origins: [], session_ttl_secs: 3600 } };
const server = (host: string, public_url?: string) => ({
  host,
  port: 8080,
  body_limit_bytes: 1,
  trust_proxy: false,
  shutdown_timeout_secs: 1,
  public_url,
});

describe('requestOriginPolicy', () => {
  it('accepts loopback names and the configured listen host', () => {
    const policy = requestOriginPolicy({ ...base, server: server('switchboard.internal') });
    expect(policy.hosts).toEqual(['localhost', '127.0.0.1', '[::1]', 'switchboard.internal']);
  });

  it('never accepts a wildcard listen address as a hostname', () => {
    expect(requestOriginPolicy({ ...base, server: server('0.0.0.0') }).hosts).not.toContain('0.0.0.0');
  });

  it("adds the public URL's host and the configured extras, lowercased", () => {
    const policy = requestOriginPolicy({
      server: server('::', 'https://Agents.Example.com/base'),
      mcp_server: { ...base.mcp_server, allowed_hosts: ['LB.internal'], allowed_origins: ['app.example.com'] },
    });
    expect(policy.hosts).toEqual(expect.arrayContaining(['agents.example.com', 'lb.internal']));
    expect(policy.origins).toEqual(expect.arrayContaining(['agents.example.com', 'app.example.com']));
    expect(policy.origins).not.toContain('lb.internal');
  });

  it('brackets an IPv6 listen address', () => {
    expect(requestOriginPolicy({ ...base, server: server('fd00::1') }).hosts).toContain('[fd00::1]');
  });
});
