import { stdioLaunch } from './stdio-launch';

describe('stdioLaunch', () => {
  const env = { PATH: '/usr/bin:/bin', GITHUB_TOKEN: 'ghp_x' };

  it('passes the resolved variables by value in the environment, never in argv', () => {
    const launch = stdioLaunch({ command: 'npx', args: ['-y', 'server'] }, env);
    expect(launch.env).toEqual({ PATH: '/usr/bin:/bin', GITHUB_TOKEN: 'ghp_x' });
    expect(launch.args?.join(' ')).not.toContain('ghp_x');
  });

  it("runs the command under env, unsetting what the SDK would add from Switchboard's environment", () => {
    const launch = stdioLaunch({ command: 'npx', args: ['-y', 'server'] }, env);
    expect(launch.command).toBe('/usr/bin/env');
    expect(launch.args).toEqual([
      '-u',
      'HOME',
      '-u',
      'LOGNAME',
      '-u',
      'SHELL',
      '-u',
      'TERM',
      '-u',
      'USER',
      '--',
      'npx',
      '-y',
      'server',
    ]);
  });

  it('keeps a default variable that is whitelisted', () => {
    const launch = stdioLaunch({ command: 'node', args: [] }, { PATH: '/usr/bin:/bin', HOME: '/root' });
    expect(launch.env).toEqual({ PATH: '/usr/bin:/bin', HOME: '/root' });
    expect(launch.args).not.toContain('HOME');
  });
});
