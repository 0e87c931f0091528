import { NamePatterns } from './name-patterns';

describe('NamePatterns', () => {
  it('matches exact names and * patterns, and nothing when empty', () => {
    const list = new NamePatterns(['mcp_github_*', 'web_fetch']);
    expect(list.allows('mcp_github_create_issue')).toBe(true);
    expect(list.allows('web_fetch')).toBe(true);
    expect(list.allows('web_fetcher')).toBe(false);
    expect(list.allows('mcp_gitlab_create_issue')).toBe(false);
    expect(new NamePatterns(['*']).allows('anything')).toBe(true);
    expect(new NamePatterns([]).allows('web_fetch')).toBe(false);
  });

  it('treats regular-expression characters literally', () => {
    expect(new NamePatterns(['a.b']).allows('axb')).toBe(false);
    expect(new NamePatterns(['a.b']).allows('a.b')).toBe(true);
  });
});
