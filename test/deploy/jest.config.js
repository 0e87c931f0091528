/** `npm run test:deploy`'s Jest run (through test/deploy/run.sh): the compose stack and the Helm chart. */
const { shared } = require('../support/jest-projects');

module.exports = {
  ...shared,
  roots: ['<rootDir>/test/deploy'],
  // The deploy specs make their own environment (containers, a chart): no test database, no global setup.
  testRegex: '\\.e2e-spec\\.ts$',
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 30000,
  maxWorkers: 1,
};
