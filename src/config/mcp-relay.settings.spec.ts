import { ConfigError } from './config-error';
import { loadStdioRelaySettings } from './mcp-relay.settings';

describe('loadStdioRelaySettings', () => {
  it('gives the URL without trailing slashes, and the API key', () => {
    expect(
      loadStdioRelaySettings({ SWITCHBOARD_URL: 'https://switchboard.example.com/base//', SWITCHBOARD_API_KEY: 'k' }),
    ).toEqual({
      url: 'https://switchboard.example.com/base',
      apiKey: 'k',
      log: { level: 'info', pretty: false, destination: 'stderr' },
    });
  });

  it('treats unset and empty variables alike: nothing to relay to', () => {
    expect(loadStdioRelaySettings({})).toMatchObject({ url: undefined, apiKey: undefined });
    expect(loadStdioRelaySettings({ SWITCHBOARD_URL: '', SWITCHBOARD_API_KEY: '' })).toMatchObject({
      url: undefined,
      apiKey: undefined,
    });
  });

  it("logs as the server's LOG_LEVEL and SWITCHBOARD_LOG_PRETTY say, on stderr, and names a bad level's variable", () => {
    expect(loadStdioRelaySettings({ LOG_LEVEL: 'debug', SWITCHBOARD_LOG_PRETTY: 'true' }).log).toEqual({
      level: 'debug',
      pretty: true,
      destination: 'stderr',
    });
    expect(() => loadStdioRelaySettings({ LOG_LEVEL: 'loud' })).toThrow(
      expect.objectContaining({ problems: [expect.stringMatching(/^LOG_LEVEL: /)] }),
    );
  });

  it.each(['localhost:8080', 'ftp://switchboard.example.com', 'not a url'])(
    'rejects SWITCHBOARD_URL=%s with an error naming it',
    (url) => {
      let thrown: unknown;
      try {
        loadStdioRelaySettings({ SWITCHBOARD_URL: url });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).problems).toEqual([
        'SWITCHBOARD_URL: must be an http(s) URL, such as http://127.0.0.1:8080',
      ]);
    },
  );
});
