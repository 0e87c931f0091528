import { eventually } from '../../support/eventually';

/**
 * What an MCP client's `listChanged.tools.onChanged` was told, and a way to wait until the newest
 * list told satisfies `done` (so it fails unless a `notifications/tools/list_changed` came).
 */
export function toolListWatch() {
  const lists: string[][] = [];
  const onChanged = (error: Error | null, tools: { name: string }[] | null) => {
    if (!error && tools) lists.push(tools.map((tool) => tool.name));
  };
  const announced = (done: (names: string[]) => boolean) =>
    eventually(
      async () => lists.at(-1) ?? [],
      (names) => lists.length > 0 && done(names),
      15_000,
    );
  return { listChanged: { tools: { onChanged } }, announced };
}
