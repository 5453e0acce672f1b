/**
 * `npx tsx bench/decode-profile.ts [ndjson|sse] [lines]`: where the push decoder's time goes. Decodes the
 * bench's set (10,000 `TextDelta` lines by default) a few hundred times under V8's sampling CPU profiler
 * (node:inspector) and prints each part's share of the samples taken inside the decoder, by self time.
 * The optimising compiler inlines small functions into their callers, so a part's share includes what
 * was inlined into it: read the figures as "about", and compare runs of the same code, not single numbers.
 * The profiler counts `JSON.parse` in its caller (codec.ts), so its share is measured apart: the same
 * documents parsed alone, timed against the decoder in the same process.
 */
import { Session, type Profiler } from 'node:inspector';
import { chunks, makeSet, pushDecoder } from './decode.bench.js';

/** The least time of `runs` timings of `fn` (milliseconds). */
function least(fn: () => void, runs = 7): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/** Parts of the decoder by the file and function a sample's self time is in; the first match wins. */
const PARTS: Array<[string, (fn: string, url: string) => boolean]> = [
  ['JSON.parse (the floor\'s own work)', (fn, url) => fn === 'parse' && url === ''],
  ['UTF-8 decoding (TextDecoder)', (fn, url) => url.includes('encoding') || (fn === 'decode' && url === '')],
  ['garbage collection', (fn) => fn === '(garbage collector)'],
  ['framing: lines, SSE fields', (_, url) => url.endsWith('/wire/framing.ts')],
  ['JSON.parse, the envelope and validation (codec.ts, events.ts)', (_, url) => url.endsWith('/wire/events.ts') || url.endsWith('/wire/codec.ts')],
  ['the pagent dialect', (_, url) => url.includes('/wire/dialects/')],
  ['the run contract, text kept for a cut run', (_, url) => url.endsWith('/wire/decoder.ts')],
  ['the bench loop and onEvent', (_, url) => url.endsWith('decode.bench.ts')],
];

async function profile(run: () => void): Promise<Profiler.Profile> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object): Promise<T> =>
    new Promise((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as T))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 50 });
  await post('Profiler.start');
  run();
  const { profile } = await post<{ profile: Profiler.Profile }>('Profiler.stop');
  session.disconnect();
  return profile;
}

const format = process.argv[2] === 'sse' ? 'sse' : 'ndjson';
const lines = Number(process.argv[3] ?? 10_000);
const set = makeSet(lines);
const parts = chunks(set[format]);
const decode = (): number => pushDecoder(parts);
for (let i = 0; i < 50; i++) decode(); // warm up: optimised code, not the interpreter, is what is profiled
const rounds = Math.max(20, Math.round(3_000_000 / lines));
const result = await profile(() => {
  for (let i = 0; i < rounds; i++) decode();
});

const selfSamples = new Map<number, number>();
for (const id of result.samples ?? []) selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
const shares = new Map<string, number>();
let total = 0;
for (const node of result.nodes) {
  const n = selfSamples.get(node.id);
  if (!n) continue;
  const { functionName, url } = node.callFrame;
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)') continue;
  const part = PARTS.find(([, test]) => test(functionName, url))?.[0] ?? `other: ${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}`;
  shares.set(part, (shares.get(part) ?? 0) + n);
  total += n;
}
console.log(`${set.name}, ${format.toUpperCase()}, ${rounds} decodes, ${total} samples:`);
for (const [part, n] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
  console.log(`${((100 * n) / total).toFixed(1).padStart(5)} %  ${part}`);
}

// JSON.parse alone over the same documents, against the whole decoder, both timed in this process.
const documents = new TextDecoder()
  .decode(set[format])
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => (line.startsWith('data: ') ? line.slice(6) : line));
const parseAll = (): void => {
  for (const doc of documents) JSON.parse(doc);
};
const decodeMs = least(() => void decode());
const parseMs = least(parseAll);
console.log(`JSON.parse of the same ${documents.length} documents alone: ${parseMs.toFixed(2)} ms, ${((100 * parseMs) / decodeMs).toFixed(0)} % of the decoder's ${decodeMs.toFixed(2)} ms`);
