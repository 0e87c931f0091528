import type { McpCatalogSource } from '../../mcp-client/mcp-catalog-source.interface';
import type { SubagentBridge } from '../bridge/subagent-bridge';

/** Which of `/mcp`'s lists besides tools a change altered. */
export interface ListsChanged {
  prompts: boolean;
  resources: boolean;
}

/**
 * What `/mcp` offers besides tools, as names: the connected servers' prompts, and the resources of
 * `resources/list` (the bridge's agents, the servers' resources and templates). A change of the
 * catalog or of a server's lists is told to clients as `list_changed` only for a list it altered.
 */
export class OfferedLists {
  private last: { prompts: string; resources: string };

  constructor(
    private readonly catalog: McpCatalogSource,
    private readonly bridge: Pick<SubagentBridge, 'agents'>,
  ) {
    this.last = this.names();
  }

  /** Which lists differ from the last look, which this becomes. */
  changed(): ListsChanged {
    const now = this.names();
    const changed = { prompts: now.prompts !== this.last.prompts, resources: now.resources !== this.last.resources };
    this.last = now;
    return changed;
  }

  private names(): { prompts: string; resources: string } {
    return {
      prompts: JSON.stringify(this.catalog.prompts().map(({ name }) => name)),
      resources: JSON.stringify([
        this.bridge.agents().map(({ uri }) => uri),
        this.catalog.resources().map(({ uri }) => uri),
        this.catalog.resourceTemplates().map(({ uriTemplate }) => uriTemplate),
      ]),
    };
  }
}
