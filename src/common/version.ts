/** Switchboard's version, as it introduces itself to peers (MCP client and server info, A2A User-Agent). */
export const SWITCHBOARD_VERSION = '0.1.0';

export const USER_AGENT = `switchboard/${SWITCHBOARD_VERSION}`;
