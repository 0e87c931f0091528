/** A URL as it may be shown: `${VAR}`s resolved into its user info or query values would be secrets, so only their names remain. */
export function redactedUrl(href: string): string {
  const url = new URL(href);
  if (url.username || url.password) [url.username, url.password] = ['redacted', ''];
  for (const name of new Set(url.searchParams.keys())) url.searchParams.set(name, '[redacted]');
  return url.href;
}
