/**
 * Markdown rendering in headless Chromium: the work per delta at the 100th and the 10,000th delta
 * (deterministic counters and observed DOM mutations, plus timings for reference), against the cost a
 * renderer that re-parses the whole answer would pay per delta; and the min+gzip size of the renderer
 * with its parser.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../vite.config.js';

const ENTRY = fileURLToPath(new URL('../src/chat/markdown.ts', import.meta.url));

async function bundle(minify: boolean): Promise<string> {
  const out = (await build({
    configFile: false,
    logLevel: 'silent',
    // iife: Vite keeps whitespace in minified ES library output, which would overstate the size.
    build: { write: false, minify, lib: { entry: ENTRY, formats: ['iife'], name: 'md' } },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const first = Array.isArray(out) ? out[0]! : out;
  const chunk = first.output.find((o) => o.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('markdown bench: no bundle output');
  return chunk.code;
}

interface Work {
  charsParsed: number;
  nodesCreated: number;
  nodesTouched: number;
  mutations: number;
  micros: number;
}

declare global {
  interface Window {
    md: typeof import('../src/chat/markdown.js');
  }
}

/** Runs in the page: streams `count` deltas and returns the work of each. */
function streamDeltas({ kind, count }: { kind: 'mixed' | 'paragraph' | 'code'; count: number }): Work[] {
  const base =
    'Para with *em*, **strong**, `code` and [a link](https://example.com/x).\n\n- one\n- two\n  - nested\n\n' +
    '```\ncode line\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n';
  const cycle = base.padEnd(198, 'z') + '\n\n';
  const delta = (i: number): string =>
    kind === 'mixed'
      ? cycle.slice(((i - 1) % 50) * 4, ((i - 1) % 50) * 4 + 4)
      : kind === 'paragraph'
        ? `word${i % 10} `
        : i === 1
          ? '```\n'
          : `line ${i % 10}\n`;
  const el = document.createElement('div');
  document.body.append(el);
  const stream = window.md.createMarkdownStream(el);
  const observer = new MutationObserver(() => {});
  observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
  // Timer resolution is coarse (often 0.1 ms), so time is taken over blocks of 50 deltas in a
  // separate stream without the observer, and spread over the block's deltas.
  const timed = window.md.createMarkdownStream(document.body.appendChild(document.createElement('div')));
  const blockMicros: number[] = [];
  let start = performance.now();
  for (let i = 1; i <= count; i++) {
    timed.append(delta(i));
    if (i % 50 === 0) {
      const now = performance.now();
      blockMicros.push(((now - start) * 1000) / 50);
      start = now;
    }
  }
  timed.end();
  const work: Work[] = [];
  for (let i = 1; i <= count; i++) {
    const before = { ...stream.stats };
    stream.append(delta(i));
    const micros = blockMicros[Math.floor((i - 1) / 50)] ?? 0;
    let mutations = 0;
    for (const r of observer.takeRecords()) mutations += r.type === 'childList' ? r.addedNodes.length + r.removedNodes.length : 1;
    work.push({
      charsParsed: stream.stats.charsParsed - before.charsParsed,
      nodesCreated: stream.stats.nodesCreated - before.nodesCreated,
      nodesTouched: stream.stats.nodesTouched - before.nodesTouched,
      mutations,
      micros,
    });
  }
  stream.end();
  el.remove();
  return work;
}

/** Runs in the page: what one whole re-render of the answer so far costs at delta `at` (the naive way). */
function reRenderCost({ at }: { at: number }): { micros: number; nodes: number } {
  const base =
    'Para with *em*, **strong**, `code` and [a link](https://example.com/x).\n\n- one\n- two\n  - nested\n\n' +
    '```\ncode line\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n';
  const cycle = base.padEnd(198, 'z') + '\n\n';
  const text = cycle.repeat(Math.ceil((at * 4) / cycle.length)).slice(0, at * 4);
  const el = document.createElement('div');
  document.body.append(el);
  const samples: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    window.md.renderMarkdown(el, text);
    samples.push((performance.now() - t) * 1000);
  }
  const nodes = el.querySelectorAll('*').length;
  el.remove();
  samples.sort((a, b) => a - b);
  return { micros: samples[3]!, nodes };
}

const window50 = (work: Work[], end: number): Work => {
  const slice = work.slice(end - 50, end);
  const total = (k: keyof Work): number => slice.reduce((a, w) => a + w[k], 0);
  return {
    charsParsed: total('charsParsed'),
    nodesCreated: total('nodesCreated'),
    nodesTouched: total('nodesTouched'),
    mutations: total('mutations'),
    micros: slice[slice.length - 1]!.micros,
  };
};

const fmt = (w: Work): string =>
  `chars ${w.charsParsed}, nodes created ${w.nodesCreated}, nodes touched ${w.nodesTouched}, DOM mutations ${w.mutations}` +
  ` (${w.micros.toFixed(1)} µs/delta over that block)`;

export async function run(): Promise<void> {
  const minified = await bundle(true);
  console.log(
    `markdown renderer + streaming-markdown: ${(minified.length / 1024).toFixed(1)} kB min, ` +
      `${(gzipSync(minified, { level: 9 }).length / 1024).toFixed(1)} kB min+gzip`,
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><body></body>');
    // tsx compiles with keepNames, so functions passed to page.evaluate call a `__name` helper.
    await page.addScriptTag({ content: `window.__name = (f) => f;\n${await bundle(false)}\nwindow.md = md;` });
    for (const kind of ['mixed', 'paragraph', 'code'] as const) {
      const work = await page.evaluate(streamDeltas, { kind, count: 10_000 });
      console.log(`incremental, ${kind} answer, per 50 deltas ending at delta 100 vs 10,000:`);
      console.log(`  @100:    ${fmt(window50(work, 100))}`);
      console.log(`  @10,000: ${fmt(window50(work, 10_000))}`);
      const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const blocks = work.filter((_, i) => i % 50 === 49).map((w) => w.micros);
      console.log(
        `  median µs/delta of 50-delta blocks, deltas 1-400 vs 9,601-10,000: ` +
          `${median(blocks.slice(0, 8)).toFixed(1)} vs ${median(blocks.slice(-8)).toFixed(1)}`,
      );
      const total = work.reduce((a, w) => a + w.micros, 0) / 1000;
      console.log(`  all 10,000 deltas: ${total.toFixed(0)} ms (${((total * 1000) / work.length).toFixed(1)} µs/delta)`);
    }
    const at100 = await page.evaluate(reRenderCost, { at: 100 });
    const at10k = await page.evaluate(reRenderCost, { at: 10_000 });
    console.log('baseline, re-rendering the whole answer per delta (mixed, 4-char deltas):');
    console.log(`  @100:    ${at100.micros.toFixed(0)} µs/delta, ${at100.nodes} elements rebuilt`);
    console.log(`  @10,000: ${at10k.micros.toFixed(0)} µs/delta, ${at10k.nodes} elements rebuilt`);
  } finally {
    await browser.close();
  }
}
