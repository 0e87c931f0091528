import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigError } from '../config/config-error';
import type { SwitchboardConfig } from '../config/config.schema';
import { LiveCatalog } from '../config/live-catalog';
import { CATALOG_NOTICES, type CatalogNotices } from './catalog-notices';
import {
  BOOT_CONFIG,
  CatalogSource,
  CONFIG_LOADER,
  type ConfigLoader,
  filePartOf,
  NOT_READ,
} from './catalog-source.service';
import { settingsNeedingRestart } from './settings-needing-restart';

/** Whether other processes share the catalog's store (Postgres). */
export const CATALOG_SHARED = Symbol('CATALOG_SHARED');

/** How often a process asks the store for its revision, in case a notice was lost on its way. */
export const REVISION_POLL_MS = 5_000;
/** A changed file is read once its writes have settled. */
const FILE_SETTLE_MS = 200;

/**
 * Keeps this process's LiveCatalog current: after its own changes, on another process's notice, when
 * notices may have been missed (Redis back after an outage; and a poll of the store's revision), and
 * when the file is re-read (SIGHUP, or its change with `catalog.watch_file`). A catalog that does not
 * build (a bad file, an entry whose variable is gone) changes nothing: the last good one stays, and
 * `problem` says why, for `/readyz`.
 */
@Injectable()
export class CatalogSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CatalogSync.name);
  private appliedRevision: number;
  private currentProblem?: string;
  private running?: Promise<void>;
  private queued?: Promise<void>;
  private poll?: NodeJS.Timeout;
  private watcher?: FSWatcher;
  private settle?: NodeJS.Timeout;
  private readonly onHangup = () => void this.reloadFile();

  constructor(
    private readonly source: CatalogSource,
    private readonly live: LiveCatalog,
    @Inject(CATALOG_NOTICES) private readonly notices: CatalogNotices,
    @Inject(CONFIG_LOADER) private readonly loadConfig: ConfigLoader,
    @Inject(BOOT_CONFIG) private readonly config: SwitchboardConfig,
    @Inject(CATALOG_SHARED) private readonly shared: boolean,
  ) {
    this.appliedRevision = source.bootRevision;
  }

  /** Why the last reload was refused (the last good catalog still in use); undefined when it was not. */
  get problem(): string | undefined {
    return this.currentProblem;
  }

  get revision(): number {
    return this.appliedRevision;
  }

  /**
   * Why the admin API's entries are not in this process's catalog yet (the store did not answer at
   * boot); undefined once they are. Until then its keys and rules are unknown here.
   */
  get unread(): string | undefined {
    return this.appliedRevision === NOT_READ
      ? `the admin API's entries are not read yet: ${this.source.unread ?? 'the store has not answered'}`
      : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.notices.listen({
      changed: (revision) => revision > this.appliedRevision && void this.refresh(),
      missed: () => void this.refresh(),
    });
    if (this.shared) {
      this.poll = setInterval(() => void this.pollRevision(), REVISION_POLL_MS);
      this.poll.unref();
    }
    process.on('SIGHUP', this.onHangup);
    const path = this.source.file.path;
    // The directory, not the file: editors replace a file by renaming another over it, and Kubernetes
    // swaps a ConfigMap's files by moving its `..data` link; a watch on the file itself misses both.
    if (this.config.catalog.watch_file && path)
      this.watcher = watch(dirname(path), (_event, name) => {
        if (name === basename(path) || name === '..data') this.fileChanged();
      });
  }

  onApplicationShutdown(): void {
    process.off('SIGHUP', this.onHangup);
    clearInterval(this.poll);
    clearTimeout(this.settle);
    this.watcher?.close();
  }

  /** This process changed the catalog: it applies the change before answering, then tells the others. */
  async changed(revision: number): Promise<void> {
    await this.refresh();
    await this.notices.announce(revision).catch((error: Error) =>
      // The others' poll finds it within REVISION_POLL_MS.
      this.logger.warn({ revision, err: error.message }, 'catalog change notice not published'),
    );
  }

  /**
   * Reads the catalog and applies it, one reading at a time. Asked while one runs, it reads once more
   * after it (a reading under way may have begun before the change it is asked for), and every caller
   * meanwhile waits for that one.
   */
  refresh(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return (this.running = this.readOnce());
    this.queued = this.running.then(() => {
      this.queued = undefined;
      return (this.running = this.readOnce());
    });
    return this.queued;
  }

  private readOnce(): Promise<void> {
    const reading: Promise<void> = this.readAndApply().finally(() => {
      if (this.running === reading) this.running = undefined;
    });
    return reading;
  }

  /** Loads the file again; a file that fails to load changes nothing. */
  async reloadFile(): Promise<void> {
    let loaded;
    try {
      loaded = this.loadConfig();
    } catch (error) {
      const why =
        error instanceof ConfigError ? `${error.source}: ${error.problems.join('; ')}` : (error as Error).message;
      this.refused(`the file was not reloaded: ${why}`);
      return;
    }
    const restart = settingsNeedingRestart(this.source.file.config, loaded.config);
    if (restart.length > 0)
      this.logger.warn(
        { settings: restart },
        'settings outside the catalog changed in the file: they apply at restart',
      );
    this.source.replaceFile(filePartOf(loaded));
    this.logger.log({ file: loaded.file }, 'config file reloaded');
    await this.refresh();
  }

  private async readAndApply(): Promise<void> {
    let reading;
    try {
      reading = await this.source.read();
    } catch (error) {
      // The store is down: the poll and the next notice try again.
      this.logger.warn({ err: (error as Error).message }, 'catalog not read');
      return;
    }
    if (reading.problems.length > 0) {
      this.refused(`the catalog did not build: ${reading.problems.join('; ')}`);
      return;
    }
    for (const name of reading.shadowed)
      this.logger.warn({ entry: name }, "an admin API entry is hidden by the file's entry of the same name");
    this.appliedRevision = Math.max(this.appliedRevision, reading.revision);
    this.currentProblem = undefined;
    this.live.replace(reading.catalog, (error) =>
      this.logger.error({ err: error.message }, 'a part of the process failed to apply the catalog'),
    );
    this.logger.log({ revision: reading.revision }, 'catalog applied');
  }

  private refused(why: string): void {
    this.currentProblem = `${why} (the last good catalog stays in use)`;
    this.logger.error({ problem: why }, 'catalog change refused: the last good catalog stays in use');
  }

  private async pollRevision(): Promise<void> {
    try {
      if ((await this.source.store.revision()) > this.appliedRevision) await this.refresh();
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'catalog revision not read');
    }
  }

  private fileChanged(): void {
    clearTimeout(this.settle);
    this.settle = setTimeout(() => void this.reloadFile(), FILE_SETTLE_MS);
  }
}
