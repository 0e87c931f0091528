import type { Environment } from '../../src/config/config.loader';
import { startTestApp, testConfig } from './test-app';
import { startDurableTestApp } from './durable-test-app';

/** Embedded: memory stores, in-process turns. Durable: Postgres, Redis and an in-process BullMQ worker. */
export type StoreMode = 'embedded' | 'durable';

export interface RunningTestApp {
  url: string;
  close(): Promise<void>;
}

/** The app in `mode`, configured by `env`; durable mode gets a database and a Redis prefix of its own. */
export async function startTestAppIn(mode: StoreMode, env: Environment): Promise<RunningTestApp> {
  if (mode === 'durable') return startDurableTestApp(env);
  const { app, url } = await startTestApp(testConfig(env));
  return { url, close: () => app.close() };
}
