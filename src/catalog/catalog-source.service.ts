import { Inject, Injectable } from '@nestjs/common';
import { ConfigError } from '../config/config-error';
import type { LoadedConfig } from '../config/config.loader';
import type { SwitchboardConfig } from '../config/config.schema';
import { fileCatalog } from '../config/file-catalog';
import type { Catalog } from '../config/live-catalog';
import { processEnvironment } from '../config/variable-references';
import { buildCatalog, type BuiltCatalog } from './catalog-builder';
import { CATALOG_STORE, type CatalogContents, type CatalogStore, type StoredEntry } from './catalog-store.interface';
import { SecretCipher } from './secret-cipher';

/** The file's part of the catalog: what it describes, and where it was read from. */
export interface FilePart {
  config: SwitchboardConfig;
  catalog: Catalog;
  /** Undefined when only defaults and the environment were used. */
  path?: string;
}

/** Loads the config again (SIGHUP): the file and environment the process booted with. Tests give their own. */
export const CONFIG_LOADER = Symbol('CONFIG_LOADER');
export type ConfigLoader = () => LoadedConfig;

/** The config the process booted with, whole. */
export const BOOT_CONFIG = Symbol('BOOT_CONFIG');

/** What the catalog is made of, read now: the file's part and the store's entries, built into one. */
export interface CatalogReading extends BuiltCatalog {
  revision: number;
  entries: StoredEntry[];
}

export function filePartOf({ config, file }: LoadedConfig): FilePart {
  return { config, catalog: fileCatalog(config), path: file };
}

/** Before any revision: the store has not been read. */
export const NOT_READ = -1;

/** Where the catalog comes from: the file (as last loaded) and the admin API's entries (the store). */
@Injectable()
export class CatalogSource {
  readonly cipher?: SecretCipher;
  /** The store's revision the process booted with; NOT_READ when the store did not answer then. */
  bootRevision = 0;
  /** Why the store could not be read at boot. */
  unread?: string;
  private filePart: FilePart;

  constructor(
    @Inject(CATALOG_STORE) readonly store: CatalogStore,
    @Inject(BOOT_CONFIG) config: SwitchboardConfig,
  ) {
    const key = config.catalog.encryption_key;
    this.cipher = key === undefined ? undefined : new SecretCipher(key);
    this.filePart = filePartOf({ config, file: config.source_file });
  }

  get file(): FilePart {
    return this.filePart;
  }

  /** Takes a newly loaded file's part: the next reading uses it. */
  replaceFile(part: FilePart): void {
    this.filePart = part;
  }

  async read(): Promise<CatalogReading> {
    return this.built(await this.store.contents());
  }

  /** `contents` with the file's part, built. */
  built(contents: CatalogContents): CatalogReading {
    const built = buildCatalog(this.filePart.catalog, contents.entries, {
      cipher: this.cipher,
      env: processEnvironment(),
    });
    return { revision: contents.revision, entries: contents.entries, ...built };
  }

  /**
   * The catalog to boot with; refused, as a bad file is, when it has problems. With the store down
   * (Postgres not up yet), the file's part alone: the process starts as it does without its
   * database, and reads the admin API's entries once the store answers (CatalogSync's poll).
   */
  async initial(): Promise<Catalog> {
    let contents: CatalogContents;
    try {
      contents = await this.store.contents();
    } catch (error) {
      this.unread = (error as Error).message;
      this.bootRevision = NOT_READ;
      return this.built({ revision: NOT_READ, entries: [] }).catalog;
    }
    const reading = this.built(contents);
    if (reading.problems.length > 0) throw new ConfigError("catalog (the admin API's entries)", reading.problems);
    this.bootRevision = reading.revision;
    return reading.catalog;
  }
}
