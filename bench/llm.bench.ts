/**
 * LLM chunk assembly: the cost of assembling a long OpenAI-compatible stream against plain JSON.parse of
 * the same data lines, and the cost of 1k chunks late in a stream against 1k chunks at its start.
 */
import { createChunkAssembler, createCompletionDecoder, type ChunkAssembler } from '../src/agent/llm/chunk-assembler.js';
import type { BenchCase } from './harness.js';

const CONTENT_CHUNKS = 10_000;
const TOOL_FRAGMENTS = 2_000;

const content = (i: number) => ({ id: 'chatcmpl-b', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta: { content: `word${i} ` }, finish_reason: null }] });
const toolFragment = (i: number) => ({
  id: 'chatcmpl-b',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'bench',
  choices: [{ index: 0, delta: { tool_calls: [i < 2 ? { index: i, id: `call_${i}`, type: 'function', function: { name: 'write', arguments: '' } } : { index: i % 2, function: { arguments: `"part ${i}",` } }] }, finish_reason: null }],
});

const chunks: unknown[] = [];
for (let i = 0; i < CONTENT_CHUNKS; i++) chunks.push(content(i));
for (let i = 0; i < TOOL_FRAGMENTS; i++) chunks.push(toolFragment(i));
chunks.push({ id: 'chatcmpl-b', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
chunks.push({ id: 'chatcmpl-b', choices: [], usage: { prompt_tokens: 10, completion_tokens: 12_000, total_tokens: 12_010 } });

const lines = chunks.map((c) => JSON.stringify(c));
const sse = `${lines.map((l) => `data: ${l}\n\n`).join('')}data: [DONE]\n\n`;
const sseBytes = new TextEncoder().encode(sse);
const PIECE = 4096;
const pieces: Uint8Array[] = [];
for (let i = 0; i < sseBytes.length; i += PIECE) pieces.push(sseBytes.subarray(i, i + PIECE));

const batch = lines.slice(0, 1000).map((l) => JSON.parse(l) as unknown);
let grown: ChunkAssembler = createChunkAssembler();
for (let i = 0; i < 9; i++) for (const c of batch) grown.push(c);

export const cases: BenchCase[] = [
  {
    name: `LLM decoder: SSE body of ${CONTENT_CHUNKS} content chunks + ${TOOL_FRAGMENTS} tool-call fragments (${(sseBytes.length / 1e6).toFixed(1)} MB, 4 KB pieces) → deltas + step`,
    baselineName: 'JSON.parse of the same data lines',
    baseline: () => {
      let n = 0;
      for (const l of lines) n += (JSON.parse(l) as { choices: unknown[] }).choices.length;
      return n;
    },
    subject: () => {
      const d = createCompletionDecoder();
      let n = 0;
      for (const p of pieces) n += d.feed(p).length;
      d.end();
      return d.assembler.result().tool_calls.length + n;
    },
    notes: () => {
      const d = createCompletionDecoder();
      for (const p of pieces) d.feed(p);
      const step = d.assembler.result();
      return [`content ${step.content.length} chars, ${step.tool_calls.length} tool calls, arguments ${step.tool_calls.map((c) => c.function.arguments.length).join(' + ')} chars`];
    },
  },
  {
    name: 'LLM assembler: 1k content chunks pushed after ≥9k already assembled (grows every iteration)',
    baselineName: 'the same 1k chunks pushed into a fresh assembler',
    baseline: () => {
      const a = createChunkAssembler();
      for (const c of batch) a.push(c);
      return a.stats.work;
    },
    subject: () => {
      for (const c of batch) grown.push(c);
      return grown.stats.work;
    },
    notes: () => {
      const fresh = createChunkAssembler();
      const w0 = fresh.stats.work;
      for (const c of batch) fresh.push(c);
      const firstWork = fresh.stats.work - w0;
      for (let i = 0; i < 8; i++) for (const c of batch) fresh.push(c);
      const w9 = fresh.stats.work;
      for (const c of batch) fresh.push(c);
      const lastWork = fresh.stats.work - w9;
      const size = grown.stats.chunks;
      grown = createChunkAssembler();
      for (let i = 0; i < 9; i++) for (const c of batch) grown.push(c);
      return [`work units: first 1k chunks ${firstWork}, chunks 9k–10k ${lastWork}; the grown assembler reached ${size} chunks`];
    },
  },
];
