/**
 * Markdown rendering in headless Chromium.
 *
 * 1. Size: the renderer with its parser (min+gzip), and the lazily loaded entity table.
 * 2. Work per delta of the markdown stream (deterministic counters) at the 100th and 10,000th delta.
 * 3. Growth: main-thread CPU time per update of `<pagent-chat>` (frame batching on, as shipped: one render per
 *    frame), measured with CDP `Performance.getMetrics` (ThreadTime: script, style, layout, paint of
 *    the page's main thread) over a run of streamed deltas, at the start and at the end of a 100 kB
 *    paragraph, a 5,000-line code block, a 1,000-item list, a 500-row table, a 10,000-token answer and a
 *    2,000-run conversation. The ratio end/start is what is compared (same run, same machine).
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import type { CDPSession, Page } from 'playwright-core';
import { bundleIife, pageWithScript, withChromium } from './browser.js';
import type { PagentChat } from '../src/chat/element.js';

const MARKDOWN = fileURLToPath(new URL('../src/chat/markdown.ts', import.meta.url));
const ELEMENT = fileURLToPath(new URL('../src/chat/pagent-chat.ts', import.meta.url));

/** min+gzip of an entry's ES build (the renderer's own chunk and its lazy chunks, separately). */
async function esSizes(entry: string): Promise<Array<[string, number]>> {
  const out = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: true, lib: { entry, formats: ['es'], fileName: 'entry' } },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const first = Array.isArray(out) ? out[0]! : out;
  return first.output
    .filter((o) => o.type === 'chunk')
    .map((o) => [o.fileName, gzipSync((o as Rolldown.OutputChunk).code, { level: 9 }).length]);
}

interface Work {
  charsParsed: number;
  nodesCreated: number;
  nodesTouched: number;
}

declare global {
  interface Window {
    md: typeof import('../src/chat/markdown.js');
    scenario: { el: PagentChat; next: () => string } | undefined;
  }
}

/** Runs in the page: the stream's work counters for each of `count` deltas of a kind. */
function streamWork({ kind, count }: { kind: 'mixed' | 'paragraph' | 'code'; count: number }): Work[] {
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
  const work: Work[] = [];
  for (let i = 1; i <= count; i++) {
    const before = { ...stream.stats };
    stream.append(delta(i));
    work.push({
      charsParsed: stream.stats.charsParsed - before.charsParsed,
      nodesCreated: stream.stats.nodesCreated - before.nodesCreated,
      nodesTouched: stream.stats.nodesTouched - before.nodesTouched,
    });
  }
  stream.end();
  el.remove();
  return work;
}

type Scenario = 'paragraph' | 'code' | 'list' | 'table' | 'answer' | 'math' | 'conversation';

/**
 * Runs in the page: a fresh `<pagent-chat>` (defaults: frame batching on) holding `size` units of the
 * scenario's content already rendered, and a generator of the deltas that continue it.
 */
async function setUp({ scenario, size }: { scenario: Scenario; size: number }): Promise<number> {
  window.scenario?.el.remove();
  const el = document.createElement('pagent-chat') as PagentChat;
  el.style.height = '700px';
  el.style.width = '800px';
  document.body.append(el);
  await el.updateComplete;
  const frame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));
  const END = { content: '', tool_calls: [], reasoning_content: '', usage: null };
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
  let n = 0;
  // Prose as models write it: words, some **bold**, `code` and links, a soft line break every ~12 words.
  const prose = (): string => {
    n += 1;
    const w = words[n % 10]!;
    const piece = n % 37 === 0 ? `**${w}** ` : n % 53 === 0 ? `\`${w}()\` ` : n % 71 === 0 ? `[${w}](https://example.com/${w}) ` : `${w} `;
    return n % 12 === 0 ? `${piece.trimEnd()}\n` : piece;
  };
  const unit: Record<Scenario, () => string> = {
    paragraph: prose,
    answer: () => (++n % 40 === 0 ? 'end.\n\n' : prose()),
    // prose with an inline formula every 9 tokens and a display formula every 40 (math on, as shipped)
    math: () => (++n % 40 === 0 ? `\n\n$$\\sum_{k=1}^{${n % 97}} k^2$$\n\n` : n % 9 === 0 ? `$x_{${n % 97}}^2$ ` : prose()),
    code: () => `    const value${++n} = compute(${n % 97}, "${words[n % 10]}");\n`,
    list: () => `- item ${++n} with *some* text and \`code\`\n`,
    table: () => `| row ${++n} | ${n % 97} | a **bold** note |\n`,
    conversation: prose,
  };
  el.push({ method: 'RunBegin', params: { user_input: 'q' } });
  const head: Record<Scenario, string> = {
    paragraph: 'Start ',
    answer: '',
    math: '',
    code: '```ts\n',
    list: '',
    table: '| name | value | note |\n|---|---:|---|\n',
    conversation: '',
  };
  if (scenario === 'conversation') {
    // `size` earlier runs, each a question and a short answer, then the run that streams
    for (let r = 0; r < size; r++) {
      el.push({ method: 'RunBegin', params: { user_input: `question ${r}` } });
      el.push({ method: 'TextDelta', params: { text: `Answer ${r} with **bold** and \`code\`.` } });
      el.push({ method: 'RunEnd', params: { ...END, content: '', stop_reason: 'no_tool_calls' } });
      if (r % 200 === 199) await frame();
    }
    el.push({ method: 'RunBegin', params: { user_input: 'now' } });
  } else {
    // `size` units of content, pushed in large deltas
    let text = head[scenario];
    for (let i = 0; i < size; i++) {
      text += unit[scenario]();
      if (text.length > 20_000) {
        el.push({ method: 'TextDelta', params: { text } });
        text = '';
        await frame();
      }
    }
    el.push({ method: 'TextDelta', params: { text } });
  }
  for (let i = 0; i < 5; i++) await frame();
  // Deltas of about 4 characters, as token streams come.
  let pending = '';
  const next = (): string => {
    while (pending.length < 4) pending += unit[scenario]();
    const out = pending.slice(0, 4);
    pending = pending.slice(4);
    return out;
  };
  window.scenario = { el, next };
  return el.shadowRoot!.querySelector('[part~="answer-text"]:last-of-type')?.textContent?.length ?? 0;
}

/** Runs in the page: `count` deltas, one per frame (each one render, as a fast stream gives). */
async function streamFrames({ count }: { count: number }): Promise<void> {
  const { el, next } = window.scenario!;
  for (let i = 0; i < count; i++) {
    el.push({ method: 'TextDelta', params: { text: next() } });
    await el.updateComplete;
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  }
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

async function taskDuration(cdp: CDPSession): Promise<number> {
  return (await metrics(cdp))['ThreadTime']!;
}

/** Where one block's time went (ms per update): script, style, layout. */
async function breakdown(page: Page, cdp: CDPSession, perBlock: number): Promise<string> {
  const before = await metrics(cdp);
  await page.evaluate(streamFrames, { count: perBlock });
  const after = await metrics(cdp);
  const per = (k: string): string => (((after[k]! - before[k]!) * 1000) / perBlock).toFixed(2);
  return `script ${per('ScriptDuration')}, style ${per('RecalcStyleDuration')}, layout ${per('LayoutDuration')} ms`;
}

/** Main-thread ms per update over one block of `perBlock` updates. */
async function block(page: Page, cdp: CDPSession, perBlock: number): Promise<number> {
  const before = await taskDuration(cdp);
  await page.evaluate(streamFrames, { count: perBlock });
  return (((await taskDuration(cdp)) - before) * 1000) / perBlock;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Per-update time at the start and at the end state, measured in alternating blocks on two pages (so a
 * change in the machine's load affects both alike): the medians, and the median of the paired ratios.
 */
async function startAndEnd(
  start: { page: Page; cdp: CDPSession },
  end: { page: Page; cdp: CDPSession },
  blocks = 9,
  perBlock = 24,
): Promise<{ start: number; end: number; ratio: number }> {
  await start.page.evaluate(streamFrames, { count: 10 });
  await end.page.evaluate(streamFrames, { count: 10 });
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < blocks; i++) {
    const x = await block(start.page, start.cdp, perBlock);
    const y = await block(end.page, end.cdp, perBlock);
    a.push(x);
    b.push(y);
    ratios.push(y / x);
  }
  return { start: median(a), end: median(b), ratio: median(ratios) };
}

const GROWTH: Array<{ scenario: Scenario; what: string; start: number; end: number; unit: string }> = [
  { scenario: 'paragraph', what: 'one paragraph', start: 150, end: 15_000, unit: 'words (~1 kB → ~100 kB)' },
  { scenario: 'code', what: 'one code block (ts, highlighted)', start: 20, end: 5_000, unit: 'lines' },
  { scenario: 'list', what: 'one list', start: 10, end: 1_000, unit: 'items' },
  { scenario: 'table', what: 'one table', start: 10, end: 500, unit: 'rows' },
  { scenario: 'answer', what: 'one markdown answer', start: 100, end: 10_000, unit: 'tokens' },
  { scenario: 'math', what: 'one answer with math', start: 100, end: 10_000, unit: 'tokens' },
  { scenario: 'conversation', what: 'a conversation', start: 20, end: 2_000, unit: 'runs' },
];

export async function run(): Promise<void> {
  for (const [name, bytes] of await esSizes(MARKDOWN)) {
    console.log(`markdown renderer, ${name}: ${(bytes / 1024).toFixed(1)} kB min+gzip`);
  }
  const mdScript = `${await bundleIife(MARKDOWN, 'md', false)}\nwindow.md = md;`;
  const elementScript = await bundleIife(ELEMENT, 'pagentChat', false);
  await withChromium(async (browser) => {
    const page = await pageWithScript(browser, mdScript);
    for (const kind of ['mixed', 'paragraph', 'code'] as const) {
      const work = await page.evaluate(streamWork, { kind, count: 10_000 });
      const at = (i: number): string => {
        const w = work.slice(i - 50, i).reduce((a, x) => ({
          charsParsed: a.charsParsed + x.charsParsed, nodesCreated: a.nodesCreated + x.nodesCreated, nodesTouched: a.nodesTouched + x.nodesTouched,
        }));
        return `${(w.charsParsed / 50).toFixed(1)} chars parsed, ${(w.nodesCreated / 50).toFixed(2)} nodes created, ${(w.nodesTouched / 50).toFixed(2)} touched`;
      };
      console.log(`stream work per delta (${kind}), mean of 50 deltas ending at 100 | 10,000: ${at(100)} | ${at(10_000)}`);
    }
    await page.close();

    const open = async (): Promise<{ page: Page; cdp: CDPSession }> => {
      const page = await pageWithScript(browser, elementScript);
      await page.setViewportSize({ width: 900, height: 800 });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      return { page, cdp };
    };
    const first = await open();
    const last = await open();
    console.log(
      '<pagent-chat> main-thread time per update (CDP ThreadTime: main-thread CPU time, so other processes on the machine do not count; 9 alternating blocks of 24 one-delta frames ' +
        'on a page at the start and a page at the end; medians, and the median ratio of the paired blocks):',
    );
    for (const g of GROWTH) {
      await first.page.evaluate(setUp, { scenario: g.scenario, size: g.start });
      await last.page.evaluate(setUp, { scenario: g.scenario, size: g.end });
      const r = await startAndEnd(first, last);
      console.log(
        `  ${g.what}, ${g.start.toLocaleString('en')} → ${g.end.toLocaleString('en')} ${g.unit}: ` +
          `${r.start.toFixed(2)} ms → ${r.end.toFixed(2)} ms per update = ${r.ratio.toFixed(2)}x ` +
          `(start: ${await breakdown(first.page, first.cdp, 24)}; end: ${await breakdown(last.page, last.cdp, 24)})`,
      );
    }
  });
}
