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
