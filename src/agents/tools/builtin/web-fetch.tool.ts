import { TextDecoder } from 'node:util';
import { createGuardedFetch } from '../../../security/guarded-fetch';
import { OutboundUrlBlockedError, type OutboundUrlPolicy } from '../../../security/outbound-url-policy';
import { failure, truncated } from '../tool-limits';
import type { ToolDefinition, ToolResult } from '../tool-provider.interface';
import type { BuiltinTool } from './builtin-tool.interface';
import { htmlToText } from './html-to-text';

export const WEB_FETCH_MAX_BYTES = 1_000_000;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

type BoundedBody = { text: string; cut: boolean };

/** `web_fetch`: GET a page under the SSRF rules and hand the model its text. */
export class WebFetchTool implements BuiltinTool {
  readonly definition: ToolDefinition = {
    name: 'web_fetch',
    description:
      'Fetch a web page or API resource with HTTP GET and return its text: HTML as plain text, JSON and text as they are. ' +
      `At most ${WEB_FETCH_MAX_BYTES} bytes are read.`,
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The http:// or https:// URL to fetch.' },
        max_chars: { type: 'integer', minimum: 1, description: 'Return at most this many characters of text.' },
      },
      required: ['url'],
      additionalProperties: false,
    },
  };
  private readonly fetch: typeof fetch;

  constructor(policy: OutboundUrlPolicy) {
    this.fetch = createGuardedFetch(policy);
  }

  async call(args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const { url, max_chars: maxChars } = args;
    if (typeof url !== 'string' || !URL.canParse(url))
      return failure('web_fetch needs "url": an http:// or https:// URL.');
    if (maxChars !== undefined && !(Number.isInteger(maxChars) && (maxChars as number) > 0)) {
      return failure('web_fetch: "max_chars" must be a positive integer.');
    }
    try {
      const response = await this.get(url, signal);
      const type = response.headers.get('content-type')?.split(';')[0].trim().toLowerCase() ?? '';
      const render = renderer(type);
      if (!response.ok || !render) await response.body?.cancel();
      if (!response.ok)
        return failure(
          `${url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`,
        );
      if (!render)
        return failure(
          `${url} is ${type ? `of type ${type}` : 'of no declared type'}; web_fetch only reads HTML, JSON and text.`,
        );
      const body = await readBounded(response);
      const text =
        render(body.text) + (body.cut ? `\n[truncated: only the first ${WEB_FETCH_MAX_BYTES} bytes were read]` : '');
      return { text: maxChars === undefined ? text : truncated(text, maxChars as number), isError: false };
    } catch (error) {
      if (error instanceof OutboundUrlBlockedError) return failure(`Refused: ${error.message}`);
      if (signal.aborted || !(error instanceof TypeError && error.cause instanceof Error)) throw error;
      // undici's "fetch failed" says nothing; its cause says what (refused, reset, DNS...).
      throw new Error(`${url} could not be fetched: ${error.cause.message}`, { cause: error });
    }
  }

  /** GET that follows at most MAX_REDIRECTS redirects, each hop passing the SSRF check again. */
  private async get(url: string, signal: AbortSignal): Promise<Response> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const response = await this.fetch(target, { redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (!REDIRECT_STATUSES.has(response.status) || !location) return response;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw new Error(`${url} redirected more than ${MAX_REDIRECTS} times`);
      target = new URL(location, target).href;
    }
  }
}

function renderer(type: string): ((body: string) => string) | undefined {
  if (type === 'text/html' || type === 'application/xhtml+xml') return htmlToText;
  if (type.startsWith('text/') || /^application\/(.+\+)?(json|xml)$/.test(type)) return (body) => body;
  return undefined;
}

/** The body's text, reading no more than WEB_FETCH_MAX_BYTES, in the declared charset (UTF-8 if none or unknown). */
async function readBounded(response: Response): Promise<BoundedBody> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  while (reader && size <= WEB_FETCH_MAX_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value.subarray(0, WEB_FETCH_MAX_BYTES - size));
    size += value.byteLength;
  }
  const cut = size > WEB_FETCH_MAX_BYTES;
  if (cut) await reader?.cancel();
  return { text: decoder(response.headers.get('content-type')).decode(Buffer.concat(chunks)), cut };
}

function decoder(contentType: string | null): TextDecoder {
  const charset = /charset="?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}
