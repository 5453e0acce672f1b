import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createChunkAssembler,
  createCompletionDecoder,
  DEFAULT_MAX_EVENT_BYTES,
  type AssemblerDelta,
  type CompletionDecoder,
} from '../../../../src/agent/llm/chunk-assembler.js';
import { PagentError } from '../../../../src/errors.js';
import { QUIRK_STREAMS } from '../../../server/llm-quirks.js';
import { randomPieces } from '../../../helpers/random.js';

const DIR = new URL('../../../fixtures/providers-real/', import.meta.url);
const recordings = readdirSync(DIR)
  .filter((f) => f.endsWith('.sse'))
  .map((f) => f.slice(0, -'.sse'.length));

function expectation(name: string): Record<string, unknown> {
  const json = JSON.parse(readFileSync(new URL(`${name}.expected.json`, DIR), 'utf8')) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(json).filter(([k]) => !k.startsWith('_')));
}

/** Feeds pieces to a fresh decoder; returns the deltas, how it ended, the step and the error (if any). */
function run(pieces: Array<Uint8Array | string>) {
  const decoder: CompletionDecoder = createCompletionDecoder();
  const deltas: AssemblerDelta[] = [];
  let error: unknown;
  let how: string | undefined;
  try {
    for (const p of pieces) deltas.push(...decoder.feed(p));
    const end = decoder.end();
    deltas.push(...end.deltas);
    how = end.how;
  } catch (err) {
    error = err;
  }
  return { deltas, how, error, step: decoder.assembler.result() };
}

const joined = (deltas: AssemblerDelta[], type: AssemblerDelta['type']): string =>
  deltas.filter((d) => d.type === type).map((d) => d.text).join('');

describe('chunk assembler on recorded provider streams', () => {
  it('has the ten recordings of the corpus', () => {
    expect(recordings).toHaveLength(10);
  });

  for (const name of recordings) {
    const bytes = new Uint8Array(readFileSync(new URL(`${name}.sse`, DIR)));
    const expected = expectation(name);

    if (name === 'openrouter-minimax-midstream-error') {
      it(`${name}: the error chunk fails the stream as a provider error and is not applied`, () => {
        const { error, step, deltas } = run([bytes]);
        expect(error).toBeInstanceOf(PagentError);
        expect((error as PagentError).code).toBe('provider');
        expect((error as PagentError).message).toContain('Token limit reached');
        expect(step).toEqual(expected);
        expect(joined(deltas, 'reasoning')).toBe(expected['reasoning_content']);
      });
    } else {
      it(`${name}: assembles to its expected.json and ends with [DONE]`, () => {
        const { error, step, how, deltas } = run([bytes]);
        expect(error).toBeUndefined();
        expect(how).toBe('done');
        expect(step).toEqual(expected);
        expect(joined(deltas, 'text')).toBe(expected['content']);
        expect(joined(deltas, 'reasoning')).toBe(expected['reasoning_content']);
        expect(deltas.every((d) => d.text !== '')).toBe(true);
      });
    }

    it(`${name}: gives the same deltas and step for 25 random byte splits and byte-by-byte`, () => {
      const whole = run([bytes]);
      const splits = Array.from({ length: 25 }, (_, seed) => randomPieces(bytes, seed < 12 ? 7 : 300, seed + 1));
      splits.push(Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)));
      for (const pieces of splits) {
        const r = run(pieces);
        expect(r.step).toEqual(whole.step);
        expect(joined(r.deltas, 'text')).toBe(joined(whole.deltas, 'text'));
        expect(joined(r.deltas, 'reasoning')).toBe(joined(whole.deltas, 'reasoning'));
        expect(r.how).toBe(whole.how);
        expect((r.error as PagentError | undefined)?.message).toBe((whole.error as PagentError | undefined)?.message);
      }
    });
  }
});

describe('chunk assembler on synthetic quirk streams', () => {
  for (const [name, q] of Object.entries(QUIRK_STREAMS)) {
    it(`${name}: ${q.quirk}`, () => {
      const bytes = new TextEncoder().encode(q.sse);
      const results = [run([q.sse]), ...Array.from({ length: 10 }, (_, seed) => run(randomPieces(bytes, 5, seed + 7)))];
      for (const r of results) {
        if (q.error) {
          expect(r.error).toBeInstanceOf(PagentError);
          expect((r.error as PagentError).code).toBe(q.error.code);
          expect((r.error as PagentError).message).toContain(q.error.message);
        } else {
          expect(r.error).toBeUndefined();
          expect(r.how).toBe(q.end);
          expect(r.step).toEqual(q.expected);
          expect(joined(r.deltas, 'text')).toBe(q.expected?.content);
          expect(joined(r.deltas, 'reasoning')).toBe(q.expected?.reasoning_content);
        }
      }
    });
  }
});

describe('completion decoder', () => {
  it('counts SSE messages but not comments, so a body that is no event stream is recognisable', () => {
    const d = createCompletionDecoder();
    d.feed(': OPENROUTER PROCESSING\n\n: again\n\n');
    expect(d.messages).toBe(0);
    d.feed('data: {"choices":[]}\n\ndata: [DONE]\n\n');
    expect(d.messages).toBe(2);
    expect(d.done).toBe(true);
    const json = createCompletionDecoder();
    json.feed('{"choices":[{"index":0,"message":{"content":"x"}}]}');
    expect(json.end().how).toBe('truncated');
    expect(json.messages).toBe(0);
  });

  it('delivers the deltas before an error in the same piece, then throws on the next call', () => {
    const d = createCompletionDecoder();
    const deltas = d.feed('data: {"choices":[{"index":0,"delta":{"content":"before"}}]}\n\nevent: error\ndata: plain words\n\n');
    expect(deltas).toEqual([{ type: 'text', text: 'before' }]);
    expect(() => d.end()).toThrow('Provider error in the stream: plain words');
  });
});

describe('completion decoder limits (maxEventBytes)', () => {
  const LIMIT = 1024;
  const contentChunk = (text: string): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`;
  const feedsUntilThrow = (d: CompletionDecoder, pieces: string[]): { fed: number; error: unknown } => {
    for (let i = 0; i < pieces.length; i++) {
      try {
        d.feed(pieces[i]!);
      } catch (error) {
        return { fed: i + 1, error };
      }
    }
    return { fed: pieces.length, error: undefined };
  };
  const expectLimitError = (error: unknown): void => {
    expect(error).toBeInstanceOf(PagentError);
    expect((error as PagentError).code).toBe('provider');
    expect((error as PagentError).message).toContain(`over ${LIMIT} bytes (maxEventBytes)`);
  };

  it('fails as a provider error on the piece that takes one never-ending line over the limit', () => {
    const d = createCompletionDecoder({ maxEventBytes: LIMIT });
    expect(d.feed(contentChunk('ok'))).toEqual([{ type: 'text', text: 'ok' }]);
    // 'data: "' is 7 characters; after n pieces of 100 the line holds 7 + 100n, first over 1024 at n = 11
    const { fed, error } = feedsUntilThrow(d, ['data: "', ...Array.from({ length: 30 }, () => 'a'.repeat(100))]);
    expect(fed).toBe(1 + 11);
    expectLimitError(error);
    expect(() => d.feed('"\n\n')).toThrow(PagentError);
    expect(() => d.end()).toThrow(PagentError);
  });

  it('fails the same way for a message of short data: lines that never gets its blank line', () => {
    const d = createCompletionDecoder({ maxEventBytes: LIMIT });
    // each line adds 99 characters of data plus the joining newline: 999 after 10 lines, 1099 after 11
    const { fed, error } = feedsUntilThrow(d, Array.from({ length: 30 }, () => `data: ${'b'.repeat(99)}\n`));
    expect(fed).toBe(11);
    expectLimitError(error);
  });

  it('counts a complete message in UTF-8 bytes, not characters', () => {
    // 300 × '☕' is 900 bytes, plus 48 bytes of JSON: under 1024. 400 × '☕' is 1200 bytes in 400 characters.
    const under = createCompletionDecoder({ maxEventBytes: LIMIT });
    expect(under.feed(contentChunk('☕'.repeat(300)))).toEqual([{ type: 'text', text: '☕'.repeat(300) }]);
    const over = createCompletionDecoder({ maxEventBytes: LIMIT });
    expect(() => over.feed(contentChunk('☕'.repeat(400)))).toThrow(/over 1024 bytes \(maxEventBytes\)/);
    expect(over.assembler.result().content).toBe('');
  });

  it('accepts a 2 MiB message by default and has a 16 MiB default limit', () => {
    expect(DEFAULT_MAX_EVENT_BYTES).toBe(16 * 1024 * 1024);
    const d = createCompletionDecoder();
    const big = 'c'.repeat(2 * 1024 * 1024);
    const pieces = randomPieces(contentChunk(big) + 'data: [DONE]\n\n', 64 * 1024, 1);
    const text = pieces.flatMap((p) => d.feed(p)).map((delta) => delta.text).join('');
    expect(text).toBe(big);
    expect(d.end().how).toBe('done');
  });
});

describe('chunk assembler, object by object', () => {
  it('returns the deltas of each chunk in order, reasoning before content', () => {
    const a = createChunkAssembler();
    expect(a.push({ choices: [{ index: 0, delta: { reasoning_content: 'r', content: 'c' } }] })).toEqual([
      { type: 'reasoning', text: 'r' },
      { type: 'text', text: 'c' },
    ]);
    expect(a.push({ choices: [{ index: 0, delta: { content: '' } }] })).toEqual([]);
  });

  it('ignores chunks that are not objects', () => {
    const a = createChunkAssembler();
    expect(a.push(null)).toEqual([]);
    expect(a.push([1, 2])).toEqual([]);
    expect(a.push('text')).toEqual([]);
    expect(a.result()).toEqual({ content: '', reasoning_content: '', tool_calls: [], finish_reason: null, usage: null });
  });

  it('throws a provider error for an error chunk and keeps the step as it was', () => {
    const a = createChunkAssembler();
    a.push({ choices: [{ index: 0, delta: { content: 'so far' } }] });
    expect(() => a.push({ error: { message: 'bad things', code: 'server_error' }, choices: [{ index: 0, delta: { content: ' more' } }], usage: { total_tokens: 1 } })).toThrow(
      /bad things \(code server_error\)/,
    );
    expect(a.result()).toMatchObject({ content: 'so far', usage: null });
  });

  it('reports finished once a finish_reason arrived', () => {
    const a = createChunkAssembler();
    a.push({ choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] });
    expect(a.finished).toBe(false);
    a.push({ choices: [{ index: 0, delta: {}, finish_reason: 'length' }] });
    expect(a.finished).toBe(true);
    expect(a.result().finish_reason).toBe('length');
  });

  it('does the same work for the last thousand chunks as for the first thousand of a long stream', () => {
    const a = createChunkAssembler();
    const workOf = (from: number, to: number): number => {
      const before = a.stats.work;
      for (let i = from; i < to; i++) {
        a.push({ choices: [{ index: 0, delta: { content: `token ${i} ` } }] });
        a.push({ choices: [{ index: 0, delta: { tool_calls: [{ index: i % 3, id: i < 3 ? `c${i}` : '', function: { arguments: `${i},` } }] } }] });
      }
      return a.stats.work - before;
    };
    const first = workOf(0, 1000);
    workOf(1000, 9000);
    const last = workOf(9000, 10_000);
    expect(first).toBeGreaterThan(0);
    expect(last).toBe(first);
    expect(a.stats.chunks).toBe(20_000);
    const step = a.result();
    expect(step.tool_calls).toHaveLength(3);
    expect(step.content.endsWith('token 9999 ')).toBe(true);
  });
});
