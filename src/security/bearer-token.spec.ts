import { bearerCredentials } from './bearer-token';

describe('bearerCredentials', () => {
  it('reads the token of a Bearer header, whatever the scheme case', () => {
    expect(bearerCredentials('Bearer abc.def-1')).toEqual({ kind: 'token', token: 'abc.def-1' });
    expect(bearerCredentials('bearer abc')).toEqual({ kind: 'token', token: 'abc' });
    expect(bearerCredentials('BEARER   abc  ')).toEqual({ kind: 'token', token: 'abc' });
  });

  it('reports a missing header', () => {
    expect(bearerCredentials(undefined)).toEqual({ kind: 'missing' });
    expect(bearerCredentials('')).toEqual({ kind: 'missing' });
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b', 'Bearerabc', 'Token abc'])(
    'reports %p as not a bearer token',
    (header) => {
      expect(bearerCredentials(header)).toEqual({ kind: 'not-bearer' });
    },
  );
});
