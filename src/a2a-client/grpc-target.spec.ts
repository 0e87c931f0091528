import { OutboundUrlBlockedError, OutboundUrlPolicy } from '../security/outbound-url-policy';
import { dialableGrpcTarget } from './grpc-target';

describe('dialableGrpcTarget', () => {
  const closed = new OutboundUrlPolicy({ allowHosts: [] });
  const loopback = new OutboundUrlPolicy({ allowHosts: ['127.0.0.1', 'localhost'] });

  it('refuses a target the SSRF rules refuse, as for an HTTP URL of the same host', async () => {
    await expect(dialableGrpcTarget(closed, '127.0.0.1:50051')).rejects.toBeInstanceOf(OutboundUrlBlockedError);
    await expect(dialableGrpcTarget(closed, 'grpc://localhost:50051')).rejects.toBeInstanceOf(OutboundUrlBlockedError);
    await expect(dialableGrpcTarget(loopback, '169.254.169.254:80')).rejects.toThrow(/metadata/);
  });

  it('dials a plaintext target at the address it checked', async () => {
    expect((await dialableGrpcTarget(loopback, 'localhost:50051')).endpoint).toMatch(/^(127\.0\.0\.1|\[::1\]):50051$/);
    expect((await dialableGrpcTarget(loopback, 'grpc://127.0.0.1:7000')).endpoint).toBe('127.0.0.1:7000');
  });

  it('dials a TLS target (port 443, grpcs:, https:) by its name, which its certificate must match', async () => {
    const tls = await dialableGrpcTarget(loopback, 'grpcs://localhost:8443');
    expect({ endpoint: tls.endpoint, secure: tls.channel._isSecure() }).toEqual({
      endpoint: 'localhost:8443',
      secure: true,
    });
    expect((await dialableGrpcTarget(loopback, 'localhost:443')).channel._isSecure()).toBe(true);
    expect((await dialableGrpcTarget(loopback, 'localhost:8080')).channel._isSecure()).toBe(false);
  });
});
