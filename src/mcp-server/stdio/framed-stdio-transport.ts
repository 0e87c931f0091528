import type { Readable, Writable } from 'node:stream';
import {
  INVALID_REQUEST,
  type JSONRPCMessage,
  PARSE_ERROR,
  parseJSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';

/** The largest message accepted on stdin; a larger one is skipped and answered with an error. */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;
/** A header block longer than this is not a header block. */
const MAX_HEADER_BYTES = 8 * 1024;
const NEWLINE = 0x0a;
const HEADER_PREFIX = 'content-length:';

export type Framing = 'newline' | 'content-length';

/** What the reader found in the input: one message's text, or a problem to answer with `id: null`. */
export type Frame = { text: string; framing: Framing } | { error: { code: number; message: string }; framing: Framing };

/**
 * Splits stdin into messages: newline-delimited JSON (the MCP stdio binding) or `Content-Length`
 * framed (LSP style), decided per message by whether it starts with a `Content-Length:` header. A
 * message over the cap is never buffered whole: the rest of it is skipped as it arrives.
 */
export class StdioFrameReader {
  private buffer: Buffer = Buffer.alloc(0);
  /** Where the newline search resumes, so a long line is scanned once. */
  private scanned = 0;
  /** Bytes still to skip of an oversized framed message, or `'line'` to skip to the end of an oversized line. */
  private skipping: number | 'line' | undefined;

  constructor(private readonly maxBytes = MAX_STDIO_MESSAGE_BYTES) {}

  push(chunk: Buffer): Frame[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const frames: Frame[] = [];
    for (let frame = this.next(); frame !== 'wait'; frame = this.next()) if (frame) frames.push(frame);
    return frames;
  }

  /** The next frame, `undefined` when bytes were consumed without one, `'wait'` for more input. */
  private next(): Frame | undefined | 'wait' {
    if (this.skipping !== undefined) return this.skip();
    if (this.buffer.length === 0) return 'wait';
    if (this.buffer[0] === NEWLINE || this.buffer[0] === 0x0d || this.buffer[0] === 0x20) {
      this.consume(1);
      return undefined;
    }
    const start = this.buffer.subarray(0, HEADER_PREFIX.length).toString('latin1').toLowerCase();
    if (HEADER_PREFIX.startsWith(start) && start.length < HEADER_PREFIX.length) return 'wait';
    return start === HEADER_PREFIX ? this.framed() : this.line();
  }

  private line(): Frame | 'wait' {
    const end = this.buffer.indexOf(NEWLINE, this.scanned);
    if (end === -1) {
      this.scanned = this.buffer.length;
      if (this.buffer.length <= this.maxBytes) return 'wait';
      this.consume(this.buffer.length);
      this.skipping = 'line';
      return oversized('newline', this.maxBytes);
    }
    const text = this.buffer.subarray(0, end).toString('utf8');
    this.consume(end + 1);
    return end > this.maxBytes
      ? oversized('newline', this.maxBytes)
      : { text: text.replace(/\r$/, ''), framing: 'newline' };
  }

  private framed(): Frame | 'wait' {
    const crlf = this.buffer.indexOf('\r\n\r\n');
    const lf = this.buffer.indexOf('\n\n');
    const [headerEnd, separator] = crlf !== -1 && (lf === -1 || crlf < lf) ? [crlf, 4] : [lf, 2];
    if (headerEnd === -1 || headerEnd > MAX_HEADER_BYTES) {
      if (headerEnd === -1 && this.buffer.length <= MAX_HEADER_BYTES) return 'wait';
      this.skipping = 'line';
      return {
        error: { code: PARSE_ERROR, message: 'Parse error: unterminated Content-Length header' },
        framing: 'content-length',
      };
    }
    const match = /^content-length:\s*(\d+)\s*$/im.exec(this.buffer.subarray(0, headerEnd).toString('latin1'));
    const bodyStart = headerEnd + separator;
    if (!match) {
      this.consume(bodyStart);
      return {
        error: { code: PARSE_ERROR, message: 'Parse error: invalid Content-Length header' },
        framing: 'content-length',
      };
    }
    const length = Number(match[1]);
    if (length > this.maxBytes) {
      this.consume(bodyStart);
      this.skipping = length;
      return oversized('content-length', this.maxBytes);
    }
    if (this.buffer.length < bodyStart + length) return 'wait';
    const text = this.buffer.subarray(bodyStart, bodyStart + length).toString('utf8');
    this.consume(bodyStart + length);
    return { text, framing: 'content-length' };
  }

  private skip(): undefined | 'wait' {
    if (this.skipping === 'line') {
      const end = this.buffer.indexOf(NEWLINE);
      if (end === -1) {
        this.consume(this.buffer.length);
        return 'wait';
      }
      this.consume(end + 1);
      this.skipping = undefined;
      return undefined;
    }
    const skipped = Math.min(this.skipping!, this.buffer.length);
    this.consume(skipped);
    this.skipping = this.skipping! - skipped || undefined;
    return this.skipping === undefined ? undefined : 'wait';
  }

  private consume(bytes: number): void {
    this.buffer = this.buffer.subarray(bytes);
    this.scanned = 0;
  }
}

function oversized(framing: Framing, maxBytes: number): Frame {
  return { error: { code: INVALID_REQUEST, message: `Message too large: the limit is ${maxBytes} bytes` }, framing };
}

/**
 * The MCP stdio transport with our own framing in front (the SDK's own transport closes the whole
 * connection on an oversized message): messages go to `onmessage`, input that is not a message is
 * answered here with a JSON-RPC error (`id: null` unless one can be read), and replies use the
 * framing of the latest input, so an LSP-style client gets `Content-Length` framed answers.
 */
export class FramedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Sees each message before `onmessage` (which the SDK's server owns): for what the host must know of the traffic. */
  observe?: (message: JSONRPCMessage) => void;
  private readonly reader: StdioFrameReader;
  /** Framing of the latest input, for messages that answer nothing in particular. */
  private framing: Framing = 'newline';
  /** Each request is answered in the framing it came in; an entry is a request still to answer. */
  private readonly requestFraming = new Map<RequestId, Framing>();
  /** The client has sent all it will (a script piping requests in): close once every request is answered. */
  private inputEnded = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    maxBytes = MAX_STDIO_MESSAGE_BYTES,
  ) {
    this.reader = new StdioFrameReader(maxBytes);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    // `close` too: a destroyed stdin ends without `end`.
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.on('error', this.onError);
    this.output.on('error', this.onError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const body = JSON.stringify(message);
    const id = 'id' in message && !('method' in message) ? message.id : undefined;
    const framing = (id !== undefined && this.requestFraming.get(id)) || this.framing;
    if (id !== undefined) this.requestFraming.delete(id);
    const data = framing === 'newline' ? `${body}\n` : `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    await new Promise<void>((resolve, reject) =>
      this.output.write(data, (error) => (error ? reject(error) : resolve())),
    );
    this.closeIfDone();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onError);
    this.input.pause();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer): void => {
    for (const frame of this.reader.push(chunk)) {
      this.framing = frame.framing;
      if ('error' in frame) this.answerError(null, frame.error.code, frame.error.message);
      else this.receive(frame.text);
    }
  };

  private receive(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return this.answerError(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`);
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const id = (value as { id?: unknown } | null)?.id;
      return this.answerError(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        INVALID_REQUEST,
        'Invalid Request: not a JSON-RPC 2.0 message',
      );
    }
    if ('id' in message && 'method' in message) this.requestFraming.set(message.id, this.framing);
    // A canceled request gets no answer: it is not waited for.
    if ('method' in message && message.method === 'notifications/cancelled')
      this.requestFraming.delete((message.params as { requestId?: RequestId } | undefined)?.requestId ?? '');
    this.observe?.(message);
    this.onmessage?.(message);
  }

  private answerError(id: string | number | null, code: number, message: string): void {
    this.send({ jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage).catch(this.onError);
  }

  private readonly onEnd = (): void => {
    this.inputEnded = true;
    this.input.off('data', this.onData);
    this.closeIfDone();
  };

  private closeIfDone(): void {
    if (this.inputEnded && this.requestFraming.size === 0) void this.close();
  }
  private readonly onError = (error: Error): void => this.onerror?.(error);
}
