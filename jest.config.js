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
  // @modelcontextprotocol/ext-tasks (the tests' MCP Tasks client) ships ESM with `import` conditions only, which
  // Jest's CommonJS resolver does not follow: its subpaths are mapped to their files and transpiled like jose.
  transformIgnorePatterns: ['/node_modules/(?!jose/|@modelcontextprotocol/ext-tasks/)'],
  moduleNameMapper: {
    '^@modelcontextprotocol/ext-tasks/(.+)$': '<rootDir>/node_modules/@modelcontextprotocol/ext-tasks/dist/$1/index.js',
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};
