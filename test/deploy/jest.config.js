/** `npm run test:deploy`'s Jest run (through test/deploy/run.sh): the compose stack and the Helm chart. */
const base = require('../../jest.config');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/deploy'],
  // The deploy specs make their own environment (containers, a chart); no test database.
  globalSetup: undefined,
  globalTeardown: undefined,
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
