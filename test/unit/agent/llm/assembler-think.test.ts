import { describe, expect, it } from 'vitest';
import {
  createChunkAssembler,
  createCompletionDecoder,
  type AssemblerDelta,
  type ChunkAssemblerOptions,
} from '../../../../src/agent/llm/chunk-assembler.js';
import { randomPieces } from '../../../helpers/random.js';

const contentChunk = (text: string) => ({ choices: [{ index: 0, delta: { content: text } }] });
const joined = (deltas: AssemblerDelta[], type: AssemblerDelta['type']): string =>
  deltas.filter((d) => d.type === type).map((d) => d.text).join('');

/** Pushes each piece as one content chunk, ends the step, and returns the deltas and the step. */
function assemble(pieces: string[], options?: ChunkAssemblerOptions, before: object[] = []) {
  const a = createChunkAssembler(options);
  const deltas: AssemblerDelta[] = [];
  for (const c of before) deltas.push(...a.push(c));
  for (const p of pieces) deltas.push(...a.push(contentChunk(p)));
  deltas.push(...a.end());
  return { deltas, step: a.result() };
}

/** Every way of cutting `text` once or twice, each character alone, and 20 seeded random cuttings. */
function splits(text: string): string[][] {
  const out: string[][] = [[text], Array.from(text)];
  for (let i = 1; i < text.length; i++) {
    out.push([text.slice(0, i), text.slice(i)]);
    for (let j = i + 1; j < text.length; j++) out.push([text.slice(0, i), text.slice(i, j), text.slice(j)]);
  }
  for (let seed = 1; seed <= 20; seed++) out.push(randomPieces(text, 1 + (seed % 6), seed));
  return out;
}

/** Checks that every cutting of `text` gives this reasoning and content, in deltas and step alike. */
function expectSplit(text: string, reasoning: string, content: string, options?: ChunkAssemblerOptions, before: object[] = []): void {
  for (const pieces of splits(text)) {
    const { deltas, step } = assemble(pieces, options, before);
    expect({ pieces, reasoning: step.reasoning_content, content: step.content }).toEqual({ pieces, reasoning, content });
    expect(joined(deltas, 'reasoning')).toBe(reasoning);
    expect(joined(deltas, 'text')).toBe(content);
    expect(deltas.every((d) => d.text !== '')).toBe(true);
    // Reasoning first, then the answer: no reasoning delta after the first text delta.
    const firstText = deltas.findIndex((d) => d.type === 'text');
    if (before.length === 0 && firstText >= 0) expect(deltas.slice(firstText).every((d) => d.type === 'text')).toBe(true);
  }
}

describe('chunk assembler: <think> tags at the start of the content', () => {
  it('routes a leading think block to reasoning and the rest to content, tags and whitespace after them dropped', () => {
    expectSplit('<think>\nLet me add: 2+2.\n</think>\n\nThe answer is 4.', 'Let me add: 2+2.\n', 'The answer is 4.');
  });

  it('allows whitespace before the opening tag', () => {
    expectSplit('\n \t<think>hmm</think> Yes', 'hmm', 'Yes');
  });

  it('keeps a think block that comes after other text as content', () => {
    expectSplit('Sure. <think>aside</think> done', '', 'Sure. <think>aside</think> done');
  });

  it('keeps everything after <think> as reasoning when </think> never arrives, including a partial closing tag', () => {
    expectSplit('<think>still going</thi', 'still going</thi', '');
    expectSplit('<think>x', 'x', '');
  });

  it('gives no reasoning for an empty think block, with or without whitespace inside', () => {
    expectSplit('<think></think>Hi', '', 'Hi');
    expectSplit('<think>\n\n</think>\n\nHi there', '', 'Hi there');
  });

  it('keeps content that only looks like the tag verbatim: <thinking>, <thin, <think, <Think>', () => {
    expectSplit('<thinking>plan</thinking> ok', '', '<thinking>plan</thinking> ok');
    expectSplit('<thin', '', '<thin');
    expectSplit('  <think', '', '  <think');
    expectSplit('<Think>no</Think>', '', '<Think>no</Think>');
    expectSplit('< think>', '', '< think>');
  });

  it('keeps a second </think> after the block as content', () => {
    expectSplit('<think>a</think>b</think>c', 'a', 'b</think>c');
  });

  it('drops a leading </think> with no opening tag (the template prefilled <think>) and the whitespace after it', () => {
    expectSplit('</think>\n\nAnswer', '', 'Answer');
  });

  it('keeps reasoning followed by only a closing tag as content (not handled: it would need unbounded look-ahead)', () => {
    expectSplit('I think so</think>Answer', '', 'I think so</think>Answer');
  });

  it('keeps whitespace-only content as content, and gives up on a tag after more than 256 leading whitespace characters', () => {
    expectSplit('\n\n', '', '\n\n');
    const long = ' '.repeat(300);
    expect(assemble([long, '<think>x</think>y']).step).toMatchObject({ content: `${long}<think>x</think>y`, reasoning_content: '' });
  });

  it('keeps the content verbatim with reasoningTags: false', () => {
    expectSplit('<think>r</think>\n\nanswer', '', '<think>r</think>\n\nanswer', { reasoningTags: false });
    expectSplit('</think>x', '', '</think>x', { reasoningTags: false });
  });

  it('does not parse tags when the provider sends reasoning in its own field first', () => {
    const first = { choices: [{ index: 0, delta: { reasoning_content: 'separated' } }] };
    expectSplit('<think>x</think>y', 'separated', '<think>x</think>y', undefined, [first]);
    const same = assemble([], undefined, [{ choices: [{ index: 0, delta: { reasoning: 'r', content: '<think>c</think>' } }] }]);
    expect(same.step).toMatchObject({ reasoning_content: 'r', content: '<think>c</think>' });
  });

  it('releases content held as a possible tag when provider reasoning arrives', () => {
    const a = createChunkAssembler();
    expect(a.push(contentChunk('<thi'))).toEqual([]);
    expect(a.push({ choices: [{ index: 0, delta: { reasoning_content: 'r' } }] })).toEqual([
      { type: 'text', text: '<thi' },
      { type: 'reasoning', text: 'r' },
    ]);
  });

  it('splits tags that arrive in content-part arrays and in a whole message', () => {
    const parts = assemble([], undefined, [{ choices: [{ index: 0, delta: { content: [{ type: 'text', text: '<thi' }, 'nk>r</th', { type: 'text', text: 'ink> a' }] } }] }]);
    expect(parts.step).toMatchObject({ reasoning_content: 'r', content: 'a' });
    const message = assemble([], undefined, [{ choices: [{ index: 0, message: { content: '<think>why</think>what' }, finish_reason: 'stop' }] }]);
    expect(message.step).toMatchObject({ reasoning_content: 'why', content: 'what', finish_reason: 'stop' });
    expect(joined(message.deltas, 'reasoning')).toBe('why');
  });

  it('keeps tool calls that follow a think block with no answer text', () => {
    const a = createChunkAssembler();
    a.push(contentChunk('<think>need the weather</think>\n'));
    a.push({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'weather', arguments: '{}' } }] }, finish_reason: 'tool_calls' }] });
    expect(a.end()).toEqual([]);
    expect(a.result()).toMatchObject({ content: '', reasoning_content: 'need the weather', tool_calls: [{ id: 'c1', function: { name: 'weather', arguments: '{}' } }] });
  });

  it('holds back at most 7 characters of a think block while it streams, and emits the rest at once', () => {
    const a = createChunkAssembler();
    const reasoning = 'step </th </t < more reasoning </thin'.repeat(20);
    const text = `<think>${reasoning}`;
    let emitted = 0;
    for (let i = 0; i < text.length; i++) {
      emitted += a.push(contentChunk(text[i]!)).reduce((n, d) => n + d.text.length, 0);
      if (i >= '<think>'.length) expect(i + 1 - '<think>'.length - emitted).toBeLessThanOrEqual(7);
    }
    expect(a.result().reasoning_content).toBe(reasoning);
  });

  it('emits the answer after </think> without holding any of it back', () => {
    const a = createChunkAssembler();
    a.push(contentChunk('<think>r</think>'));
    expect(a.push(contentChunk('<'))).toEqual([{ type: 'text', text: '<' }]);
    expect(a.push(contentChunk('think>'))).toEqual([{ type: 'text', text: 'think>' }]);
  });

  it('includes held characters in result() before end(), as end() will emit them', () => {
    const a = createChunkAssembler();
    a.push(contentChunk('<thi'));
    expect(a.result().content).toBe('<thi');
    const b = createChunkAssembler();
    b.push(contentChunk('<think>abc</thi'));
    expect(b.result()).toMatchObject({ reasoning_content: 'abc</thi', content: '' });
    expect(b.end()).toEqual([{ type: 'reasoning', text: '</thi' }]);
    expect(b.end()).toEqual([]);
    expect(b.result()).toMatchObject({ reasoning_content: 'abc</thi', content: '' });
  });

  it('splits tags through the SSE decoder for every random byte cutting of the body', () => {
    const body = ['<thi', 'nk>\nreason', 'ing ☕</', 'think', '>\n\nans', 'wer'].map((t) => `data: ${JSON.stringify(contentChunk(t))}\n\n`).join('') + 'data: [DONE]\n\n';
    const bytes = new TextEncoder().encode(body);
    for (let seed = 1; seed <= 30; seed++) {
      const d = createCompletionDecoder();
      const deltas = randomPieces(bytes, seed % 2 ? 3 : 40, seed).flatMap((p) => d.feed(p));
      const end = d.end();
      deltas.push(...end.deltas);
      expect(end.how).toBe('done');
      expect(joined(deltas, 'reasoning')).toBe('reasoning ☕');
      expect(joined(deltas, 'text')).toBe('answer');
      expect(d.assembler.result()).toMatchObject({ reasoning_content: 'reasoning ☕', content: 'answer' });
    }
  });

  it('releases a held tag start at the end of a decoded body', () => {
    const d = createCompletionDecoder();
    expect(d.feed(`data: ${JSON.stringify(contentChunk('<th'))}\n\n`)).toEqual([]);
    expect(d.end().deltas).toEqual([{ type: 'text', text: '<th' }]);
    const off = createCompletionDecoder({ reasoningTags: false });
    expect(off.feed(`data: ${JSON.stringify(contentChunk('<th'))}\n\n`)).toEqual([{ type: 'text', text: '<th' }]);
  });
});
