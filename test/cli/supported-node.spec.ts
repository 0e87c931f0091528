/** Which Node versions bin/switchboard.js refuses (bin/supported-node.js): those older than every line `engines` names. */
const { olderNodeProblem } = require('../../bin/supported-node') as {
  olderNodeProblem: (found: string, engines: string, execPath: string) => string | undefined;
};

const ENGINES = '^22.15.0 || ^24.0.0';

describe('olderNodeProblem', () => {
  it.each(['22.15.0', '22.23.5', '24.0.0', '24.11.1'])('accepts Node %s, within a line engines names', (found) => {
    expect(olderNodeProblem(found, ENGINES, '/bin/node')).toBeUndefined();
  });

  it.each(['25.0.0', '26.1.0'])('accepts Node %s, newer than every line engines names', (found) => {
    expect(olderNodeProblem(found, ENGINES, '/bin/node')).toBeUndefined();
  });

  it.each(['20.20.2', '22.14.9', '22.0.0', '23.11.0', '18.19.1'])(
    'refuses Node %s, naming what it needs and what it found',
    (found) => {
      expect(olderNodeProblem(found, ENGINES, '/usr/bin/node')).toBe(
        `Switchboard needs Node.js ^22.15.0 || ^24.0.0 (package.json engines); this is Node.js ${found} (/usr/bin/node). Install a supported Node.js, or put one first in PATH.`,
      );
    },
  );
});
