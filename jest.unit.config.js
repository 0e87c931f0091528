/**
 * `npm run test:unit`: every test that needs neither Postgres nor Redis, so no test database is
 * made and the run works with both stores down. `npm test` runs these and the rest.
 */
const base = require('./jest.config');

// End-to-end tests that run against local processes or the memory stores only, never Postgres or Redis.
const STORE_FREE_E2E = [
  'test/agents/llm-mcp-sampling',
  'test/agents/web-fetch',
  'test/logging/request-logs',
  'test/mcp-client/http',
  'test/mcp-client/list-changed',
  'test/mcp-server/gateway-upstream',
  'test/mcp-server/memory-mcp-event-store',
  'test/security/guarded-fetch',
  'test/task-store/memory-cancel-signals',
  'test/task-store/memory-task-event-stream',
  'test/task-store/memory-task-store',
];

module.exports = {
  ...base,
  testRegex: [
    '(?<!\\.e2e)\\.spec\\.ts$',
    ...STORE_FREE_E2E.map((path) => `/${path.replace(/[/.-]/g, '\\$&')}\\.e2e-spec\\.ts$`),
  ],
  globalSetup: undefined,
  globalTeardown: undefined,
};
