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
const { shared, withStores } = require('./test/support/jest-projects');

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
