import { StdioFrameReader } from './framed-stdio-transport';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const framed = (body: string, separator = '\r\n\r\n') =>
  `Content-Length: ${Buffer.byteLength(body)}${separator}${body}`;

describe('StdioFrameReader', () => {
  it('splits newline-delimited messages, across chunks and several per chunk, dropping a CR', () => {
    const reader = new StdioFrameReader(100);
    expect(reader.push(bytes('{"a":1}\n{"b"'))).toEqual([{ text: '{"a":1}', framing: 'newline' }]);
    expect(reader.push(bytes(':2}\r\n\n{"c":3}\n'))).toEqual([
      { text: '{"b":2}', framing: 'newline' },
      { text: '{"c":3}', framing: 'newline' },
    ]);
  });

  it('reads Content-Length framed messages by bytes, with CRLF or LF separators, split anywhere', () => {
    const reader = new StdioFrameReader(100);
    const input = bytes(framed('{"é":"ü"}') + framed('{"x":1}', '\n\n'));
    const frames = [...input].flatMap((byte) => reader.push(Buffer.from([byte])));
    expect(frames).toEqual([
      { text: '{"é":"ü"}', framing: 'content-length' },
      { text: '{"x":1}', framing: 'content-length' },
    ]);
  });

  it('answers an oversized framed message once, skips its body as it arrives, and reads the next', () => {
    const reader = new StdioFrameReader(10);
    const body = 'x'.repeat(25);
    expect(reader.push(bytes(`Content-Length: 25\r\n\r\n${body.slice(0, 5)}`))).toEqual([
      { error: { code: -32600, message: 'Message too large: the limit is 10 bytes' }, framing: 'content-length' },
    ]);
    expect(reader.push(bytes(body.slice(5)))).toEqual([]);
    expect(reader.push(bytes('{"ok":1}\n'))).toEqual([{ text: '{"ok":1}', framing: 'newline' }]);
  });

  it('answers an oversized line once, without holding it, and reads the next', () => {
    const reader = new StdioFrameReader(10);
    expect(reader.push(bytes('y'.repeat(11)))).toEqual([
      { error: { code: -32600, message: 'Message too large: the limit is 10 bytes' }, framing: 'newline' },
    ]);
    expect(reader.push(bytes('y'.repeat(50)))).toEqual([]);
    expect(reader.push(bytes('yy\n{"ok":2}\n'))).toEqual([{ text: '{"ok":2}', framing: 'newline' }]);
  });

  it('refuses a Content-Length header that is not a number, and goes on', () => {
    const reader = new StdioFrameReader(100);
    expect(reader.push(bytes('Content-Length: lots\r\n\r\n{"ok":3}\n'))).toEqual([
      { error: { code: -32700, message: 'Parse error: invalid Content-Length header' }, framing: 'content-length' },
      { text: '{"ok":3}', framing: 'newline' },
    ]);
  });
});
