import { Injectable } from '@nestjs/common';
import { stringify } from 'smol-toml';
import { CATALOG_KINDS } from './catalog-kinds';
import { isReference, mapSecrets } from './catalog-secrets';
import { CatalogSource } from './catalog-source.service';
import type { CatalogKind } from './catalog-store.interface';
import { entryViews, type CatalogEntryView } from './catalog-views';
import { CatalogEntryNotFoundError } from './catalog.errors';

export interface CatalogListing {
  revision: number;
  entries: Record<CatalogKind, CatalogEntryView[]>;
}

/** The catalog as the admin API shows it: every entry with its source and version, secrets redacted, and as a TOML file. */
@Injectable()
export class CatalogReader {
  constructor(private readonly source: CatalogSource) {}

  async list(kind: CatalogKind): Promise<CatalogEntryView[]> {
    const { entries } = await this.source.store.contents();
    return entryViews(this.source.file.catalog, entries, kind);
  }

  async get(kind: CatalogKind, name: string): Promise<CatalogEntryView> {
    const found = (await this.list(kind)).find((view) => view.name === name);
    if (!found) throw new CatalogEntryNotFoundError(kind, name);
    return found;
  }

  async all(): Promise<CatalogListing> {
    const { revision, entries } = await this.source.store.contents();
    const listed = CATALOG_KINDS.map(({ kind }) => [kind, entryViews(this.source.file.catalog, entries, kind)]);
    return { revision, entries: Object.fromEntries(listed) as CatalogListing['entries'] };
  }

  /**
   * A config file with the catalog's entries: run with it, Switchboard has the same catalog. Secrets
   * and keys cannot be written out: each becomes a `${VAR}` reference to set (an entry's own
   * references stay as they are).
   */
  async toml(): Promise<string> {
    const { entries } = await this.all();
    const bodies = (kind: CatalogKind) =>
      entries[kind].map((view) => {
        const { manifest: _manifest, ...body } = view.entry;
        return mapSecrets(kind, body, (value, path) =>
          isReference(value) ? value : `\${${variableFor(view.name, path)}}`,
        );
      });
    const keys = entries.keys.map((view) => ({ ...view.entry, key: `\${${variableFor(view.name, 'key')}}` }));
    const document = {
      mcp_servers: bodies('mcp_servers'),
      agents: bodies('agents'),
      a2a: { external_agents: bodies('external_agents') },
      auth: { api_keys: keys, rules: bodies('rules') },
    };
    return `${TOML_HEADER}\n${stringify(JSON.parse(JSON.stringify(document)))}\n`;
  }
}

const TOML_HEADER = [
  '# The catalog of this Switchboard (GET /api/admin/catalog?format=toml): its MCP servers, external agents,',
  "# agents, keys and rules, the file's and the admin API's. Secrets and keys are not written out: each is a",
  '# ${VAR} reference to the variable that must hold it. Settings outside the catalog are not included.',
].join('\n');

/** `SWITCHBOARD_SECRET_GITHUB_TRANSPORT_HEADERS_AUTHORIZATION` for a secret at that path of entry `github`. */
function variableFor(name: string, path: string): string {
  return `SWITCHBOARD_SECRET_${name}_${path}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}
