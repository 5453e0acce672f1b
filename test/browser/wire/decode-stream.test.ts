import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createWireDecoder,
  decodeWireStream,
  type UnknownEvent,
  type WireEvent,
} from '../../../src/index.js';
import textCapture from '../../fixtures/pagent/text.ndjson?raw';
import toolCapture from '../../fixtures/pagent/tool_stream.ndjson?raw';
import unicodeCapture from '../../fixtures/pagent/unicode.ndjson?raw';
import v4MaxTurns from '../../fixtures/pagentv4/max_turns.ndjson?raw';
import { randomPieces } from '../../helpers/random.js';

const encoder = new TextEncoder();
const rpc = (method: string, params: Record<string, unknown>): string => JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n';
const EMPTY_STEP = { content: '', tool_calls: [], reasoning_content: '', usage: null };

/** The events the lines of a pagent capture spell. */
const eventsOfLines = (text: string): unknown[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const { method, params } = JSON.parse(l) as { method: string; params: unknown };
      return { method, params };
    });

/** A body in small chunks of pseudo-random sizes (1–17 bytes), so lines and UTF-8 sequences get cut. */
function chunkedBody(text: string, seed = 7): ReadableStream<Uint8Array> {
  const pieces = randomPieces(encoder.encode(text), 17, seed);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces.shift();
      if (piece) controller.enqueue(piece);
      else controller.close();
    },
  });
}

/** A body the test writes to by hand; records the reason of a cancel. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: (reason) => void cancelled.push(reason ?? 'cancelled'),
  });
  return {
    stream,
    cancelled,
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    error: (err: unknown) => controller.error(err),
  };
}

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('decodeWireStream', () => {
  for (const [name, capture] of [
    ['text', textCapture],
    ['tool_stream', toolCapture],
    ['unicode', unicodeCapture],
  ] as const) {
    it(`decodes the pagent ${name} capture in random small chunks to the events its lines spell`, async () => {
      for (const seed of [1, 2, 3]) {
        expect(await collect(decodeWireStream(chunkedBody(capture, seed)))).toEqual(eventsOfLines(capture));
      }
    });
  }

  it('gives the same events as the push decoder for a pagentv4 capture', async () => {
    const pushed: WireEvent[] = [];
    const decoder = createWireDecoder({ onEvent: (e) => void pushed.push(e) });
    decoder.feed(v4MaxTurns);
    decoder.end();
    expect(await collect(decodeWireStream(chunkedBody(v4MaxTurns)))).toEqual(pushed);
    expect(pushed.at(-1)).toMatchObject({ method: 'RunEnd', params: { stop_reason: 'max_turns', turn: 2, content: 'Turn 2: looking up. ' } });
  });

  it('decodes a fetch body, SSE-framed', async () => {
    const sse = eventsOfLines(textCapture).map((e) => `data: ${JSON.stringify({ jsonrpc: '2.0', ...(e as object) })}\n\n`);
    const url = URL.createObjectURL(new Blob([': hello\n\n', ...sse, 'data: [DONE]\n\n'], { type: 'text/event-stream' }));
    try {
      const res = await fetch(url);
      expect(await collect(decodeWireStream(res.body!))).toEqual(eventsOfLines(textCapture));
    } finally {
      URL.revokeObjectURL(url);
    }
  });

  it('ends a body cut mid-line with RunError truncated and RunEnd error, reporting the partial line', async () => {
    const cut = textCapture.slice(0, textCapture.indexOf('"is "') + 2);
    const errors: string[] = [];
    const events = await collect(decodeWireStream(chunkedBody(cut), { onDecodeError: (e) => void errors.push(e.reason) }));
    expect(errors).toEqual(['invalid-json']);
    expect(events.slice(-2)).toEqual([
      { method: 'RunError', params: { code: 'truncated', message: expect.any(String) } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'The answer ', stop_reason: 'error', turn: 0 } },
    ]);
  });

  it('ends the run as cancelled on abort, without RunError, and cancels the body', async () => {
    const body = controlledBody();
    const abort = new AbortController();
    const it = decodeWireStream(body.stream, { signal: abort.signal })[Symbol.asyncIterator]();
    body.send(rpc('RunBegin', { user_input: 'q' }) + rpc('TextDelta', { text: 'Hel' }));
    expect((await it.next()).value).toEqual({ method: 'RunBegin', params: { user_input: 'q' } });
    expect((await it.next()).value).toEqual({ method: 'TextDelta', params: { text: 'Hel' } });
    const pending = it.next();
    abort.abort(new DOMException('stop', 'AbortError'));
    expect((await pending).value).toEqual({ method: 'RunEnd', params: { ...EMPTY_STEP, content: 'Hel', stop_reason: 'cancelled' } });
    expect((await it.next()).done).toBe(true);
    expect(body.cancelled).toHaveLength(1);
  });

  it('yields nothing and cancels the body when the signal is already aborted', async () => {
    const body = controlledBody();
    body.send(rpc('TextDelta', { text: 'x' }));
    expect(await collect(decodeWireStream(body.stream, { signal: AbortSignal.abort() }))).toEqual([]);
    expect(body.cancelled).toHaveLength(1);
  });

  it('cancels the body when the consumer breaks out of for await', async () => {
    const body = controlledBody();
    body.send(rpc('RunBegin', { user_input: '' }) + rpc('TextDelta', { text: 'a' }));
    for await (const event of decodeWireStream(body.stream)) {
      if (event.method === 'TextDelta') break;
    }
    expect(body.cancelled).toHaveLength(1);
  });

  it('ends a stalled run with RunError timeout and cancels the body', async () => {
    const body = controlledBody();
    body.send(rpc('RunBegin', { user_input: '' }) + rpc('TextDelta', { text: 'waiting' }));
    const events = await collect(decodeWireStream(body.stream, { idleTimeoutMs: 30 }));
    expect(events.slice(-2)).toEqual([
      { method: 'RunError', params: { code: 'timeout', message: expect.stringContaining('30 ms') } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'waiting', stop_reason: 'error' } },
    ]);
    expect(body.cancelled).toHaveLength(1);
  });

  it('does not time out between runs', async () => {
    const body = controlledBody();
    body.send(textCapture);
    setTimeout(() => {
      body.send(textCapture);
      body.close();
    }, 100);
    const events = await collect(decodeWireStream(body.stream, { idleTimeoutMs: 20 }));
    expect(events).toEqual([...eventsOfLines(textCapture), ...eventsOfLines(textCapture)]);
    expect(body.cancelled).toEqual([]);
  });

  it('ends an open run with RunError network when reading fails', async () => {
    const body = controlledBody();
    body.send(rpc('TurnBegin', { turn: 0 }) + rpc('TextDelta', { text: 'par' }));
    const events: WireEvent[] = [];
    for await (const e of decodeWireStream(body.stream)) {
      events.push(e);
      if (e.method === 'TextDelta') body.error(new TypeError('connection reset'));
    }
    expect(events).toEqual([
      { method: 'RunBegin', params: { user_input: '' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TextDelta', params: { text: 'par' } },
      { method: 'RunError', params: { code: 'network', message: expect.stringContaining('connection reset') } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'par', stop_reason: 'error', turn: 0 } },
    ]);
  });

  it('reports a read failure before any event as a run of its own', async () => {
    const body = controlledBody();
    body.error(new TypeError('failed to fetch'));
    expect(await collect(decodeWireStream(body.stream))).toEqual([
      { method: 'RunBegin', params: { user_input: '' } },
      { method: 'RunError', params: { code: 'network', message: expect.stringContaining('failed to fetch') } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, stop_reason: 'error' } },
    ]);
  });

  it('calls onLine and yields unknown events only with includeUnknown', async () => {
    const text = rpc('RunBegin', { user_input: '' }) + rpc('Ping', { n: 1 }) + rpc('RunEnd', EMPTY_STEP);
    const lines: string[] = [];
    const plain = await collect(decodeWireStream(chunkedBody(text), { onLine: (l) => void lines.push(l) }));
    expect(plain.map((e) => e.method)).toEqual(['RunBegin', 'RunEnd']);
    expect(lines).toEqual(text.trim().split('\n'));
    const withUnknown = await collect(decodeWireStream(chunkedBody(text), { includeUnknown: true }));
    expect(withUnknown[1]).toEqual({ method: 'Ping', params: { n: 1 }, unknown: true });
  });

  it('types the events as WireEvent, or WireEvent | UnknownEvent with includeUnknown: true', () => {
    const body = new ReadableStream<Uint8Array>();
    expectTypeOf(decodeWireStream(body)).toEqualTypeOf<AsyncIterable<WireEvent>>();
    expectTypeOf(decodeWireStream(body, { idleTimeoutMs: 5 })).toEqualTypeOf<AsyncIterable<WireEvent>>();
    expectTypeOf(decodeWireStream(body, { includeUnknown: true })).toEqualTypeOf<AsyncIterable<WireEvent | UnknownEvent>>();
    const flag: boolean = Math.random() > 2;
    expectTypeOf(decodeWireStream(body, { includeUnknown: flag })).toEqualTypeOf<AsyncIterable<WireEvent | UnknownEvent>>();
    expect(typeof decodeWireStream(body)[Symbol.asyncIterator]).toBe('function');
  });
});
