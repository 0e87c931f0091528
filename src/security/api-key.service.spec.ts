import crypto = require('node:crypto');
import { AccessPolicy } from './access-policy';
import { ApiKeyService } from './api-key.service';

const OPEN_POLICY = new AccessPolicy({ rules: [], default_access: 'all' });

const CI_KEY = 'ci-key-0123456789abcdef';
const OPS_KEY = 'ops-key-fedcba9876543210';
const BARE_KEY = 'bare-key-aaaaaaaaaaaaaaaa';

describe('ApiKeyService', () => {
  const service = new ApiKeyService(
    [{ name: 'ci', key: CI_KEY }, BARE_KEY, { name: 'ops', key: OPS_KEY }],
    OPEN_POLICY,
  );

  afterEach(() => jest.restoreAllMocks());

  it('names each key: objects keep their name, bare strings become key-<position>', () => {
    expect(service.verify(CI_KEY)?.name).toBe('ci');
    expect(service.verify(BARE_KEY)?.name).toBe('key-2');
    expect(service.verify(OPS_KEY)?.name).toBe('ops');
  });

  it("gives each key its scope: a key's lists, else everything", () => {
    const scoped = new ApiKeyService(
      [{ name: 'ci', key: CI_KEY, tools: ['mcp_github_*'], agents: [] }, BARE_KEY],
      OPEN_POLICY,
    );
    expect(scoped.verify(CI_KEY)?.scope.allowsTool('mcp_github_create_issue')).toBe(true);
    expect(scoped.verify(CI_KEY)?.scope.allowsTool('mcp_fs_write_file')).toBe(false);
    expect(scoped.verify(CI_KEY)?.scope.allowsAgent('coder')).toBe(false);
    expect(scoped.verify(BARE_KEY)?.scope.allowsTool('mcp_fs_write_file')).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['one character', 'c'],
    ['a prefix of a key', CI_KEY.slice(0, -1)],
    ['a key plus one character', `${CI_KEY}x`],
    ['same length, last character differs', `${CI_KEY.slice(0, -1)}g`],
    ['same length, first character differs', `x${CI_KEY.slice(1)}`],
    ['a key in other case', CI_KEY.toUpperCase()],
    ['two keys concatenated', CI_KEY + OPS_KEY],
    ['very long', 'k'.repeat(100_000)],
    ['non-ASCII', 'ключ-0123456789abcdef'],
  ])('rejects a wrong key (%s)', (_case, presented) => {
    expect(service.verify(presented)).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['short', 'x'],
    ['same length as a key', `${CI_KEY.slice(0, -1)}g`],
    ['long', 'k'.repeat(10_000)],
    ['valid', OPS_KEY],
  ])('compares fixed-size digests against every key, whatever is presented (%s)', (_case, presented) => {
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    service.verify(presented);
    expect(compare).toHaveBeenCalledTimes(3);
    for (const [a, b] of compare.mock.calls) {
      expect((a as Buffer).length).toBe(32);
      expect((b as Buffer).length).toBe(32);
    }
  });

  it.each([
    ['a wrong key', { authorization: 'Bearer wrong-key-0123456789abcdef' }, 'invalid'],
    ['no Authorization header', {}, 'missing'],
    ['another scheme', { authorization: `Basic ${CI_KEY}` }, 'not-bearer'],
  ])("tells a request's failed credentials apart (%s)", (_case, headers, kind) => {
    expect(service.verifyRequest({ headers })).toEqual({ kind });
  });

  it('requires keys only when some are configured', () => {
    expect(service.required).toBe(true);
    const open = new ApiKeyService([], OPEN_POLICY);
    expect(open.required).toBe(false);
    expect(open.verify('anything-at-all-0000')).toBeUndefined();
  });
});
