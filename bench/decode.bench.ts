/**
 * Decoding against its floor: the push decoder, `decodeWireStream` and `WireClient` over the same bytes
 * as `TextDecoder` + split + `JSON.parse` in one loop, next to eventsource-parser + `JSON.parse` and
 * AG-UI's `parseSSEStream`. Figures are throughput ratios (floor time / subject time, so 1.0 is the
 * floor and higher is faster). Each figure is measured in several fresh processes, the floor and the
 * subjects interleaved in rounds whose order alternates, and reported as the median over the processes
 * with their spread (min–max): rounds in one process share one JIT and heap history, so they are not
 * independent samples, and the committed figures of a single process did not hold on another machine.
 */
import { createParser } from 'eventsource-parser';
import { createWireDecoder, decodeWireStream, WireClient } from '../src/index.js';

/**
 * One body: a run of `lines` TextDelta events, as NDJSON and as SSE, cut into 4 KiB chunks; spelled as
 * pagent writes them, and again with each delta's keys in another order (the same bytes rearranged), which
 * the decoder reads in full rather than by the text alone (docs/wire.md#pagent-and-pagentv4).
 */
export interface DecodeSet {
  name: string;
  lines: number;
  ndjson: Uint8Array;
  sse: Uint8Array;
  reordered: { ndjson: Uint8Array; sse: Uint8Array };
}

export function makeSet(lines: number): DecodeSet {
  const text = (i: number): string => `token ${i} `;
  const body = (delta: (text: string) => string): { ndjson: Uint8Array; sse: Uint8Array } => {
    const docs = [
      '{"jsonrpc": "2.0", "method": "RunBegin", "params": {"user_input": "bench"}}',
      '{"jsonrpc": "2.0", "method": "TurnBegin", "params": {"turn": 0}}',
      ...Array.from({ length: lines }, (_, i) => delta(JSON.stringify(text(i)))),
    ];
    const encoder = new TextEncoder();
    return { ndjson: encoder.encode(docs.join('\n') + '\n'), sse: encoder.encode(docs.map((d) => `data: ${d}\n\n`).join('')) };
  };
  return {
    name: `${lines.toLocaleString('en')} TextDelta lines`,
    lines,
    ...body((t) => `{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": ${t}}}`),
    reordered: body((t) => `{"method": "TextDelta", "params": {"text": ${t}}, "jsonrpc": "2.0"}`),
  };
}

/** Cuts a body into network-sized chunks (4 KiB), so lines straddle chunk ends. */
export function chunks(bytes: Uint8Array, size = 4096): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** The floor: `TextDecoder` over the whole body, split into lines, `JSON.parse` of each document. */
export function floor(bytes: Uint8Array): number {
  let n = 0;
  for (const line of new TextDecoder().decode(bytes).split('\n')) {
    if (line === '') continue;
    n += JSON.parse(line.startsWith('data: ') ? line.slice(6) : line) ? 1 : 0;
  }
  return n;
}

export function pushDecoder(parts: Uint8Array[]): number {
  let n = 0;
  const decoder = createWireDecoder({ onEvent: () => void n++ });
  for (const part of parts) decoder.feed(part);
  decoder.end();
  return n;
}

function bodyOf(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < parts.length) controller.enqueue(parts[i++]!);
      else controller.close();
    },
  });
}

export async function stream(parts: Uint8Array[]): Promise<number> {
  let n = 0;
  for await (const event of decodeWireStream(bodyOf(parts))) if (event) n++;
  return n;
}

export async function client(parts: Uint8Array[], contentType: string): Promise<number> {
  const fetch = (): Promise<Response> =>
    Promise.resolve(new Response(bodyOf(parts), { headers: { 'Content-Type': contentType } }));
  let n = 0;
  for await (const event of new WireClient('http://bench.invalid/', { fetch }).stream()) if (event) n++;
  return n;
}

/** eventsource-parser (push, spec-exact) + `JSON.parse` of each message's data, one streaming TextDecoder. */
export function eventsourceParser(parts: Uint8Array[]): number {
  let n = 0;
  const parser = createParser({ onEvent: (m) => void (n += JSON.parse(m.data) ? 1 : 0) });
  const decoder = new TextDecoder();
  for (const part of parts) parser.feed(decoder.decode(part, { stream: true }));
  parser.feed(decoder.decode());
  return n;
}

/** AG-UI's `parseSSEStream` (RxJS) over the same chunks, as its HttpAgent feeds it. */
export async function agUi(parts: Uint8Array[]): Promise<number> {
  const [{ parseSSEStream }, { from }] = await Promise.all([import('@ag-ui/client'), import('rxjs')]);
  const source = from(parts.map((data) => ({ type: 'data', data }))) as unknown as Parameters<typeof parseSSEStream>[0];
  return new Promise<number>((resolve, reject) => {
    let n = 0;
    parseSSEStream(source).subscribe({ next: () => void n++, error: reject, complete: () => resolve(n) });
  });
}

/**
 * Milliseconds of this process's CPU time (user + system) in Node, where the machine may be shared:
 * time spent waiting for a core does not count. Wall-clock time in a browser.
 */
const clock = (): number => {
  if (typeof process === 'undefined' || typeof process.cpuUsage !== 'function') return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One figure: a subject's throughput as a fraction of the floor's on the same bytes. */
export interface DecodeFigure {
  set: string;
  format: 'NDJSON' | 'SSE';
  subject: string;
  ratio: number;
  ms: number;
  floorMs: number;
}

/**
 * Measures every subject on `set` in rounds, in this process: the floor and each subject once a round,
 * so that a noisy, shared machine hits all alike; even rounds time the floor first, odd rounds the
 * subjects first (in reverse order) and the floor last, so that no subject always runs right after the
 * floor's whole-body garbage or always first after a collection. The first `warmup` rounds only warm the
 * JIT up; each figure is the median over the other `rounds` of (the round's floor time / the subject's time).
 */
export async function measureSet(
  set: DecodeSet,
  rounds: number,
  warmup = 5,
  only: (subject: string) => boolean = () => true,
): Promise<DecodeFigure[]> {
  const figures: DecodeFigure[] = [];
  const formats = [
    { format: 'NDJSON' as const, bytes: set.ndjson, reordered: set.reordered.ndjson, type: 'application/x-ndjson' },
    { format: 'SSE' as const, bytes: set.sse, reordered: set.reordered.sse, type: 'text/event-stream' },
  ];
  // Where the runtime allows it (Node: bench/node-gc.ts), every timed call starts from a collected heap:
  // the garbage one call leaves (the floor's whole-body string, a subject's events) is not collected in
  // the next one's time.
  const gc = (globalThis as { gc?: (options: { type: 'major' }) => void }).gc;
  const time = async (fn: () => unknown): Promise<number> => {
    gc?.({ type: 'major' });
    const t = clock();
    await fn();
    return clock() - t;
  };
  for (const { format, bytes, reordered, type } of formats) {
    const parts = chunks(bytes);
    const reorderedParts = chunks(reordered);
    const subjects: Array<[string, () => unknown]> = [
      ['createWireDecoder (push)', () => pushDecoder(parts)],
      // every delta read in full; against the floor over the usual spelling: the same characters, which
      // JSON.parse parses alike
      ['createWireDecoder (push), keys in another order', () => pushDecoder(reorderedParts)],
      ['decodeWireStream', () => stream(parts)],
      ['WireClient', () => client(parts, type)],
    ];
    if (format === 'SSE') {
      subjects.push(['eventsource-parser + JSON.parse', () => eventsourceParser(parts)]);
      subjects.push(["@ag-ui/client's parseSSEStream", () => agUi(parts)]);
    }
    const chosen = subjects.filter(([name]) => only(name));
    const floors: number[] = [];
    const times = chosen.map(() => [] as number[]);
    for (let round = 0; round < warmup + rounds; round++) {
      const floorFirst = round % 2 === 0;
      const subjectMs: number[] = new Array<number>(chosen.length);
      let floorMs = floorFirst ? await time(() => floor(bytes)) : 0;
      for (let k = 0; k < chosen.length; k++) {
        const i = floorFirst ? k : chosen.length - 1 - k;
        subjectMs[i] = await time(chosen[i]![1]);
      }
      if (!floorFirst) floorMs = await time(() => floor(bytes));
      if (round < warmup) continue;
      floors.push(floorMs);
      subjectMs.forEach((ms, i) => times[i]!.push(ms));
    }
    chosen.forEach(([subject], i) => {
      const ratios = times[i]!.map((ms, round) => floors[round]! / ms);
      figures.push({ set: set.name, format, subject, ratio: median(ratios), ms: median(times[i]!), floorMs: median(floors) });
    });
  }
  return figures;
}

/** One figure over several fresh processes (or pages): the median of their ratios and the spread. */
export interface DecodeSpread extends DecodeFigure {
  /** The lowest and highest of the processes' ratios. */
  min: number;
  max: number;
  /** Each process's ratio, in the order they ran. */
  ratios: number[];
}

/** Folds the figures of several processes (each the same list, in the same order) into medians and spreads. */
export function spreadOf(runs: DecodeFigure[][]): DecodeSpread[] {
  return runs[0]!.map((first, i) => {
    const ratios = runs.map((r) => r[i]!.ratio);
    return {
      ...first,
      ratio: median(ratios),
      ms: median(runs.map((r) => r[i]!.ms)),
      floorMs: median(runs.map((r) => r[i]!.floorMs)),
      min: Math.min(...ratios),
      max: Math.max(...ratios),
      ratios,
    };
  });
}

/** `0.80x the floor (0.78–0.82 over 5 processes; 10.1 ms vs 8.1 ms)`. */
export function formatSpread(f: DecodeSpread, unit = 'processes'): string {
  return `${f.ratio.toFixed(2)}x the floor (median; ${f.min.toFixed(2)}–${f.max.toFixed(2)} over ${f.ratios.length} ${unit}; ${f.ms.toFixed(2)} ms vs ${f.floorMs.toFixed(2)} ms)`;
}

/** The same measurement on a page: `globalThis.decodeBench` for `page.evaluate` (see bench/results.ts). */
if (typeof window !== 'undefined') {
  (globalThis as Record<string, unknown>)['decodeBench'] = { makeSet, measureSet };
}

/** `npm run bench decode`: the 10k set, in five fresh Node processes (bench/decode-processes.ts), printed. */
export async function run(): Promise<void> {
  const { measureInProcesses } = await import('./decode-processes.js');
  const processes = Number(process.env['BENCH_PROCESSES'] ?? 5);
  for (const f of await measureInProcesses(10_000, 21, processes)) {
    console.log(`${f.set}, ${f.format}, ${f.subject}: ${formatSpread(f)}`);
  }
}
