import { AccessScope } from './access-scope';

describe('AccessScope', () => {
  it('allows everything when no list is given', () => {
    const scope = AccessScope.of({});
    expect(scope.allowsTool('mcp_fs_write_file')).toBe(true);
    expect(scope.allowsAgent('coder')).toBe(true);
  });

  it('matches whole names, "*" standing for any run of characters', () => {
    const scope = AccessScope.of({ tools: ['mcp_github_*', 'web_fetch'] });
    expect(scope.allowsTool('mcp_github_create_issue')).toBe(true);
    expect(scope.allowsTool('web_fetch')).toBe(true);
    expect(scope.allowsTool('web_fetch_all')).toBe(false);
    expect(scope.allowsTool('mcp_fs_write_file')).toBe(false);
    expect(scope.allowsTool('x_mcp_github_a')).toBe(false);
    expect(scope.allowsAgent('anything')).toBe(true);
  });

  it('takes pattern characters other than "*" literally', () => {
    const scope = AccessScope.of({ agents: ['code.reviewer'] });
    expect(scope.allowsAgent('code.reviewer')).toBe(true);
    expect(scope.allowsAgent('codeXreviewer')).toBe(false);
  });

  it('allows nothing of a kind given an empty list', () => {
    const scope = AccessScope.of({ agents: [] });
    expect(scope.allowsAgent('coder')).toBe(false);
    expect(scope.allowsTool('web_fetch')).toBe(true);
  });
});

describe('AccessScope operator rights', () => {
  it('grants them only when asked', () => {
    expect(AccessScope.unrestricted.admin).toBe(false);
    expect(AccessScope.of({ tools: ['web_fetch'] }).admin).toBe(false);
    expect(AccessScope.of({ admin: true }).admin).toBe(true);
  });

  it('adds them without widening a reach given by other grants', () => {
    const scope = AccessScope.union([{ agents: ['coder'] }, { admin: true }]);
    expect(scope.admin).toBe(true);
    expect(scope.allowsAgent('coder')).toBe(true);
    expect(scope.allowsAgent('other')).toBe(false);
  });

  it('keeps the reach the caller has without them when they are all it is granted', () => {
    const scope = AccessScope.union([{ admin: true }], AccessScope.none);
    expect(scope.admin).toBe(true);
    expect(scope.allowsAgent('coder')).toBe(false);
  });
});

describe('AccessScope.reach', () => {
  it('is the same for scopes of equal lists, whichever grant made them, operator rights aside', () => {
    const fromKey = AccessScope.of({ tools: ['mcp_github_*'], agents: ['triage'] });
    const fromToken = AccessScope.union([{ tools: ['mcp_github_*'], agents: ['triage'] }, { admin: true }]);
    expect(fromToken).not.toBe(fromKey);
    expect(fromToken.reach).toBe(fromKey.reach);
  });

  it('differs where the tools or the agents reached differ', () => {
    const reaches = [
      AccessScope.unrestricted,
      AccessScope.none,
      AccessScope.of({ tools: ['*'] }),
      AccessScope.of({ tools: ['mcp_github_*'] }),
      AccessScope.of({ agents: ['mcp_github_*'] }),
      AccessScope.of({ tools: ['a', 'b'] }),
      AccessScope.of({ tools: ['a,b'] }),
    ].map((scope) => scope.reach);
    expect(new Set(reaches).size).toBe(reaches.length);
  });
});
