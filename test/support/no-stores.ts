/**
 * The unit project's setup (jest.config.js): its specs run with neither Postgres nor Redis whatever the shell
 * exports, so a spec that reaches for a store fails here instead of passing only where the stores run.
 */
import { NO_STORES_ENV, TEMPLATE_DATABASE_ENV } from './test-database';

process.env[NO_STORES_ENV] = 'true';
for (const variable of ['TEST_DATABASE_URL', 'TEST_REDIS_URL', TEMPLATE_DATABASE_ENV]) delete process.env[variable];
