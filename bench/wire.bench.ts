/**
 * Wire decoding: the push core against plain JSON.parse of the same lines, per dialect, and whether the
 * cost of a delta stays flat along a long answer.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { EventEncoder } from '@ag-ui/encoder';
import { createWireDecoder } from '../src/index.js';
import { bundleIife } from './browser.js';
import type { BenchCase } from './harness.js';

const N = 10_000;
const lines = Array.from(
  { length: N },
  (_, i) => `{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": "token ${i} "}}`,
);
const head = ['{"jsonrpc": "2.0", "method": "RunBegin", "params": {"user_input": "bench"}}', '{"jsonrpc": "2.0", "method": "TurnBegin", "params": {"turn": 0}}'];
const ndjson = new TextEncoder().encode([...head, ...lines].join('\n') + '\n');
const sse = new TextEncoder().encode([...head, ...lines].map((l) => `data: ${l}\n\n`).join(''));

/** Cuts a body into network-sized chunks (4 KiB), so lines straddle chunk ends. */
function chunks(bytes: Uint8Array, size = 4096): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}
const ndjsonChunks = chunks(ndjson);
const sseChunks = chunks(sse);

function decodeAll(parts: Uint8Array[]): number {
  let n = 0;
  const decoder = createWireDecoder({ onEvent: () => void n++ });
  for (const part of parts) decoder.feed(part);
  decoder.end();
  return n;
}

function parseLines(): number {
  let n = 0;
  const text = new TextDecoder().decode(ndjson);
  for (const line of text.split('\n')) if (line !== '') n += JSON.parse(line) ? 1 : 0;
  return n;
}

/**
 * One answer of N text deltas in each dialect, framed as its servers frame it: AG-UI events through
 * `@ag-ui/encoder`'s SSE encoder, AI SDK parts as `JsonToSseTransformStream` writes them (`data: <json>`,
 * then `[DONE]`), Victor v1 documents as SSE.
 */
const agUiEncoder = new EventEncoder();
const agUi = new TextEncoder().encode(
  [
    { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
    ...Array.from({ length: N }, (_, i) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `token ${i} ` })),
    { type: 'TEXT_MESSAGE_END', messageId: 'm' },
    { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
  ]
    .map((event) => agUiEncoder.encodeSSE(event as Parameters<EventEncoder['encodeSSE']>[0]))
    .join(''),
);
const aiSdk = new TextEncoder().encode(
  [
    { type: 'start' },
    { type: 'start-step' },
    { type: 'text-start', id: 't' },
    ...Array.from({ length: N }, (_, i) => ({ type: 'text-delta', id: 't', delta: `token ${i} ` })),
    { type: 'text-end', id: 't' },
    { type: 'finish-step' },
    { type: 'finish', finishReason: 'stop' },
  ]
    .map((part) => `data: ${JSON.stringify(part)}\n\n`)
    .join('') + 'data: [DONE]\n\n',
);
const victor = new TextEncoder().encode(
  [...Array.from({ length: N }, (_, i) => ({ v: 1, event: 'content', content: `token ${i} ` })), { v: 1, event: 'stream_end' }]
    .map((doc) => `data: ${JSON.stringify(doc)}\n\n`)
    .join(''),
);

/** The floor for a body: TextDecoder, split into lines, JSON.parse of each document (SSE `data: ` cut off). */
function parseBody(bytes: Uint8Array): () => number {
  return () => {
    let n = 0;
    for (const line of new TextDecoder().decode(bytes).split('\n')) {
      if (line === '' || line === 'data: [DONE]') continue;
      n += JSON.parse(line.startsWith('data: ') ? line.slice(6) : line) ? 1 : 0;
    }
    return n;
  };
}

const dialectCase = (dialect: string, bytes: Uint8Array): BenchCase => {
  const parts = chunks(bytes);
  return {
    name: `decoder (push core): ${dialect} SSE, ${N} text deltas in 4 KiB chunks, dialect detected`,
    baselineName: 'TextDecoder + split + JSON.parse of the same bytes',
    baseline: parseBody(bytes),
    subject: () => decodeAll(parts),
    notes: () => [`${bytes.length} bytes, ${decodeAll(parts)} events`],
  };
};

export const cases: BenchCase[] = [
  {
    name: `decoder (push core): NDJSON, ${N} TextDelta lines in 4 KiB chunks`,
    baselineName: 'TextDecoder + split + JSON.parse of the same lines',
    baseline: parseLines,
    subject: () => decodeAll(ndjsonChunks),
    notes: () => [`${ndjson.length} bytes, ${decodeAll(ndjsonChunks)} events`],
  },
  {
    name: `decoder (push core): SSE, ${N} TextDelta messages in 4 KiB chunks`,
    baselineName: 'TextDecoder + split + JSON.parse of the NDJSON lines',
    baseline: parseLines,
    subject: () => decodeAll(sseChunks),
    notes: () => [`${sse.length} bytes`],
  },
  {
    name: `decoder (push core): pagent SSE, ${N} TextDelta messages in 4 KiB chunks`,
    baselineName: 'TextDecoder + split + JSON.parse of the same bytes',
    baseline: parseBody(sse),
    subject: () => decodeAll(sseChunks),
  },
  dialectCase('Victor v1', victor),
  dialectCase('AG-UI', agUi),
  dialectCase('AI SDK UI message stream', aiSdk),
];

/** min+gzip size of a bundle of one entry (its dependencies included), in kB. */
async function size(entry: string): Promise<string> {
  const code = await bundleIife(fileURLToPath(new URL(entry, import.meta.url)), 'x', true);
  return `${(gzipSync(code, { level: 9 }).length / 1024).toFixed(1)} kB`;
}

/** Per-delta cost along one stream: the last 1k deltas against the first 1k, median of 15 streams. */
export async function run(): Promise<void> {
  console.log('bundle sizes, min+gzip (Vite, IIFE, dependencies included):');
  console.log(`  the codec + push decoder (IIFE: the readers it loads lazily are inlined here): ${await size('../test/unit/package/entries/decoder.ts')}`);
  console.log(`  of which the AG-UI and AI SDK readers alone: ${await size('./entries/readers.ts')}`);
  console.log(`  WireClient: ${await size('../test/unit/package/entries/client.ts')}; encodeStream (all writers): ${await size('../test/unit/package/entries/encode.ts')}`);
  const body = lines.map((l) => new TextEncoder().encode(l + '\n'));
  const ratios: number[] = [];
  const firsts: number[] = [];
  const lasts: number[] = [];
  for (let rep = 0; rep < 15; rep++) {
    const decoder = createWireDecoder({ onEvent: () => {} });
    for (const h of head) decoder.feed(h + '\n');
    let first = 0;
    let last = 0;
    let t = performance.now();
    for (let i = 0; i < N; i++) {
      decoder.feed(body[i]!);
      if (i === 999) first = performance.now() - t;
      if (i === N - 1001) t = performance.now();
    }
    last = performance.now() - t;
    decoder.end();
    if (rep >= 3) {
      ratios.push(last / first);
      firsts.push(first);
      lasts.push(last);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`decoder: cost per delta along a ${N}-delta answer (one line a feed)`);
  console.log(
    `  last 1k deltas / first 1k deltas: ${median(ratios).toFixed(2)}x ` +
      `(first ${median(firsts).toFixed(3)} ms, last ${median(lasts).toFixed(3)} ms per 1k, medians of ${ratios.length})`,
  );
  await Promise.resolve();
}
