import { SWITCHBOARD_VERSION } from '../common/version';
import { parseCommandLine } from './command-line';

describe('parseCommandLine', () => {
  it('runs serve when no command is given, and each command by name', () => {
    expect(parseCommandLine([])).toEqual({ kind: 'run', command: 'serve', flags: [] });
    for (const command of ['serve', 'worker', 'mcp', 'migrate'] as const)
      expect(parseCommandLine([command])).toEqual({ kind: 'run', command, flags: [] });
  });

  it('takes --embedded-fallback for mcp only', () => {
    expect(parseCommandLine(['mcp', '--embedded-fallback'])).toEqual({
      kind: 'run',
      command: 'mcp',
      flags: ['--embedded-fallback'],
    });
    expect(parseCommandLine(['serve', '--embedded-fallback'])).toMatchObject({
      kind: 'usage-error',
      text: expect.stringMatching(/^switchboard serve takes no arguments/),
    });
    expect(parseCommandLine(['mcp', '--fallback'])).toMatchObject({
      kind: 'usage-error',
      text: expect.stringMatching(/^switchboard mcp takes only --embedded-fallback \(got "--fallback"\)/),
    });
  });

  it('prints the version from the one constant', () => {
    expect(parseCommandLine(['--version'])).toEqual({ kind: 'print', text: `switchboard ${SWITCHBOARD_VERSION}` });
    expect(parseCommandLine(['-v'])).toEqual(parseCommandLine(['--version']));
  });

  it.each([
    [['serve', '--help']],
    [['worker', '-h']],
    [['help', 'mcp']],
    [['--help', 'migrate']],
    [['check', '--help']],
  ])("prints a command's help for %j instead of running it", (args) => {
    const invocation = parseCommandLine(args);
    expect(invocation.kind).toBe('print');
    expect(invocation.kind === 'print' && invocation.text).toMatch(
      new RegExp(`^Usage: switchboard ${args.find((arg) => !arg.startsWith('-') && arg !== 'help')}[\\n ]`),
    );
  });

  it('prints the overall usage for --help, -h and help', () => {
    for (const args of [['--help'], ['-h'], ['help']])
      expect(parseCommandLine(args)).toMatchObject({
        kind: 'print',
        text: expect.stringMatching(/^Usage: switchboard <command>/),
      });
  });

  it('refuses unknown commands and options, and arguments a command does not take', () => {
    expect(parseCommandLine(['frobnicate'])).toMatchObject({
      kind: 'usage-error',
      text: expect.stringMatching(/^Unknown command "frobnicate"/),
    });
    expect(parseCommandLine(['--port', '9000'])).toMatchObject({
      kind: 'usage-error',
      text: expect.stringMatching(/^Unknown option "--port"/),
    });
    expect(parseCommandLine(['help', 'nope'])).toMatchObject({
      kind: 'usage-error',
      text: expect.stringMatching(/^Unknown command "nope"/),
    });
    expect(parseCommandLine(['serve', '--port', '9000'])).toEqual({
      kind: 'usage-error',
      text: expect.stringMatching(
        /^switchboard serve takes no arguments \(got "--port" "9000"\): settings come from the config file and the environment/,
      ),
    });
  });
});
