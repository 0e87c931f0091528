import type { INestApplicationContext } from '@nestjs/common';
import { fileCatalog } from '../../src/config/file-catalog';
import { LiveCatalog, type Catalog } from '../../src/config/live-catalog';
import { writeConfigFile } from './config-file';
import { testConfig } from './test-app';

/** Changes the app's live catalog as the catalog's store does on a change: parts left out stay as they are. */
export function changeCatalog(app: INestApplicationContext, parts: Partial<Catalog>): void {
  const catalog = app.get(LiveCatalog);
  catalog.replace({ ...catalog.current, ...parts }, (error) => {
    throw error;
  });
}

/** The catalog a config file of `toml` describes (its entries validated as the loader validates them). */
export function catalogFrom(toml: string): Catalog {
  return fileCatalog(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(toml) }));
}
