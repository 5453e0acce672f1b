import { expect } from 'vitest';
import { randomPieces } from '../../helpers/random.js';
import {
  createWireDecoder,
  loadDialect,
  type UnknownEvent,
  type WireDecodeError,
  type WireDecoderOptions,
  type WireEvent,
} from '../../../src/index.js';

// The push decoder reads pagent synchronously and loads other readers on first use; these helpers decode
// synchronously, so every reader is loaded first (test/unit/wire/lazy-readers.test.ts covers the loading).
await Promise.all((['victor', 'ag-ui', 'ai-sdk'] as const).map((name) => loadDialect(name)));

export interface Decoded {
  events: Array<WireEvent | UnknownEvent>;
  errors: WireDecodeError[];
  lines: string[];
}

/** Feeds `chunks` to a fresh push decoder, then `end()` (unless `cancel` asks for `cancel()`). */
export function decodeChunks(
  chunks: Iterable<Uint8Array | string>,
  options: WireDecoderOptions & { finish?: 'end' | 'cancel' } = {},
): Decoded {
  const out: Decoded = { events: [], errors: [], lines: [] };
  const { finish = 'end', ...rest } = options;
  const decoder = createWireDecoder({
    ...rest,
    onEvent: (e: WireEvent | UnknownEvent) => void out.events.push(e),
    onDecodeError: (e) => void out.errors.push(e),
    onLine: (raw) => void out.lines.push(raw),
  });
  for (const chunk of chunks) decoder.feed(chunk);
  if (finish === 'end') decoder.end();
  else decoder.cancel();
  return out;
}

/** `bytes` as one chunk, as one-byte chunks, and cut in two at every offset. */
export function* splits(bytes: Uint8Array): Generator<{ name: string; chunks: Uint8Array[] }> {
  yield { name: 'whole', chunks: [bytes] };
  const single: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i++) single.push(bytes.subarray(i, i + 1));
  yield { name: 'one byte at a time', chunks: single };
  for (let i = 1; i < bytes.length; i++) {
    yield { name: `split at ${i}`, chunks: [bytes.subarray(0, i), bytes.subarray(i)] };
  }
}

/** The events a pagent capture's lines spell, read straight from the lines (`JSON.parse` → {method, params}). */
export function eventsOfLines(text: string): WireEvent[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const { method, params } = JSON.parse(l) as WireEvent;
      return { method, params } as WireEvent;
    });
}

export const rpc = (method: string, params: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', method, params });

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export const EMPTY_STEP = { content: '', tool_calls: [], reasoning_content: '', usage: null };

/**
 * Decodes every split of `bytes` and checks each against `expected` (after `map`), comparing JSON text
 * first so thousands of splits stay cheap; a mismatch is reported by a full `toEqual`.
 */
export function expectEverySplit(bytes: Uint8Array, expected: unknown, map: (out: Decoded) => unknown = (o) => o.events): void {
  const want = JSON.stringify(expected);
  for (const { name, chunks } of splits(bytes)) {
    const out = decodeChunks(chunks);
    const got = map(out);
    if (out.errors.length > 0 || JSON.stringify(got) !== want) {
      expect(out.errors, name).toEqual([]);
      expect(got, name).toEqual(expected);
    }
  }
}

/**
 * Decodes `body` whole, one byte at a time and in `randomSplits` seeded random splits (pieces of 1..64
 * bytes, cutting UTF-8 sequences too), checks that every chunking gives the same events and no decode
 * error, and returns them.
 */
export function decodeEveryChunking(
  body: string | Uint8Array,
  options: WireDecoderOptions & { finish?: 'end' | 'cancel' } = {},
  randomSplits = 12,
): Decoded {
  const bytes = typeof body === 'string' ? utf8(body) : body;
  const whole = decodeChunks([bytes], options);
  expect(whole.errors, 'whole').toEqual([]);
  const want = JSON.stringify(whole.events);
  const single: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i++) single.push(bytes.subarray(i, i + 1));
  const chunkings: Array<[string, Uint8Array[]]> = [['one byte at a time', single]];
  for (let seed = 1; seed <= randomSplits; seed++) chunkings.push([`random split, seed ${seed}`, randomPieces(bytes, 64, seed)]);
  for (const [name, chunks] of chunkings) {
    const out = decodeChunks(chunks, options);
    if (out.errors.length > 0 || JSON.stringify(out.events) !== want) {
      expect(out.errors, name).toEqual([]);
      expect(out.events, name).toEqual(whole.events);
    }
  }
  return whole;
}
