/** A URL as it may be shown: `${VAR}`s resolved into its user info or query values would be secrets, so only their names remain. */
export function redactedUrl(href: string): string {
  const url = new URL(href);
  if (url.username || url.password) [url.username, url.password] = ['redacted', ''];
  for (const name of new Set(url.searchParams.keys())) url.searchParams.set(name, '[redacted]');
  return url.href;
}

/** Anything written as an absolute URL in free text (a log line, a command's argument). */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/** `text` with each URL in it as redactedUrl shows it; what does not parse as a URL stays as it is. */
export function withUrlsRedacted(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => {
    try {
      return redactedUrl(url);
    } catch {
      return url;
    }
  });
}
