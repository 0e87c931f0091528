import type { AccessGrant, AccessRule } from './auth.schema';
import type { AgentConfig, ExternalAgentConfig, McpServerConfig } from './config.schema';

/** An API key as the catalog holds it: never the key, only its SHA-256 digest. */
export interface CatalogKey {
  name: string;
  /** SHA-256 of the key, hex. */
  digest: string;
  /** Refused from this instant on. */
  expires_at?: Date;
  /** Its own tools, agents and rights; none for a bare key of the file. */
  grant?: AccessGrant;
}

/** An `[[auth.rules]]` entry with the name it goes by (`rule-<position>` for the file's unnamed ones). */
export type NamedAccessRule = AccessRule & { name: string };

/**
 * What an operator governs, as the running processes use it: the file's entries and those created
 * through the admin API, resolved (secrets decrypted, `${VAR}` references and stdio environments read).
 */
export interface Catalog {
  readonly mcp_servers: readonly McpServerConfig[];
  readonly external_agents: readonly ExternalAgentConfig[];
  readonly agents: readonly AgentConfig[];
  readonly keys: readonly CatalogKey[];
  readonly rules: readonly NamedAccessRule[];
}

export type CatalogListener = (next: Catalog, previous: Catalog) => void;

/**
 * The catalog this process runs with, and who wants to know when it changes. Each holder of a part
 * (connections, agents, keys, rules) subscribes and applies what changed in its part; listeners run
 * in the order they subscribed, which Nest's construction order makes dependencies first.
 */
export class LiveCatalog {
  private readonly listeners: CatalogListener[] = [];

  constructor(private catalog: Catalog) {}

  get current(): Catalog {
    return this.catalog;
  }

  /** Makes `next` current and tells every listener. A failing listener does not keep the others from it. */
  replace(next: Catalog, onListenerError: (error: Error) => void): void {
    const previous = this.catalog;
    this.catalog = next;
    for (const listener of [...this.listeners]) {
      try {
        listener(next, previous);
      } catch (error) {
        onListenerError(error as Error);
      }
    }
  }

  onChange(listener: CatalogListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }
}
