/**
 * What a booting `switchboard serve` writes at `info`: its own lines (configuration, mode, the ready
 * line) and the banner, not Nest's account of each module initialized and each route mapped, which
 * is kept at `debug`. A real process's log.
 */
import { ServiceProcesses } from '../support/service-processes';

/** Nest's own boot lines: modules initialized, routes mapped, the application starting and started. */
const NEST_BOOT = /dependencies initialized|Mapped \{|Nest application|Starting Nest application|RoutesResolver/;

function jsonLines(output: string): { level: number; msg: string }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

describe('the boot log', () => {
  const atInfo = new ServiceProcesses({ LOG_LEVEL: 'info' });
  const atDebug = new ServiceProcesses({ LOG_LEVEL: 'debug' });

  afterAll(() => Promise.all([atInfo.stopAll(), atDebug.stopAll()]));

  it('at info holds Switchboard\u2019s own lines and the ready line, not Nest\u2019s modules and routes', async () => {
    const api = await atInfo.api('info');
    const lines = jsonLines(api.output);
    expect(lines.filter((line) => NEST_BOOT.test(line.msg))).toEqual([]);
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['configuration loaded', 'switchboard listening']),
    );
  });

  it('keeps Nest\u2019s boot lines at debug', async () => {
    const api = await atDebug.api('debug');
    const lines = jsonLines(api.output);
    expect(lines).toContainEqual(expect.objectContaining({ level: 20, msg: 'AppModule dependencies initialized' }));
    expect(lines.filter((line) => NEST_BOOT.test(line.msg) && line.level !== 20)).toEqual([]);
  });
});
