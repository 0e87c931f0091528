/** The live catalog: MCP servers, external agents, agents, keys and rules, from the file and the admin API, the same on every process. */
import { DynamicModule, Global, Module } from '@nestjs/common';
import type { SwitchboardConfig } from '../config/config.schema';
import { fileCatalog } from '../config/file-catalog';
import { LiveCatalog } from '../config/live-catalog';

@Global()
@Module({})
export class CatalogModule {
  static forRoot(config: SwitchboardConfig): DynamicModule {
    return {
      module: CatalogModule,
      providers: [{ provide: LiveCatalog, useValue: new LiveCatalog(fileCatalog(config)) }],
      exports: [LiveCatalog],
    };
  }
}
