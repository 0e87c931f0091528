import crypto = require('node:crypto');
import type { SwitchboardConfig } from '../config/config.schema';
import { fileCatalog, keyDigest } from '../config/file-catalog';
import { LiveCatalog, type Catalog } from '../config/live-catalog';
import { AccessPolicy } from './access-policy';
import { ApiKeyService } from './api-key.service';

type ApiKeys = SwitchboardConfig['auth']['api_keys'];

/** The catalog a file with these keys gives. */
function catalogOf(apiKeys: ApiKeys): LiveCatalog {
  return new LiveCatalog(
    fileCatalog({
      mcp_servers: [],
      agents: [],
      a2a: { external_agents: [] },
      auth: { api_keys: apiKeys, rules: [] },
    } as unknown as SwitchboardConfig),
  );
}

/** An open policy's key service over the keys of a file. */
function keyService(apiKeys: ApiKeys, now?: () => number): ApiKeyService {
  const catalog = catalogOf(apiKeys);
  return new ApiKeyService(catalog, new AccessPolicy(catalog, 'all'), now);
}

function replaced(catalog: LiveCatalog, change: Partial<Catalog>): void {
  catalog.replace({ ...catalog.current, ...change }, (error) => {
    throw error;
  });
}

const CI_KEY = 'ci-key-0123456789abcdef';
const OPS_KEY = 'ops-key-fedcba9876543210';
const BARE_KEY = 'bare-key-aaaaaaaaaaaaaaaa';

describe('ApiKeyService', () => {
  const service = keyService([{ name: 'ci', key: CI_KEY }, BARE_KEY, { name: 'ops', key: OPS_KEY }]);

  afterEach(() => jest.restoreAllMocks());

  it('names each key: objects keep their name, bare strings become key-<position>', () => {
    expect(service.verify(CI_KEY)?.name).toBe('ci');
    expect(service.verify(BARE_KEY)?.name).toBe('key-2');
    expect(service.verify(OPS_KEY)?.name).toBe('ops');
  });

  it("gives each key its scope: a key's lists, else everything", () => {
    const scoped = keyService([{ name: 'ci', key: CI_KEY, tools: ['mcp_github_*'], agents: [] }, BARE_KEY]);
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
    const open = keyService([]);
    expect(open.required).toBe(false);
    expect(open.verify('anything-at-all-0000')).toBeUndefined();
  });

  describe("following the catalog's keys", () => {
    it('accepts a key once added and refuses it once removed; keys are required while there are any', () => {
      const catalog = catalogOf([]);
      const live = new ApiKeyService(catalog, new AccessPolicy(catalog, 'all'));
      expect(live.required).toBe(false);
      replaced(catalog, { keys: [{ name: 'added', digest: keyDigest(CI_KEY) }] });
      expect(live.required).toBe(true);
      expect(live.verify(CI_KEY)?.name).toBe('added');
      replaced(catalog, { keys: [] });
      expect(live.verify(CI_KEY)).toBeUndefined();
      expect(live.required).toBe(false);
    });

    it('refuses a key from its expires_at on, as it refuses a wrong key', () => {
      let now = Date.parse('2026-12-07T12:00:00Z');
      const catalog = catalogOf([]);
      const live = new ApiKeyService(catalog, new AccessPolicy(catalog, 'all'), () => now);
      const expiring = { name: 'temp', digest: keyDigest(CI_KEY), expires_at: new Date('2026-12-07T13:00:00Z') };
      replaced(catalog, { keys: [expiring] });
      expect(live.verify(CI_KEY)?.name).toBe('temp');
      now = expiring.expires_at.getTime();
      expect(live.verify(CI_KEY)).toBeUndefined();
      expect(live.verifyRequest({ headers: { authorization: `Bearer ${CI_KEY}` } })).toEqual({ kind: 'invalid' });
    });

    it('gives keys the scopes of the rules in force', () => {
      const catalog = catalogOf([{ name: 'ci', key: CI_KEY }]);
      const live = new ApiKeyService(catalog, new AccessPolicy(catalog, 'all'));
      expect(live.verify(CI_KEY)?.scope.allowsAgent('coder')).toBe(true);
      replaced(catalog, { rules: [{ name: 'ci-agents', keys: ['ci'], agents: ['reviewer'] }] });
      expect(live.verify(CI_KEY)?.scope.allowsAgent('coder')).toBe(false);
      expect(live.verify(CI_KEY)?.scope.allowsAgent('reviewer')).toBe(true);
    });
  });
});
