/**
 * Tests are laid out like src (docs/testing.md): unit specs beside the code (src/**\/*.spec.ts) or under test/ at
 * the same path, the rest under test/. A file's suffix says what it needs, and so which project runs it:
 *   *.spec.ts          unit       nothing outside the Jest worker: no store, no dist/, no process of its own
 *   *.e2e-spec.ts      stores     the real Postgres and Redis (TEST_DATABASE_URL, TEST_REDIS_URL)
 *   *.process-spec.ts  processes  processes it starts (Switchboard from dist/, peers, providers, MCP or store servers)
 *   *.browser-spec.ts  browser    the console in headless chromium
 * `npm test` runs every project, `npm run test:unit` the first. The image, compose stack and chart are
 * `npm run test:deploy`'s (test/deploy/jest.config.js).
 */
const shared = {
  testEnvironment: 'node',
  rootDir: __dirname,
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

module.exports = {
  projects: [
    // No global setup, and no store URLs: a unit spec that reaches for a store fails and says to rename it.
    { ...shared, displayName: 'unit', testRegex: '\\.spec\\.ts$', setupFiles: ['<rootDir>/test/support/no-stores.ts'] },
    { ...withStores, displayName: 'stores', testRegex: '\\.e2e-spec\\.ts$' },
    { ...withStores, displayName: 'processes', testRegex: '\\.process-spec\\.ts$' },
    { ...withStores, displayName: 'browser', testRegex: '\\.browser-spec\\.ts$' },
  ],
  testTimeout: 30000,
  maxWorkers: 2,
};
