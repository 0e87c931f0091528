import { applyMigrations, createDatabase, TEMPLATE_DATABASE_ENV, uniqueName } from './test-database';

/** Migrates one template database for the whole run; jest workers inherit its name through the environment. */
export default async function globalSetup(): Promise<void> {
  const name = uniqueName('switchboard_tmpl');
  const template = await createDatabase(name);
  try {
    await applyMigrations(template.url);
  } catch (error) {
    await template.drop();
    throw error;
  }
  process.env[TEMPLATE_DATABASE_ENV] = name;
}
