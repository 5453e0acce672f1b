import { describe, expect, it } from 'vitest';
import { createFraming } from '../../../src/wire/framing.js';
import { createSseCursor, type SseCursor } from '../../../src/wire/sse-cursor.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const bytes = (text: string): Uint8Array => encoder.encode(text);
const text = (...parts: Uint8Array[]): string => parts.map((p) => decoder.decode(p, { stream: true })).join('') + decoder.decode();

const cursor = (maxMessageBytes = 1 << 20): SseCursor => createSseCursor({ maxMessageBytes });

/** Pushes `chunks` and returns what the cursor handed on, as text. */
function push(c: SseCursor, ...chunks: string[]): string {
  return text(...chunks.map((chunk) => c.push(bytes(chunk))));
}

/** Every way to cut `body` in two, as byte chunks (inside UTF-8 sequences too). */
function cutsOf(body: string): Uint8Array[][] {
  const all = bytes(body);
  return Array.from({ length: all.length + 1 }, (_, i) => [all.subarray(0, i), all.subarray(i)]);
}

/** The SSE documents a byte stream frames to, as the decoder's framing reads them. */
function documents(parts: Uint8Array[]): string[] {
  const docs: string[] = [];
  const framing = createFraming({ format: 'sse', maxLineBytes: 1 << 20, onDocument: (d) => void docs.push(d), onTooLong: () => {} });
  for (const part of parts) framing.push(part);
  framing.end();
  return docs;
}

describe('SSE cursor: the last event id', () => {
  it('is the id of the last message dispatched, not of the message in progress', () => {
    const c = cursor();
    push(c, 'id: 1\ndata: a\n\n');
    expect(c.lastEventId).toBe('1');
    push(c, 'id: 2\ndata: b\n');
    expect(c.lastEventId).toBe('1');
    push(c, '\n');
    expect(c.lastEventId).toBe('2');
  });

  it('carries over messages without an id, and a message with only an id sets it', () => {
    const c = cursor();
    push(c, 'id: 7\ndata: a\n\ndata: b\n\n');
    expect(c.lastEventId).toBe('7');
    push(c, 'id: 8\n\n');
    expect(c.lastEventId).toBe('8');
  });

  it('ignores an id with U+0000, and an empty id (with or without colon) resets it', () => {
    const c = cursor();
    push(c, 'id: 1\ndata: a\n\nid: x\0y\ndata: b\n\n');
    expect(c.lastEventId).toBe('1');
    push(c, 'id:\ndata: c\n\n');
    expect(c.lastEventId).toBe('');
    push(c, 'id: 2\n\nid\ndata: d\n\n');
    expect(c.lastEventId).toBe('');
  });

  it('removes one leading space of the value, keeps the rest verbatim, and reads UTF-8 ids', () => {
    const c = cursor();
    push(c, 'id:  two spaces \n\n');
    expect(c.lastEventId).toBe(' two spaces ');
    push(c, 'id:x\n\n');
    expect(c.lastEventId).toBe('x');
    push(c, 'id: 🙂-é\n\n');
    expect(c.lastEventId).toBe('🙂-é');
  });

  it('reads only the field named exactly id: idx, ID and comments are other lines', () => {
    const c = cursor();
    push(c, 'id: 1\n\nidx: 2\nID: 3\n: id: 4\ndata: id: 5\n\n');
    expect(c.lastEventId).toBe('1');
  });

  it('reads the same ids and hands on the same bytes however the stream is cut', () => {
    const body = 'retry: 50\r\nid: 1\r\ndata: {"a": "é"}\r\n\r\nid: 2\rdata: b\r\rid: 🙂\ndata: c\n\ndata: half';
    const whole = cursor();
    const wholeOut = text(whole.push(bytes(body)));
    expect(whole.lastEventId).toBe('🙂');
    for (const chunks of cutsOf(body)) {
      const c = cursor();
      const out = text(...chunks.map((chunk) => c.push(chunk)));
      expect([out, c.lastEventId, c.retry], JSON.stringify(chunks.map((ch) => text(ch)))).toEqual([wholeOut, '🙂', 50]);
    }
  });
});

describe('SSE cursor: retry', () => {
  it('takes ASCII digits only, at once, and keeps the last valid one', () => {
    const c = cursor();
    expect(c.retry).toBeUndefined();
    push(c, 'retry: 250\n');
    expect(c.retry).toBe(250);
    push(c, 'retry: 1x\nretry:\nretry: -5\nretry: ١٢\nretry\n\n');
    expect(c.retry).toBe(250);
    push(c, 'retry:0\n\n');
    expect(c.retry).toBe(0);
  });
});

describe('SSE cursor: what it hands on', () => {
  it('hands every byte on as it comes until an id is dispatched, then whole messages only', () => {
    const c = cursor();
    expect(push(c, ': hello\n\nretry: 10\n\n: b')).toBe(': hello\n\nretry: 10\n\n: b');
    expect(push(c, '\n\nid: 1\ndata: c\n\nid: 2\ndata: d')).toBe('\n\nid: 1\ndata: c\n\n');
    expect(c.resumable).toBe(true);
    expect(push(c, '\n\ndata: e\n')).toBe('id: 2\ndata: d\n\n');
    expect(push(c, '\n')).toBe('data: e\n\n');
  });

  it('hands on bytes the framing reads as the same documents, however the stream is cut', () => {
    const body = 'id: 1\ndata: {"t": "é"}\n\n: comment\nid: 2\r\ndata: x\r\ndata: y\r\n\r\nevent: e\nid: 3\rdata: 🙂\r\r';
    const want = documents([bytes(body)]);
    expect(want).toEqual(['{"t": "é"}', 'x\ny', '🙂']);
    for (const chunks of cutsOf(body)) {
      const c = cursor();
      expect(documents(chunks.map((chunk) => c.push(chunk)))).toEqual(want);
    }
  });

  it('hands an over-long message on as it comes, and a drop inside it cannot be resumed', () => {
    const c = cursor(10);
    push(c, 'id: 1\n\n');
    expect(push(c, 'data: 01234')).toBe('data: 01234');
    expect(c.resumable).toBe(false);
    expect(push(c, '56789\n\n')).toBe('56789\n\n');
    expect(c.resumable).toBe(true);
    expect(push(c, 'data: 1')).toBe('');
  });
});

describe('SSE cursor: the end of a connection', () => {
  it('dispatches a message whose blank line is all that is missing, handing it on with one', () => {
    for (const ending of ['\n', '\r', '\r\n']) {
      const c = cursor();
      push(c, 'id: 1\n\n');
      expect(push(c, `id: 2${ending}data: last${ending}`)).toBe('');
      const end = c.end();
      expect(end.cut).toBe(false);
      expect(c.lastEventId).toBe('2');
      expect(documents([bytes('id: 1\n\n'), end.bytes])).toEqual(['last']);
    }
  });

  it('reports a message cut inside a line, with its bytes', () => {
    const c = cursor();
    push(c, 'id: 1\n\nid: 2\ndata: {"cut');
    const end = c.end();
    expect(end.cut).toBe(true);
    expect(text(end.bytes)).toBe('id: 2\ndata: {"cut');
    expect(c.lastEventId).toBe('1');
  });

  it('reads no further once the first event came without an id: such a stream is never resumed', () => {
    const c = cursor();
    expect(push(c, 'data: a\n\nid: 1\ndata: b\n\n')).toBe('data: a\n\nid: 1\ndata: b\n\n');
    expect(push(c, 'id: 2\ndata: c')).toBe('id: 2\ndata: c');
    expect(c.resumable).toBe(false);
    expect(c.lastEventId).toBe('');
    expect(c.end()).toEqual({ bytes: new Uint8Array(0), cut: false });
    // a data line cut across chunks counts as well
    const d = cursor();
    push(d, 'da');
    push(d, 'ta: a\n\n');
    expect(push(d, 'id: 1\ndata: b\n\n')).toBe('id: 1\ndata: b\n\n');
    expect(d.resumable).toBe(false);
  });

  it('has nothing to hand on at a message boundary, and nothing held before any id', () => {
    const c = cursor();
    push(c, ': a\n\ndata: b');
    expect(c.end()).toEqual({ bytes: new Uint8Array(0), cut: true });
    const d = cursor();
    push(d, 'id: 1\ndata: a\n\n');
    expect(d.end()).toEqual({ bytes: new Uint8Array(0), cut: false });
  });
});

describe('SSE cursor: a new connection', () => {
  it('drops the message in progress and carries the last event id on', () => {
    const c = cursor();
    push(c, 'id: 1\ndata: a\n\nid: 2\ndata: {"half');
    c.reconnect();
    expect(c.lastEventId).toBe('1');
    expect(push(c, 'id: 2\ndata: b\n\n')).toBe('id: 2\ndata: b\n\n');
    expect(c.lastEventId).toBe('2');
  });

  it('drops an LF left of a CRLF cut by the drop and a byte order mark at the start, even split', () => {
    const c = cursor();
    push(c, 'id: 1\ndata: a\r');
    c.reconnect();
    const bom = bytes('\uFEFFid: 2\ndata: b\n\n');
    expect(text(c.push(bom.subarray(0, 1)), c.push(bom.subarray(1, 2)), c.push(bom.subarray(2)))).toBe('id: 2\ndata: b\n\n');
    expect(c.lastEventId).toBe('2');
  });

  it('takes a new connection whose first id is neither the first nor the last as resumed', () => {
    const c = cursor();
    push(c, 'id: a\ndata: 1\n\nid: b\ndata: 2\n\nid: c\ndata: 3\n\n');
    c.reconnect();
    // (a replay from the middle is not told apart: ids are taken as unique positions)
    expect(push(c, 'id: b\ndata: 2\n\nid: d\ndata: 4\n\n')).toBe('id: b\ndata: 2\n\nid: d\ndata: 4\n\n');
  });

  it('a message without an id at the start of a new connection counts as new', () => {
    const c = cursor();
    push(c, 'id: 1\ndata: a\n\n');
    c.reconnect();
    expect(push(c, 'data: b\n\nid: 2\ndata: c\n\n')).toBe('data: b\n\nid: 2\ndata: c\n\n');
  });

  it('leaves out a replay from the start, up to and including the Last-Event-ID message', () => {
    const c = cursor();
    push(c, 'id: 1\ndata: a\n\ndata: a2\n\nid: 2\ndata: b\n\nid: 3\ndata: {"cut');
    c.reconnect();
    // a server that ignores Last-Event-ID: the whole run again
    const out = push(c, 'id: 1\ndata: a\n\ndata: a2\n\nid: 2\ndata: b\n\nid: 3\ndata: c\n\ndata: c2\n\nid: 2\ndata: later\n\n');
    expect(out).toBe('id: 3\ndata: c\n\ndata: c2\n\nid: 2\ndata: later\n\n');
    expect(c.lastEventId).toBe('2');
  });

  it('leaves out the Last-Event-ID message sent again, keeping the last event id', () => {
    const c = cursor();
    push(c, 'id: 1\ndata: a\n\nid: 2\ndata: b\n\n');
    c.reconnect();
    // an off-by-one server: the Last-Event-ID message again, then the drop
    expect(push(c, 'id: 2\ndata: b\n\nid: 3\ndata: {"cut')).toBe('');
    expect(c.lastEventId).toBe('2');
    expect(c.progressed).toBe(false);
  });

  it('progresses only with a message with an id', () => {
    const c = cursor();
    push(c, 'id: 1\ndata: a\n\n');
    c.reconnect();
    expect(c.progressed).toBe(false);
    push(c, ': keep-alive\n\ndata: x\n\n');
    expect(c.progressed).toBe(false);
    push(c, 'id: 2\ndata: b\n\n');
    expect(c.progressed).toBe(true);
  });
});
