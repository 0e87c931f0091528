/**
 * Whether a client that accepts `accepted` can use what an agent offers (`offered`, its card's
 * output modes, full media types). Clients write modes loosely: media types with parameters and
 * wildcards (`text/*`, `*\/*`), and short forms (`text`, `json`, `*`) that several widely used clients
 * always send. None given means anything. Only a real mismatch is refused.
 */
export function acceptsOutputOf(accepted: readonly string[], offered: readonly string[]): boolean {
  return accepted.length === 0 || accepted.some((mode) => offered.some((type) => modeMatches(mode, type)));
}

/** `*\/*`, `type/*`, exact media types (without parameters, in any case), and short forms: a bare `text` is `text/*`, a bare `json` also matches `application/json` and `+json` types. */
function modeMatches(accepted: string, offered: string): boolean {
  const mode = accepted.split(';')[0].trim().toLowerCase();
  const [offeredType, offeredSubtype = ''] = offered.toLowerCase().split('/');
  if (mode === '' || mode === '*') return true;
  if (!mode.includes('/'))
    return mode === offeredType || mode === offeredSubtype || offeredSubtype.endsWith(`+${mode}`);
  const [type, subtype] = mode.split('/');
  return (type === '*' || type === offeredType) && (subtype === '*' || subtype === offeredSubtype);
}
