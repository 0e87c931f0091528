/**
 * `api` serves HTTP (and may run workers in-process); `worker` only runs queue workers; `stdio`
 * serves the protocols' logic without HTTP (`switchboard mcp`), running workers as `api` does.
 */
export type ProcessRole = 'api' | 'worker' | 'stdio';
