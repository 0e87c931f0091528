/** The live catalog: MCP servers, external agents, agents, keys and rules, from the file and the admin API, the same on every process. */
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { loadConfig } from '../config/config.loader';
import type { SwitchboardConfig } from '../config/config.schema';
import { LiveCatalog } from '../config/live-catalog';
import type { StorageMode } from '../config/storage-mode';
import { CatalogEditor } from './catalog-editor.service';
import { CATALOG_NOTICES, LocalCatalogNotices } from './catalog-notices';
import { CatalogReader } from './catalog-reader.service';
import { BOOT_CONFIG, CatalogSource, CONFIG_LOADER } from './catalog-source.service';
import { CATALOG_STORE } from './catalog-store.interface';
import { CATALOG_SHARED, CatalogSync } from './catalog-sync.service';
import { MemoryCatalogStore } from './memory-catalog-store';
import { PostgresCatalogStore } from './postgres-catalog-store';
import { RedisCatalogNotices } from './redis-catalog-notices';

@Global()
@Module({})
export class CatalogModule {
  /** Needs AuditModule, DatabaseModule when mode.tasks is postgres, RedisModule when mode.shared is redis. */
  static forRoot(config: SwitchboardConfig, mode: StorageMode): DynamicModule {
    const providers: Provider[] = [
      { provide: BOOT_CONFIG, useValue: config },
      { provide: CONFIG_LOADER, useValue: () => loadConfig() },
      { provide: CATALOG_SHARED, useValue: mode.tasks === 'postgres' },
      { provide: CATALOG_STORE, useClass: mode.tasks === 'postgres' ? PostgresCatalogStore : MemoryCatalogStore },
      { provide: CATALOG_NOTICES, useClass: mode.shared === 'redis' ? RedisCatalogNotices : LocalCatalogNotices },
      CatalogSource,
      {
        provide: LiveCatalog,
        inject: [CatalogSource],
        useFactory: async (source: CatalogSource) => new LiveCatalog(await source.initial()),
      },
      CatalogSync,
      CatalogEditor,
      CatalogReader,
    ];
    return { module: CatalogModule, providers, exports: [LiveCatalog, CatalogSync, CatalogEditor, CatalogReader] };
  }
}
