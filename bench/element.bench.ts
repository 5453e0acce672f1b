/**
 * `<pagent-chat>` in headless Chromium: DOM mutations, reducer work and time per delta at the 100th and
 * the 10,000th delta of one streamed answer (frame batching off, a render per delta), and the min+gzip
 * size of `pagent-chat.js` with all its dependencies. In Node: the timeline reducer alone against
 * appending the same strings to an array.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleIife, pageWithScript, withChromium } from './browser.js';
import type { BenchCase } from './harness.js';
import { createTimeline, type TimelineState } from '../src/chat/timeline/items.js';
import { reduceTimeline } from '../src/chat/timeline/reducer.js';
import type { PagentChat } from '../src/chat/element.js';

const ENTRY = fileURLToPath(new URL('../src/chat/pagent-chat.ts', import.meta.url));

const bundle = (minify: boolean): Promise<string> => bundleIife(ENTRY, 'pagentChat', minify);

const DELTAS = 10_000;
const deltaText = (i: number): string => (i % 50 === 0 ? 'word\n\n' : 'word ');

function reduceDeltas(n: number): TimelineState {
  let s = reduceTimeline(createTimeline(), { method: 'RunBegin', params: { user_input: 'q' } });
  for (let i = 1; i <= n; i++) s = reduceTimeline(s, { method: 'TextDelta', params: { text: deltaText(i) } });
  return s;
}

export const cases: BenchCase[] = [
  {
    name: `timeline reducer: ${DELTAS.toLocaleString('en')} TextDelta events into one answer`,
    baselineName: 'pushing the same strings onto an array',
    baseline: () => {
      const chunks: string[] = [];
      for (let i = 1; i <= DELTAS; i++) chunks.push(deltaText(i));
      return chunks;
    },
    subject: () => reduceDeltas(DELTAS),
    notes: () => [`reducer work counter: ${(reduceDeltas(DELTAS).work / DELTAS).toFixed(2)} per delta on average`],
  },
];

interface DeltaWork {
  mutations: number;
  reducer: number;
  micros: number;
}

async function streamDeltas({ count }: { count: number }): Promise<DeltaWork[]> {
  const el = document.createElement('pagent-chat') as PagentChat;
  el.style.height = '600px';
  el.frameBatching = false;
  document.body.append(el);
  await el.updateComplete;
  el.push({ method: 'RunBegin', params: { user_input: 'q' } });
  await el.updateComplete;
  const pending: MutationRecord[] = [];
  const observer = new MutationObserver((rs) => pending.push(...rs));
  observer.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true, attributes: true });
  const state = (): { work: number } => (el as unknown as { timeline: { work: number } }).timeline;
  const out: DeltaWork[] = [];
  for (let i = 1; i <= count; i++) {
    const before = state().work;
    const t = performance.now();
    el.push({ method: 'TextDelta', params: { text: i % 50 === 0 ? 'word\n\n' : 'word ' } });
    await el.updateComplete;
    const micros = (performance.now() - t) * 1000;
    out.push({ mutations: pending.splice(0).length + observer.takeRecords().length, reducer: state().work - before, micros });
  }
  observer.disconnect();
  el.remove();
  return out;
}

function block(work: DeltaWork[], end: number): DeltaWork {
  const slice = work.slice(end - 50, end);
  const sum = slice.reduce((a, w) => ({ mutations: a.mutations + w.mutations, reducer: a.reducer + w.reducer, micros: a.micros + w.micros }), {
    mutations: 0,
    reducer: 0,
    micros: 0,
  });
  return { mutations: sum.mutations / 50, reducer: sum.reducer / 50, micros: sum.micros / 50 };
}

const fmt = (w: DeltaWork): string =>
  `${w.mutations.toFixed(2)} DOM mutations, ${w.reducer.toFixed(2)} reducer work, ${w.micros.toFixed(0)} µs per delta`;

export async function run(): Promise<void> {
  const minified = await bundle(true);
  console.log(
    `pagent-chat.js as one IIFE file, every chunk loaded on use inlined (Temml, the highlighter and its languages, ` +
      `the entity table, locales…): ${(minified.length / 1000).toFixed(1)} kB min, ${(gzipSync(minified, { level: 9 }).length / 1000).toFixed(1)} kB min+gzip ` +
      `(what a page loads at once is the budgeted figure: npm run bench size)`,
  );
  const script = await bundle(false);
  await withChromium(async (browser) => {
    const page = await pageWithScript(browser, script);
    const work = await page.evaluate(streamDeltas, { count: DELTAS });
    console.log('<pagent-chat>, one answer with a paragraph every 50 deltas, mean per delta over the 50 deltas ending at:');
    console.log(`  delta 100:    ${fmt(block(work, 100))}`);
    console.log(`  delta 10,000: ${fmt(block(work, DELTAS))}`);
  });
}
