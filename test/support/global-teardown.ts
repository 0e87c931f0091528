import { dropDatabase, TEMPLATE_DATABASE_ENV } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const template = process.env[TEMPLATE_DATABASE_ENV];
  if (template) await dropDatabase(template);
}
