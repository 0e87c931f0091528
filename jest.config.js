/** Unit tests sit next to the code (src/**\/*.spec.ts); integration and e2e tests under test/. */
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  // The image, compose stack and chart are `npm run test:deploy`'s (test/deploy/jest.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/deploy/'],
  // Type checking is `npm run typecheck`'s job; tests only transpile, which keeps them fast.
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
    // jose (used by @a2a-js/sdk) ships ESM only; Node's require(esm) loads it at run time, Jest needs it transpiled.
    '^.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, isolatedModules: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};
