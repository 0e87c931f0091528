/** What every Jest project of this repository shares: jest.config.js's four and test/deploy's own. */
const { join } = require('node:path');

const shared = {
  testEnvironment: 'node',
  rootDir: join(__dirname, '../..'),
  roots: ['<rootDir>/src', '<rootDir>/test'],
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
};

// One template database for the run, migrated once; each test file clones it (test/support/test-database.ts).
const withStores = {
  ...shared,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

module.exports = { shared, withStores };
