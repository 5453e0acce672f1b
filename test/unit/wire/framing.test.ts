import { describe, expect, it } from 'vitest';
import { createFraming, createLineSplitter, sniffFormat, utf8Length, type WireFormat } from '../../../src/wire/framing.js';
import type { WireDecodeError } from '../../../src/index.js';
import { decodeChunks, rpc, utf8 } from './decode-helpers.js';

function split(chunks: string[], maxLineBytes = 1 << 20) {
  const lines: Array<[number, string]> = [];
  const tooLong: Array<[number, string]> = [];
  const splitter = createLineSplitter({
    maxLineBytes,
    onLine: (text, start, end, n) => void lines.push([n, text.slice(start, end)]),
    onTooLong: (n, head) => void tooLong.push([n, head]),
  });
  for (const c of chunks) splitter.push(c);
  splitter.end();
  return { lines, tooLong };
}

function frame(chunks: Array<string | Uint8Array>, format: WireFormat | 'auto' = 'auto', maxLineBytes = 1 << 20) {
  const docs: Array<[number, string]> = [];
  const errors: WireDecodeError[] = [];
  const framing = createFraming({
    format,
    maxLineBytes,
    onDocument: (text, n) => void docs.push([n, text]),
    onTooLong: (err) => void errors.push(err),
  });
  for (const c of chunks) framing.push(c);
  framing.end();
  return { docs, errors, format: framing.format };
}

/** Every way to cut `text` in two. */
const cuts = (text: string): string[][] => Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);

describe('line splitter', () => {
  it('splits on LF, CRLF and lone CR, numbering lines from 1', () => {
    const want = [[1, 'a'], [2, 'b'], [3, 'c'], [4, ''], [5, 'd']];
    for (const chunks of cuts('a\nb\r\nc\r\rd')) expect(split(chunks).lines, JSON.stringify(chunks)).toEqual(want);
  });

  it('treats a CRLF split across two chunks as one terminator', () => {
    expect(split(['a\r', '\nb\r', '', '\nc']).lines).toEqual([[1, 'a'], [2, 'b'], [3, 'c']]);
  });

  it('emits a last line without a terminator at end', () => {
    expect(split(['x\ny']).lines).toEqual([[1, 'x'], [2, 'y']]);
    expect(split(['x\n']).lines).toEqual([[1, 'x']]);
  });

  it('joins a line pushed one character at a time', () => {
    const line = 'é'.repeat(50) + '😀';
    expect(split([...(line + '\n' + line)]).lines).toEqual([[1, line], [2, line]]);
  });

  it('reports an over-long line as soon as it is known, before its end arrives', () => {
    const tooLong: number[] = [];
    const lines: string[] = [];
    const splitter = createLineSplitter({ maxLineBytes: 10, onLine: (t, s, e) => void lines.push(t.slice(s, e)), onTooLong: (n) => void tooLong.push(n) });
    splitter.push('ok\n0123456');
    expect(tooLong).toEqual([]);
    splitter.push('789ab');
    expect(tooLong).toEqual([2]);
    splitter.push('cdef'.repeat(1000));
    splitter.push('\nnext\n');
    splitter.end();
    expect(tooLong).toEqual([2]);
    expect(lines).toEqual(['ok', 'next']);
  });

  it('counts maxLineBytes in UTF-8 bytes', () => {
    const euro = '€'.repeat(10); // 30 bytes, 10 UTF-16 units
    expect(split([euro + '\n'], 30).lines).toEqual([[1, euro]]);
    expect(split([euro + '\n'], 29).tooLong).toEqual([[1, euro]]);
    // the same across chunks
    expect(split([...euro, '\n'], 29).tooLong.map(([n]) => n)).toEqual([1]);
    expect(split([...euro, '\n'], 30).lines).toEqual([[1, euro]]);
    expect(utf8Length('a€😀\ud800')).toBe(1 + 3 + 4 + 3);
  });

  it('drops an over-long last line at end and keeps counting lines after one', () => {
    expect(split(['1234567890123', '\nok\n', 'x'.repeat(20)], 10)).toEqual({
      lines: [[2, 'ok']],
      tooLong: [
        [1, '1234567890123'],
        [3, 'x'.repeat(20)],
      ],
    });
  });
});

describe('NDJSON framing', () => {
  it('decodes a line split inside a UTF-8 sequence at every byte', () => {
    const line = rpc('TextDelta', { text: '日本語 😀 ü' });
    const bytes = utf8(line + '\n');
    for (let i = 1; i < bytes.length; i++) {
      expect(frame([bytes.subarray(0, i), bytes.subarray(i)]).docs).toEqual([[1, line]]);
    }
  });

  it('decodes bytes cut anywhere exactly as one TextDecoder over the whole body, malformed sequences included', () => {
    // 2-, 3- and 4-byte characters, then malformed bytes: a lone continuation, cut sequences, bytes no
    // sequence starts with, an overlong and a surrogate encoding
    const malformed = [0x80, 0x41, 0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98, 0x41, 0xf8, 0xff, 0xc0, 0xaf, 0xe0, 0x80, 0x80, 0xed, 0xa0, 0x80];
    const body = new Uint8Array([...utf8('ü€😀 "日本語"\nx 😀😀\n'), ...malformed, ...utf8('\nend é\n')]);
    const want = new TextDecoder()
      .decode(body)
      .split('\n')
      .flatMap((text, i) => (text === '' ? [] : [[i + 1, text]]));
    expect(want.length).toBe(4);
    let seed = 7;
    const random = (n: number): number => ((seed = (seed * 16807) % 2147483647) % n) + 0;
    for (let round = 0; round < 300; round++) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < body.length; ) {
        const size = round % 3 === 0 ? 1 + random(3) : random(9); // empty chunks too
        chunks.push(body.subarray(at, at + size));
        at += size;
      }
      expect(frame(chunks, 'ndjson').docs, chunks.map((c) => c.length).join(',')).toEqual(want);
    }
  });

  it('streams through TextDecoder only the chunks that may end inside a UTF-8 sequence, and those after them', () => {
    // Node decodes a whole buffer natively, and every call of a decoder that ever streamed through ICU
    const calls: boolean[] = [];
    const decode = TextDecoder.prototype.decode;
    TextDecoder.prototype.decode = function (this: TextDecoder, input, options) {
      calls.push(options?.stream === true);
      return decode.call(this, input, options);
    };
    try {
      const body = utf8(`${rpc('TextDelta', { text: 'a€b' })}\n`.repeat(3));
      const euro = body.indexOf(0xe2);
      // ASCII end, cut inside €, ASCII end (a sequence was held), ASCII end, ASCII end
      const cuts = [0, euro - 2, euro + 1, euro + 8, euro + 30, body.length];
      const docs = frame(cuts.slice(1).map((end, i) => body.subarray(cuts[i], end)), 'ndjson').docs;
      expect(docs.map(([, text]) => text)).toEqual(new TextDecoder().decode(body).trimEnd().split('\n'));
      expect(calls.slice(0, 5)).toEqual([false, true, true, false, false]);
    } finally {
      TextDecoder.prototype.decode = decode;
    }
  });

  it('strips one leading BOM, as TextDecoder does, and keeps a second one', () => {
    const bytes = utf8('\uFEFF\uFEFF{}\n');
    expect(new TextDecoder().decode(bytes)).toBe('\uFEFF{}\n');
    expect(frame([bytes], 'ndjson').docs).toEqual([[1, '\uFEFF{}']]);
    expect(frame([bytes.subarray(0, 2), bytes.subarray(2, 4), bytes.subarray(4)], 'ndjson').docs).toEqual([[1, '\uFEFF{}']]);
  });

  it('strips a leading BOM, also when its bytes arrive one at a time, and as text', () => {
    const line = rpc('TextDelta', { text: 'x' });
    const bytes = utf8('\uFEFF' + line);
    expect(bytes[0]).toBe(0xef);
    expect(frame([bytes]).docs).toEqual([[1, line]]);
    expect(frame([...bytes].map((b) => new Uint8Array([b]))).docs).toEqual([[1, line]]);
    expect(frame(['\uFEFF' + line]).docs).toEqual([[1, line]]);
    expect(frame(['', '\uFEFF', line]).docs).toEqual([[1, line]]);
  });

  it('skips blank and whitespace-only lines but keeps physical line numbers', () => {
    expect(frame(['\n  \n{"a":1}\r\n\t\r\n{"b":2}']).docs).toEqual([
      [3, '{"a":1}'],
      [5, '{"b":2}'],
    ]);
  });

  it('gives line-too-long errors the line number and the cut head of the line', () => {
    const { docs, errors } = frame(['{"a":1}\n{"b":"' + 'z'.repeat(300) + '"}\n{"c":3}\n'], 'ndjson', 64);
    expect(docs).toEqual([[1, '{"a":1}'], [3, '{"c":3}']]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ reason: 'line-too-long', lineNumber: 2, code: 'decode' });
    expect(errors[0]!.line.startsWith('{"b":"zzz')).toBe(true);
    expect(errors[0]!.line.length).toBeLessThanOrEqual(200);
  });
});

describe('SSE framing', () => {
  const doc = rpc('TextDelta', { text: 'hi' });

  it('yields each message\'s data, ignoring event, id, retry and comments', () => {
    const body = `: keep-alive\nevent: message\nid: 7\nretry: 1000\ndata: ${doc}\n\n: ping\n\ndata: ${doc}\n\n`;
    for (const chunks of cuts(body)) {
      expect(frame(chunks).docs, JSON.stringify(chunks)).toEqual([[1, doc], [2, doc]]);
    }
  });

  it('joins multi-line data with newlines', () => {
    const body = 'data: {"jsonrpc": "2.0",\ndata:  "method": "TextDelta",\ndata: "params": {"text": "a"}}\n\n';
    const { docs } = frame([body]);
    expect(docs).toEqual([[1, '{"jsonrpc": "2.0",\n "method": "TextDelta",\n"params": {"text": "a"}}']]);
    expect(JSON.parse(docs[0]![1])).toEqual({ jsonrpc: '2.0', method: 'TextDelta', params: { text: 'a' } });
  });

  it('handles CRLF and lone CR, also split across chunks', () => {
    for (const body of [`data: ${doc}\r\n\r\ndata: ${doc}\r\n\r\n`, `data: ${doc}\r\rdata: ${doc}\r\r`]) {
      for (const chunks of cuts(body)) expect(frame(chunks).docs, JSON.stringify(chunks)).toEqual([[1, doc], [2, doc]]);
    }
  });

  it('ignores data: [DONE] and empty data', () => {
    expect(frame([`data: ${doc}\n\ndata:\n\ndata: [DONE]\n\n`]).docs).toEqual([[1, doc]]);
  });

  it('does not count comment-only blocks against maxLineBytes', () => {
    const pings = ': ping\n\n'.repeat(50);
    const { docs, errors } = frame([pings + `data: ${doc}\n\n`], 'sse', 100);
    expect(errors).toEqual([]);
    expect(docs).toEqual([[1, doc]]);
  });

  it('decodes a last message whose blank line never came', () => {
    expect(frame([`data: ${doc}\n\ndata: ${doc}`]).docs).toEqual([[1, doc], [2, doc]]);
  });

  it('drops a message over maxLineBytes with line-too-long and its message number, then goes on', () => {
    const big = 'data: ' + 'x'.repeat(100) + '\n';
    const { docs, errors } = frame([`data: ${doc}\n\n${big}${big}\n`, `data: ${doc}\n\n`], 'sse', 150);
    expect(docs).toEqual([[1, doc], [3, doc]]);
    expect(errors.map((e) => [e.reason, e.lineNumber])).toEqual([['line-too-long', 2]]);
  });

  it('drops a message holding one over-long line', () => {
    const { docs, errors } = frame([`data: ${'y'.repeat(500)}\n\ndata: ${doc}\n\n`], 'sse', 100);
    expect(docs).toEqual([[2, doc]]);
    expect(errors.map((e) => e.lineNumber)).toEqual([1]);
  });

  it('reports bad SSE data with its message number through the decoder', () => {
    const out = decodeChunks([`data: ${doc}\n\ndata: {oops\n\ndata: ${doc}\n\n`]);
    expect(out.errors.map((e) => [e.reason, e.lineNumber])).toEqual([['invalid-json', 2]]);
    expect(out.events.filter((e) => e.method === 'TextDelta')).toHaveLength(2);
  });
});

describe('format sniffing', () => {
  it('tells NDJSON from SSE by the first non-whitespace bytes', () => {
    expect(sniffFormat('{"jsonrpc"')).toBe('ndjson');
    expect(sniffFormat('[1]')).toBe('ndjson');
    expect(sniffFormat('<!doctype')).toBe('ndjson');
    expect(sniffFormat(': comment')).toBe('sse');
    expect(sniffFormat('data: {')).toBe('sse');
    expect(sniffFormat('event: x')).toBe('sse');
    expect(sniffFormat('id: 1')).toBe('sse');
    expect(sniffFormat('retry: 10')).toBe('sse');
    expect(sniffFormat('dat')).toBeUndefined();
    expect(sniffFormat('')).toBeUndefined();
    expect(sniffFormat('database')).toBe('ndjson');
  });

  it('sniffs SSE after leading blank lines and across chunk cuts', () => {
    const body = `\r\n\n  data: ${rpc('TextDelta', { text: 'a' })}\n\n`;
    for (const chunks of cuts(body)) expect(frame(chunks).format, JSON.stringify(chunks)).toBe('sse');
  });

  it('decodes the same events from NDJSON and from SSE', () => {
    const lines = [rpc('RunBegin', { user_input: 'q' }), rpc('TextDelta', { text: 'a' }), rpc('RunEnd', { content: 'a', tool_calls: [], reasoning_content: '', usage: null })];
    const ndjson = decodeChunks([lines.join('\n')]);
    const sse = decodeChunks([lines.map((l) => `data: ${l}\n\n`).join('')]);
    expect(sse.events).toEqual(ndjson.events);
    expect(sse.events).toHaveLength(3);
  });

  it('obeys a forced format', () => {
    const sseBody = `data: ${rpc('TextDelta', { text: 'a' })}\n\n`;
    expect(frame([sseBody], 'ndjson').docs).toEqual([[1, sseBody.trim()]]);
    expect(frame([rpc('TextDelta', { text: 'a' }) + '\n'], 'sse').docs).toEqual([]);
    expect(decodeChunks([sseBody], { format: 'ndjson' }).errors.map((e) => e.reason)).toEqual(['invalid-json']);
  });

  it('treats an undecidable short body as NDJSON at end', () => {
    expect(frame(['da']).format).toBe('ndjson');
  });
});

describe('leading whitespace before the format is known', () => {
  /**
   * Runs `body` with `String.prototype.charCodeAt` counted. A run of calls on strings of one length is
   * charged that length once: reading a string built by concatenation costs its whole length (V8
   * flattens it), so re-reading a growing buffer on every chunk shows up here as quadratic work.
   */
  function countTouches(body: () => void): { touched: number; longest: number } {
    const original = String.prototype.charCodeAt;
    let touched = 0;
    let longest = 0;
    let lastLength = -1;
    String.prototype.charCodeAt = function (this: string, index: number): number {
      const { length } = this;
      if (length !== lastLength) {
        touched += length;
        lastLength = length;
        if (length > longest) longest = length;
      }
      return original.call(this, index);
    };
    try {
      body();
    } finally {
      String.prototype.charCodeAt = original;
    }
    return { touched, longest };
  }

  it('scans each character of 1 MiB of leading blank lines in 16 KiB pieces a constant number of times', () => {
    const piece = (' '.repeat(63) + '\n').repeat(256); // 16 KiB
    const pieces = 64;
    const docs: Array<[number, string]> = [];
    const { touched, longest } = countTouches(() => {
      const framing = createFraming({
        format: 'auto',
        maxLineBytes: 16 * 1024 * 1024,
        onDocument: (text, n) => void docs.push([n, text]),
        onTooLong: () => undefined,
      });
      for (let i = 0; i < pieces; i++) framing.push(piece);
      framing.push('{"a":1}\n');
      framing.end();
    });
    const total = piece.length * pieces;
    expect(longest).toBeLessThanOrEqual(piece.length);
    expect(touched).toBeLessThan(4 * total);
    expect(docs).toEqual([[pieces * 256 + 1, '{"a":1}']]);
  });

  it('decides NDJSON once more than maxLineBytes of whitespace is held, keeping line numbers', () => {
    const docs: Array<[number, string]> = [];
    const framing = createFraming({
      format: 'auto',
      maxLineBytes: 1024,
      onDocument: (text, n) => void docs.push([n, text]),
      onTooLong: () => undefined,
    });
    for (let i = 0; i < 8; i++) framing.push('\r\n'.repeat(50) + ' \t\n'.repeat(50)); // 250 units, 100 lines
    expect(framing.format).toBe('ndjson');
    framing.push(rpc('TextDelta', { text: 'a' }) + '\n');
    framing.end();
    expect(docs).toEqual([[801, rpc('TextDelta', { text: 'a' })]]);
  });

  it('reports an over-long line of leading spaces as line-too-long once the cap decides NDJSON', () => {
    const { docs, errors, format } = frame([' '.repeat(600), ' '.repeat(600), '\n{"a":1}\n'], 'auto', 1000);
    expect(format).toBe('ndjson');
    expect(errors.map((e) => [e.reason, e.lineNumber])).toEqual([['line-too-long', 1]]);
    expect(docs).toEqual([[2, '{"a":1}']]);
  });

  it('still sniffs SSE after leading blank lines within the cap, with pieces cut anywhere', () => {
    const body = '\n'.repeat(40) + `data: ${rpc('TextDelta', { text: 'a' })}\n\n`;
    const pieces = body.match(/[^]{1,7}/g)!;
    const { docs, format } = frame(pieces, 'auto', 1000);
    expect(format).toBe('sse');
    expect(docs).toEqual([[1, rpc('TextDelta', { text: 'a' })]]);
  });
});
