/**
 * Render cost of one streamed markdown answer in `<pagent-chat>` against deep-chat 2.4.2 (pinned
 * devDependency), in headless Chromium, each element on its own page (its own renderer process).
 *
 * Both get the same tokens (prose with **bold**, `code`, links, a line break every 12 tokens and a new
 * paragraph every 40), one token per animation frame: `<pagent-chat>` gets `RunBegin` then one
 * `TextDelta` per token (frame batching on, as shipped); deep-chat gets a user message through
 * `submitUserMessage`, then its `connect` handler in stream mode gets `signals.onOpen()` and one
 * `signals.onResponse({ text })` per token, which appends the token to the streamed message. After each
 * token the page waits for the next animation frame and then a task (`setTimeout(0)`), so each token
 * arrives in a task of its own between frames, as a network chunk does, and is rendered in the next
 * frame: one token and one render per frame in both.
 *
 * Measured: main-thread time of each page over the whole stream, from CDP `Performance.getMetrics`
 * before and after (ThreadTime: main-thread CPU time, so other processes on the machine do not count;
 * TaskDuration: time the main thread spent in tasks), read at checkpoints of the same stream. The same
 * loop on a blank page with no element gives what the frames cost alone; it is printed, and subtracted
 * in one line of net figures.
 * deep-chat re-renders its whole message per token, so it is measured to 2,000 tokens only (10,000 takes
 * minutes of CPU time); its cost at 10,000 is extrapolated from 1,000 and 2,000 and printed as such.
 */
import { fileURLToPath } from 'node:url';
import type { CDPSession, Page } from 'playwright-core';
import { bundleIife, pageWithScript, withChromium } from './browser.js';
import type { PagentChat } from '../src/chat/element.js';

const PAGENT = fileURLToPath(new URL('../src/chat/pagent-chat.ts', import.meta.url));
const DEEP_CHAT = fileURLToPath(new URL('../node_modules/deep-chat/dist/deepChat.bundle.js', import.meta.url));

const BASELINE_TOKENS = 1_000;
const PAGENT_CHECKPOINTS = [1_000, 2_000, 10_000];
const DEEP_CHAT_CHECKPOINTS = [1_000, 2_000];

interface DeepChatSignals {
  onOpen: () => void;
  onResponse: (response: { text: string }) => Promise<void>;
  onClose: () => void;
}

interface DeepChatElement extends HTMLElement {
  connect?: { stream: boolean; handler: (body: unknown, signals: DeepChatSignals) => void };
  chatStyle?: Record<string, string>;
  submitUserMessage: (content: { text: string }) => void;
}

declare global {
  interface Window {
    benchToken: (i: number) => string;
    benchPagent: PagentChat | undefined;
    benchDeepChat: { el: DeepChatElement; signals: DeepChatSignals } | undefined;
  }
}

/** Runs in the page: installs the token generator both elements are fed from. */
function installTokens(): void {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
  window.benchToken = (i: number): string => {
    if (i % 40 === 0) return 'end.\n\n';
    const w = words[i % 10]!;
    const piece = i % 37 === 0 ? `**${w}** ` : i % 53 === 0 ? `\`${w}()\` ` : i % 71 === 0 ? `[${w}](https://example.com/${w}) ` : `${w} `;
    return i % 12 === 0 ? `${piece.trimEnd()}\n` : piece;
  };
}

const nextFrame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));

/** Runs in the page: a `<pagent-chat>` 800×700 with a run begun, ready for its answer. */
async function setUpPagent(): Promise<void> {
  const el = document.createElement('pagent-chat') as PagentChat;
  el.style.height = '700px';
  el.style.width = '800px';
  document.body.append(el);
  await el.updateComplete;
  el.push({ method: 'RunBegin', params: { user_input: 'q' } });
  await el.updateComplete;
  for (let i = 0; i < 5; i++) await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  window.benchPagent = el;
}

/** Runs in the page: tokens `from`..`to` into `<pagent-chat>`, one `TextDelta` per animation frame. */
async function streamPagent({ from, to }: { from: number; to: number }): Promise<number> {
  const el = window.benchPagent!;
  for (let i = from; i <= to; i++) {
    el.push({ method: 'TextDelta', params: { text: window.benchToken(i) } });
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
    await new Promise((r) => setTimeout(r, 0));
  }
  await el.updateComplete;
  return el.shadowRoot!.querySelector('[part~="answer-text"]:last-of-type')?.textContent?.length ?? 0;
}

/** Runs in the page: a deep-chat 800×700 in stream mode, its handler called for a user message. */
async function setUpDeepChat(): Promise<void> {
  const el = document.createElement('deep-chat') as DeepChatElement;
  el.style.height = '700px';
  el.style.width = '800px';
  el.chatStyle = { height: '700px', width: '800px' };
  const opened = new Promise<DeepChatSignals>((resolve) => {
    el.connect = {
      stream: true,
      handler: (_body, signals) => {
        signals.onOpen();
        resolve(signals);
      },
    };
  });
  document.body.append(el);
  for (let i = 0; i < 5; i++) await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  el.submitUserMessage({ text: 'q' });
  const signals = await opened;
  for (let i = 0; i < 5; i++) await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  window.benchDeepChat = { el, signals };
}

/** Runs in the page: tokens `from`..`to` into deep-chat, one `signals.onResponse({ text })` per animation frame. */
async function streamDeepChat({ from, to }: { from: number; to: number }): Promise<number> {
  const { el, signals } = window.benchDeepChat!;
  for (let i = from; i <= to; i++) {
    await signals.onResponse({ text: window.benchToken(i) });
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
    await new Promise((r) => setTimeout(r, 0));
  }
  // length of the last message's text as deep-chat shows it (the streamed answer)
  const bubbles = el.shadowRoot!.querySelectorAll('.message-bubble');
  return bubbles[bubbles.length - 1]?.textContent?.length ?? 0;
}

/** Runs in the page: the same loop with no element (tokens appended to a string): what the frames cost alone. */
async function streamNothing({ from, to }: { from: number; to: number }): Promise<number> {
  let text = '';
  for (let i = from; i <= to; i++) {
    text += window.benchToken(i);
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
    await new Promise((r) => setTimeout(r, 0));
  }
  return text.length;
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

interface Checkpoint {
  tokens: number;
  threadMs: number;
  taskMs: number;
  wallMs: number;
  textLength: number;
}

/** Streams up to each checkpoint in turn, reading the page's main-thread time (cumulative) at each. */
async function measure(
  page: Page,
  stream: (range: { from: number; to: number }) => Promise<number>,
  checkpoints: number[],
): Promise<Checkpoint[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const start = await metrics(cdp);
  const t0 = performance.now();
  const out: Checkpoint[] = [];
  let from = 1;
  for (const to of checkpoints) {
    const textLength = await page.evaluate(stream, { from, to });
    const now = await metrics(cdp);
    out.push({
      tokens: to,
      threadMs: (now['ThreadTime']! - start['ThreadTime']!) * 1000,
      taskMs: (now['TaskDuration']! - start['TaskDuration']!) * 1000,
      wallMs: performance.now() - t0,
      textLength,
    });
    from = to + 1;
  }
  return out;
}

const ms = (x: number): string => `${Math.round(x).toLocaleString('en')} ms`;

function print(name: string, points: Checkpoint[]): void {
  let prev = { tokens: 0, threadMs: 0 };
  for (const p of points) {
    const per = (p.threadMs - prev.threadMs) / (p.tokens - prev.tokens);
    console.log(
      `  ${name}, ${p.tokens.toLocaleString('en')} tokens: main thread ${ms(p.threadMs)} (CDP ThreadTime), ` +
        `tasks ${ms(p.taskMs)} (TaskDuration), wall ${ms(p.wallMs)}; ` +
        `${per.toFixed(2)} ms per token over tokens ${(prev.tokens + 1).toLocaleString('en')}–${p.tokens.toLocaleString('en')}; ` +
        `text shown: ${p.textLength.toLocaleString('en')} chars`,
    );
    prev = p;
  }
}

export async function run(): Promise<void> {
  const pagentScript = await bundleIife(PAGENT, 'pagentChat', false);
  const deepChatScript = await bundleIife(DEEP_CHAT, 'deepChat', false);
  await withChromium(async (browser) => {
    console.log(
      `Chromium ${browser.version()}; one markdown answer streamed one token per animation frame, ` +
        'main-thread time of the page from the first token (cumulative at each checkpoint):',
    );
    const blank = await pageWithScript(browser, '');
    await blank.setViewportSize({ width: 900, height: 800 });
    await blank.evaluate(installTokens);
    const [loop] = await measure(blank, streamNothing, [BASELINE_TOKENS]);
    await blank.close();
    const frameMs = loop!.threadMs / BASELINE_TOKENS;
    console.log(
      `  the loop alone (blank page, no element, ${BASELINE_TOKENS.toLocaleString('en')} frames): main thread ${ms(loop!.threadMs)}, ` +
        `${frameMs.toFixed(2)} ms per frame (included in the figures below)`,
    );
    const pagentPage = await pageWithScript(browser, pagentScript);
    await pagentPage.setViewportSize({ width: 900, height: 800 });
    await pagentPage.evaluate(installTokens);
    await pagentPage.evaluate(setUpPagent);
    const pagent = await measure(pagentPage, streamPagent, PAGENT_CHECKPOINTS);
    await pagentPage.close();
    print('<pagent-chat>', pagent);

    const deepPage = await pageWithScript(browser, deepChatScript);
    await deepPage.setViewportSize({ width: 900, height: 800 });
    await deepPage.evaluate(installTokens);
    await deepPage.evaluate(setUpDeepChat);
    const deep = await measure(deepPage, streamDeepChat, DEEP_CHAT_CHECKPOINTS);
    await deepPage.close();
    print('deep-chat 2.4.2', deep);

    // Growth: the ratio of the cost at 2,000 to that at 1,000 (2 = linear, 4 = quadratic), and an
    // extrapolation to 10,000 from a fit a·n + b·n² through the two measured points.
    const at = (points: Checkpoint[], n: number): number => points.find((p) => p.tokens === n)!.threadMs;
    const [d1, d2] = [at(deep, 1_000), at(deep, 2_000)];
    const [p1, p2, p10] = [at(pagent, 1_000), at(pagent, 2_000), at(pagent, 10_000)];
    const b = Math.max(0, (d2 - 2 * d1) / (2_000 * 2_000 - 2 * 1_000 * 1_000));
    const a = (d1 - b * 1_000 * 1_000) / 1_000;
    const d10 = a * 10_000 + b * 10_000 * 10_000;
    console.log(
      `  growth from 1,000 to 2,000 tokens (2x = linear, 4x = quadratic): deep-chat ${(d2 / d1).toFixed(2)}x, ` +
        `<pagent-chat> ${(p2 / p1).toFixed(2)}x; <pagent-chat> 1,000 → 10,000: ${(p10 / p1).toFixed(2)}x`,
    );
    const net = (x: number, n: number): string => ms(x - frameMs * n);
    console.log(
      `  less the loop alone (${frameMs.toFixed(2)} ms per frame): <pagent-chat> ${net(p1, 1_000)} | ${net(p2, 2_000)} | ${net(p10, 10_000)} ` +
        `at 1,000 | 2,000 | 10,000 tokens; deep-chat ${net(d1, 1_000)} | ${net(d2, 2_000)} at 1,000 | 2,000`,
    );
    console.log(
      `  deep-chat / <pagent-chat> main-thread time (measured): ${(d1 / p1).toFixed(1)}x at 1,000 tokens, ${(d2 / p2).toFixed(1)}x at 2,000`,
    );
    console.log(
      `  deep-chat at 10,000 tokens, EXTRAPOLATED (not measured) from a·n + b·n² through its 1,000 and 2,000 figures: ` +
        `${ms(d10)}, ${(d10 / p10).toFixed(0)}x <pagent-chat>'s measured ${ms(p10)}`,
    );
  });
}
