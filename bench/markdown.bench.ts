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
 * 4. Pathological inputs (cmark's test/pathological_tests.py, a long table, one long line, link reference
 *    definitions before and after their uses, and a macro bomb of math) at n and 4n, rendered whole and
 *    streamed in deltas of 64 characters (a frame of a fast stream): the time ratio 4n/n, linear being 4.
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

/** A pathological input, built from `n` repetitions of its unit. */
interface Pathological {
  name: string;
  n: number;
  make: (n: number) => string;
}

const lines = (n: number, line: (i: number) => string): string => Array.from({ length: n }, (_, i) => line(i)).join('');
const MATH_BOMB = '$$\\def\\a{\\b\\b\\b\\b}\\def\\b{\\c\\c\\c\\c}\\def\\c{\\d\\d\\d\\d}\\def\\d{\\e\\e\\e\\e}\\def\\e{xxxx}\\a\\a\\a\\a$$\n\n';

const PATHOLOGICAL: Pathological[] = [
  { name: 'nested strong emph', n: 700, make: (n) => '*a **a '.repeat(n) + 'b' + ' a** a*'.repeat(n) },
  { name: 'many emph closers with no openers', n: 3_000, make: (n) => 'a_ '.repeat(n) },
  { name: 'many emph openers with no closers', n: 3_000, make: (n) => '_a '.repeat(n) },
  { name: 'many link closers with no openers', n: 5_000, make: (n) => 'a]'.repeat(n) },
  { name: 'many link openers with no closers', n: 5_000, make: (n) => '[a'.repeat(n) },
  { name: 'mismatched openers and closers', n: 2_500, make: (n) => '*a_ '.repeat(n) },
  { name: 'openers and closers multiple of 3', n: 3_000, make: (n) => 'a**b' + 'c* '.repeat(n) },
  { name: 'link openers and emph closers', n: 2_500, make: (n) => '[ a_'.repeat(n) },
  { name: 'pattern [ (]( repeated', n: 2_000, make: (n) => '[ (]('.repeat(n) },
  { name: 'nested brackets', n: 5_000, make: (n) => '['.repeat(n) + 'a' + ']'.repeat(n) },
  { name: 'nested block quotes', n: 5_000, make: (n) => '> '.repeat(n) + 'a' },
  { name: 'deeply nested lists (n lines, n² characters)', n: 250, make: (n) => lines(n, (i) => `${'  '.repeat(i)}* a\n`) },
  { name: 'backticks (n runs, n² characters)', n: 250, make: (n) => lines(n, (i) => `e${'`'.repeat(i + 1)}`) },
  { name: 'unclosed links A', n: 2_000, make: (n) => '[a](<b'.repeat(n) },
  { name: 'unclosed links B', n: 2_000, make: (n) => '[a](b'.repeat(n) },
  { name: 'link reference definitions, then uses', n: 300, make: (n) => lines(n, (i) => `[${i}]: u\n`) + '\n' + lines(n, (i) => `[${i}] `) },
  { name: 'uses, then link reference definitions', n: 300, make: (n) => lines(n, (i) => `[${i}] `) + '\n\n' + lines(n, (i) => `[${i}]: u\n`) },
  { name: 'long table (rows)', n: 2_000, make: (n) => '| a | b | c |\n|---|---|---|\n' + lines(n, (i) => `| r${i} | ${i} | **x** |\n`) },
  { name: 'one long line (words)', n: 4_000, make: (n) => lines(n, (i) => `${['alpha', 'beta', '**gamma**', '`delta`', 'eps'][i % 5]} `) },
  { name: 'math macro bomb (formulas)', n: 25, make: (n) => MATH_BOMB.repeat(n) },
];

/** Runs in the page: ms to render `text` whole, and streamed in deltas of `delta` characters. */
function renderTimes({ text, delta }: { text: string; delta: number }): { whole: number; streamed: number } {
  const el = document.createElement('div');
  document.body.append(el);
  let t = performance.now();
  window.md.renderMarkdown(el, text);
  const whole = performance.now() - t;
  el.replaceChildren();
  t = performance.now();
  const stream = window.md.createMarkdownStream(el);
  for (let i = 0; i < text.length; i += delta) stream.append(text.slice(i, i + delta));
  stream.end();
  const streamed = performance.now() - t;
  el.remove();
  return { whole, streamed };
}

/** Prints, per pathological input, the time at n and 4n (best of three) and their ratio, whole and streamed. */
async function pathological(page: Page): Promise<void> {
  // the first formula loads the math renderer, so the bomb measures typesetting
  await page.evaluate(() => window.md.renderMarkdown(document.createElement('div'), '$$x$$'));
  await page.waitForTimeout(500);
  console.log('pathological inputs at n and 4n (ms, best of 3; ratio 4n/n, linear = 4), whole | streamed in 64-character deltas:');
  for (const c of PATHOLOGICAL) {
    const best = async (n: number): Promise<{ whole: number; streamed: number }> => {
      const text = c.make(n);
      let r = { whole: Infinity, streamed: Infinity };
      for (let i = 0; i < 3; i++) {
        const x = await page.evaluate(renderTimes, { text, delta: 64 });
        r = { whole: Math.min(r.whole, x.whole), streamed: Math.min(r.streamed, x.streamed) };
      }
      return r;
    };
    const a = await best(c.n);
    const b = await best(4 * c.n);
    const ms = (x: number): string => x.toFixed(1);
    console.log(
      `  ${c.name}, n = ${c.n.toLocaleString('en')} (${c.make(c.n).length.toLocaleString('en')} characters): ` +
        `whole ${ms(a.whole)} → ${ms(b.whole)} ms = ${(b.whole / a.whole).toFixed(2)}x | ` +
        `streamed ${ms(a.streamed)} → ${ms(b.streamed)} ms = ${(b.streamed / a.streamed).toFixed(2)}x`,
    );
  }
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
    await pathological(page);
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
