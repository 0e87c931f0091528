import { MAX_TOOL_NAME_LENGTH } from '../../src/mcp-client/tool-namespace';
import {
  firstText,
  serverState,
  serversView,
  startMcpApp,
  stdioServer,
  toolsListed,
  type McpTestApp,
} from './support/mcp-app';
import { DYNAMIC_SERVER } from './support/mcp-servers';

let target: McpTestApp;

beforeAll(async () => {
  target = await startMcpApp(
    stdioServer('legacy', DYNAMIC_SERVER, ['legacy']) + stdioServer('modern', DYNAMIC_SERVER, ['modern']),
  );
  await toolsListed(target.tools, ['mcp_legacy_echo', 'mcp_modern_echo']);
});

afterAll(async () => {
  await target?.app.close();
});

describe.each(['legacy', 'modern'])('a %s-era server', (era) => {
  it(`is spoken to in its own era`, async () => {
    const view = await serverState(target.url, era, 'connected');
    expect(view.configured.find((entry) => entry.name === era)?.status.era).toBe(era);
    expect(firstText(await target.tools.call(`mcp_${era}_echo`, { text: 'hello' }))).toBe(`${era}:hello`);
  });

  it('has its tool list refreshed on notifications/tools/list_changed', async () => {
    expect(target.tools.list().map((tool) => tool.name)).not.toContain(`mcp_${era}_added_1`);
    expect(firstText(await target.tools.call(`mcp_${era}_add_tool`, {}))).toBe('added_1');
    await toolsListed(target.tools, [`mcp_${era}_added_1`], 5_000);
    expect(firstText(await target.tools.call(`mcp_${era}_added_1`, {}))).toBe('added_1');
  });

  it('has odd and long tool names shortened, the mapping kept, and a collision reported', async () => {
    const tools = target.tools.list().filter((tool) => tool.server === era);
    const long = tools.find((tool) => tool.serverToolName.startsWith('a_tool_name_long_enough'))!;
    expect(long.name).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(long.name).toMatch(new RegExp(`^mcp_${era}_a_tool_name_long_enough_\\w+_[0-9a-f]{8}$`));
    expect(firstText(await target.tools.call(long.name, {}))).toBe('long');
    const weather = tools.find((tool) => tool.serverToolName === 'get.weather')!;
    expect(weather.name).toMatch(new RegExp(`^mcp_${era}_get_weather_[0-9a-f]{8}$`));
    expect(firstText(await target.tools.call(weather.name, {}))).toBe('sunny');

    expect(tools.filter((tool) => tool.name === `mcp_${era}_do_thing`).map((tool) => tool.serverToolName)).toEqual([
      'do-thing',
    ]);
    expect(firstText(await target.tools.call(`mcp_${era}_do_thing`, {}))).toBe('first');
    const { collisions } = await serversView(target.url);
    expect(collisions).toContainEqual({
      name: `mcp_${era}_do_thing`,
      server: era,
      tool: 'do_thing',
      takenBy: { server: era, tool: 'do-thing' },
    });
  });
});
