/** Unit tests sit next to the code (src/**\/*.spec.ts); integration and e2e tests under test/. */
const swc = ['@swc/jest', { swcrc: true }];

module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  transform: { '^.+\\.(t|j)s$': swc },
  // jose (used by @a2a-js/sdk) ships ESM only; Node's require(esm) handles it at run time, Jest needs it transformed.
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};
