import { expect as chaiExpect, fixture, html } from '@open-wc/testing';
import { describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { PagentChat } from '../../../src/chat/element.js';
import type { WireEvent } from '../../../src/wire/events.js';
import { $, $$, END, chatFixture, pushAll, textRun, until } from './helpers.js';

const SCREENS = '../../../test-results/screens';

/** A conversation that shows most parts: user, reasoning, tools (ok and failed), turns, answer, usage. */
function richRun(input: string, answer: string): WireEvent[] {
  return [
    { method: 'RunBegin', params: { user_input: input } },
    { method: 'TurnBegin', params: { turn: 0 } },
    { method: 'ReasoningDelta', params: { text: 'The user wants the weather in two cities; call the tool for each.' } },
    { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 'get_weather', arguments: '{"city": "Paris", "unit": "celsius"}' } },
    { method: 'ToolResult', params: { tool_call_id: 'a', name: 'get_weather', content: '{"city": "Paris", "temp": 18, "unit": "celsius"}', ok: true, elapsed_ms: 212 } },
    { method: 'ToolCallBegin', params: { tool_call_id: 'b', name: 'explode', arguments: '{"reason": "disk full"}' } },
    { method: 'ToolResult', params: { tool_call_id: 'b', name: 'explode', content: 'explode error: boom: disk full', ok: false, elapsed_ms: 1530 } },
    { method: 'TurnEnd', params: { turn: 0, stopped: false } },
    { method: 'TurnBegin', params: { turn: 1 } },
    { method: 'TextDelta', params: { text: answer } },
    { method: 'RunEnd', params: { ...END, content: answer, usage: { prompt_tokens: 812, completion_tokens: 64, total_tokens: 876 } } },
  ];
}

async function screenshot(el: PagentChat, name: string): Promise<void> {
  await page.viewport(780, 900);
  el.scrollIntoView();
  await el.updateComplete;
  await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  await page.screenshot({ element: el, path: `${SCREENS}/${name}.png` });
}

const bg = (el: PagentChat): string => getComputedStyle(el).backgroundColor;

describe('<pagent-chat> scrolling', () => {
  it('follows the stream at the bottom, stops when scrolled up, and jumps back to latest', async () => {
    const el = await chatFixture((c) => (c.style.height = '300px'));
    for (let i = 0; i < 12; i++) await pushAll(el, textRun(`question ${i}`, [`answer ${i}\n\nwith a second paragraph`]));
    const log = $(el, '[part="timeline"]')!;
    const atBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight <= 24;
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    expect(log.scrollHeight).toBeGreaterThan(log.clientHeight);
    // following happens once per frame, after the browser's own layout
    await until(atBottom, 'the view to follow to the bottom');
    expect($(el, '[part="jump-button"]')).toBeNull();

    log.scrollTop = 0;
    log.dispatchEvent(new Event('scroll'));
    await el.updateComplete;
    await pushAll(el, textRun('more', ['a new answer while scrolled up']));
    await frame();
    expect(log.scrollTop).toBe(0);
    const jump = $<HTMLButtonElement>(el, '[part="jump-button"]')!;
    expect(jump.textContent).toBe('Jump to latest');

    jump.click();
    await until(atBottom, 'the view to reach the bottom');
    await until(() => $(el, '[part="jump-button"]') === null, 'the jump button to go');
    await pushAll(el, textRun('again', ['followed again']));
    await until(atBottom, 'the view to follow again');
    await chaiExpect(el).to.be.accessible();
  });

  it('keeps following when the browser moves the view down as content grows; only a move up stops it', async () => {
    const el = await chatFixture((c) => (c.style.height = '300px'));
    for (let i = 0; i < 6; i++) await pushAll(el, textRun(`question ${i}`, [`answer ${i}\n\nwith a second paragraph`]));
    const log = $(el, '[part="timeline"]')!;
    const atBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight <= 24;
    await until(atBottom, 'the view to follow to the bottom');
    // content grows, and before the view follows it the browser moves it down a little (as scroll
    // anchoring does when something above the end gets taller): still following
    el.push({ method: 'RunBegin', params: { user_input: 'more' } });
    el.push({ method: 'TextDelta', params: { text: 'a long answer\n\n'.repeat(30) } });
    await el.updateComplete;
    log.scrollTop += 5; // the browser's scroll event for it comes with the next frame
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
    await el.updateComplete;
    expect($(el, '[part="jump-button"]')).toBeNull();
    await until(atBottom, 'the view to follow the new content');
    // the reader scrolls up: following stops
    log.scrollTop -= 200; // its scroll event comes with the next frame, as a reader's would
    await until(() => $(el, '[part="jump-button"]') !== null, 'the jump button after a move up');
    expect(atBottom()).toBe(false);
  });

  it('keeps following when its own scroll event arrives after the content grew again', async () => {
    const el = await chatFixture((c) => (c.style.height = '300px'));
    for (let i = 0; i < 6; i++) await pushAll(el, textRun(`question ${i}`, [`answer ${i}`]));
    const log = $(el, '[part="timeline"]')!;
    const atBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight <= 24;
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await until(atBottom, 'the view to follow to the bottom');
    await frame();
    // the content grows; before the view follows it, a scroll event reports the unchanged position
    el.push({ method: 'RunBegin', params: { user_input: 'more' } });
    el.push({ method: 'TextDelta', params: { text: 'a long answer\n\n'.repeat(30) } });
    await el.updateComplete;
    expect(atBottom()).toBe(false);
    log.dispatchEvent(new Event('scroll'));
    await el.updateComplete;
    expect($(el, '[part="jump-button"]')).toBeNull();
    await until(atBottom, 'the view to follow the new content');
  });

  it('a send at the bottom keeps the newest content in view at every layout of the streamed answer (default motion)', async () => {
    const el = await chatFixture((c) => (c.style.height = '300px'));
    for (let i = 0; i < 12; i++) await pushAll(el, textRun(`question ${i}`, [`answer ${i}\n\nwith a second paragraph`]));
    const log = $(el, '[part="timeline"]')!;
    const gap = (): number => log.scrollHeight - log.scrollTop - log.clientHeight;
    await until(() => gap() <= 24, 'the view to follow to the bottom');
    expect(matchMedia('(prefers-reduced-motion: reduce)').matches).toBe(false);
    // an agent that streams its answer a delta per frame
    const deltas = 40;
    el.agent = {
      async *events(input) {
        yield { method: 'RunBegin', params: { user_input: typeof input === 'string' ? input : '' } };
        yield { method: 'TurnBegin', params: { turn: 0 } };
        for (let i = 0; i < deltas; i++) {
          await new Promise((r) => requestAnimationFrame(r));
          yield { method: 'TextDelta', params: { text: `line ${i}\n\n` } };
        }
        yield { method: 'RunEnd', params: { ...END, content: 'done' } };
      },
    };
    // measured after the view's own follow of each layout (resize observers run in the order they were made)
    const gaps: number[] = [];
    const content = log.firstElementChild!;
    const observer = new ResizeObserver(() => gaps.push(gap()));
    observer.observe(content);
    el.send('stream please');
    await until(() => !el.streaming, 'the run to end');
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    observer.disconnect();
    expect(gaps.length).toBeGreaterThan(deltas / 2);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(1);
    expect($(el, '[part="jump-button"]')).toBeNull();
  });

  it('follows without reading layout per update: at most one scroll write per frame', async () => {
    const el = await chatFixture((c) => (c.style.height = '300px'));
    await pushAll(el, textRun('q', ['start']));
    const scroller = el['scroller'] as { follows: number };
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await frame();
    const before = scroller.follows;
    // 200 updates within one frame
    el.push({ method: 'RunBegin', params: { user_input: 'long' } });
    for (let i = 0; i < 200; i++) {
      el.push({ method: 'TextDelta', params: { text: `line ${i}\n\n` } });
      await el.updateComplete;
    }
    await frame();
    expect(scroller.follows - before).toBeGreaterThan(0);
    expect(scroller.follows - before).toBeLessThanOrEqual(3);
    const log = $(el, '[part="timeline"]')!;
    expect(log.scrollHeight - log.scrollTop - log.clientHeight).toBeLessThanOrEqual(24);
  });
});

describe('<pagent-chat> themes', () => {
  it('follows the theme attribute, takes --pagent-* tokens and exposes ::part', async () => {
    const style = document.createElement('style');
    style.textContent = `.themed::part(tool-call) { outline: 3px solid rgb(255, 0, 0); } .tokens { --pagent-color-background: rgb(1, 2, 3); }`;
    document.head.append(style);
    const el = await chatFixture((c) => c.classList.add('themed'));
    await pushAll(el, richRun('Weather?', 'Done.'));
    el.theme = 'light';
    await el.updateComplete;
    expect(bg(el)).toBe('rgb(255, 255, 255)');
    el.theme = 'dark';
    await el.updateComplete;
    expect(el.getAttribute('theme')).toBe('dark');
    expect(bg(el)).toBe('rgb(21, 24, 28)');
    el.theme = 'auto';
    await el.updateComplete;
    expect(bg(el)).toBe(matchMedia('(prefers-color-scheme: dark)').matches ? 'rgb(21, 24, 28)' : 'rgb(255, 255, 255)');
    el.classList.add('tokens');
    expect(bg(el)).toBe('rgb(1, 2, 3)');
    expect(getComputedStyle($(el, '[part~="tool-call"]')!).outlineColor).toBe('rgb(255, 0, 0)');
    style.remove();
  });

  it('gives slotted suggestions a themed chip look that page styles override', async () => {
    const el = await chatFixture((c) => {
      c.theme = 'light';
      c.style.width = '720px';
      c.style.height = '300px';
      for (const [text, label] of [['What is the weather in Tokyo?', 'Weather in Tokyo'], ['Please think first.', 'Show reasoning']] as const) {
        const chip = document.createElement('button');
        chip.slot = 'suggestions';
        chip.dataset['text'] = text;
        chip.textContent = label;
        c.append(chip);
      }
    });
    const [chip, other] = [...el.querySelectorAll<HTMLButtonElement>('[slot="suggestions"]')];
    const style = getComputedStyle(chip!);
    expect(style.borderTopLeftRadius).toBe('999px');
    expect(style.backgroundColor).toBe('rgb(244, 246, 248)');
    expect(style.borderTopColor).toBe('rgb(212, 217, 223)');
    expect(style.cursor).toBe('pointer');
    await screenshot(el, 'suggestions');
    el.theme = 'dark';
    await el.updateComplete;
    expect(getComputedStyle(chip!).backgroundColor).toBe('rgb(31, 36, 42)');
    const page = document.createElement('style');
    page.textContent = `.custom-chip { border-radius: 2px; background: rgb(9, 9, 9); }`;
    document.head.append(page);
    other!.classList.add('custom-chip');
    expect(getComputedStyle(other!).borderTopLeftRadius).toBe('2px');
    expect(getComputedStyle(other!).backgroundColor).toBe('rgb(9, 9, 9)');
    page.remove();
    await chaiExpect(el).to.be.accessible();
  });

  it('keeps visible focus on controls', async () => {
    const el = await chatFixture();
    const input = $<HTMLTextAreaElement>(el, '[part="input"]')!;
    input.focus();
    expect(el.shadowRoot!.activeElement).toBe(input);
    const send = $<HTMLButtonElement>(el, '[part="send-button"]')!;
    send.focus();
    expect(getComputedStyle(send, null).outlineStyle === 'solid' || send.matches(':focus')).toBe(true);
  });
});

describe('<pagent-chat> locales', () => {
  it('uses zh-CN and ja from lang, inherits an ancestor lang, and takes string overrides', async () => {
    const zh = await chatFixture((c) => (c.lang = 'zh-CN'));
    expect($(zh, '[part="send-button"]')!.textContent).toBe('发送');
    expect($(zh, '[part="input"]')!.getAttribute('aria-label')).toBe('消息');
    const wrap = await fixture<HTMLDivElement>(html`<div lang="ja-JP"><pagent-chat></pagent-chat></div>`);
    const ja = wrap.querySelector('pagent-chat')!;
    await ja.updateComplete;
    expect($(ja, '[part="send-button"]')!.textContent).toBe('送信');
    expect($(ja, '[part="new-button"]')!.textContent).toBe('新しい会話');
    const custom = await chatFixture((c) => (c.strings = { send: 'Go', placeholder: 'Ask me' }));
    expect($(custom, '[part="send-button"]')!.textContent).toBe('Go');
    expect($(custom, '[part="input"]')!.getAttribute('placeholder')).toBe('Ask me');
    expect($(custom, '[part="new-button"]')!.textContent).toBe('New conversation');
  });
});

describe('<pagent-chat> screenshots of the main states', () => {
  it('light: a conversation with reasoning, tools, turns, answer and usage', async () => {
    const el = await chatFixture((c) => {
      c.theme = 'light';
      c.style.height = '860px';
      c.style.width = '720px';
    });
    await pushAll(el, richRun('What is the weather in Paris? Also run the explode tool.', 'It is **18 °C** in Paris.\n\nThe `explode` tool failed: *disk full*.'));
    expect(bg(el)).toBe('rgb(255, 255, 255)');
    expect($$(el, '[part~="tool-call"]').map((n) => n.dataset['status'])).toEqual(['ok', 'failed']);
    expect($(el, '[part="usage"]')!.textContent).toBe('812 in · 64 out · 876 tokens');
    expect($<HTMLDetailsElement>(el, '[part="reasoning"]')!.open).toBe(false);
    await screenshot(el, 'light');
  });

  it('dark: the same conversation', async () => {
    const el = await chatFixture((c) => {
      c.theme = 'dark';
      c.style.height = '860px';
      c.style.width = '720px';
    });
    await pushAll(el, richRun('What is the weather in Paris? Also run the explode tool.', 'It is **18 °C** in Paris.\n\nThe `explode` tool failed: *disk full*.'));
    expect(bg(el)).toBe('rgb(21, 24, 28)');
    await screenshot(el, 'dark');
  });

  it('zh-CN: labels and text in Chinese', async () => {
    const el = await chatFixture((c) => {
      c.lang = 'zh-CN';
      c.theme = 'light';
      c.style.height = '760px';
      c.style.width = '720px';
    });
    await pushAll(el, richRun('巴黎今天天气怎么样？', '巴黎现在 **18 °C**，晴。\n\n`explode` 工具失败了：磁盘已满。'));
    expect($$(el, '[part="tool-status"]').map((n) => n.textContent)).toEqual(['完成', '失败']);
    expect($(el, '[part="send-button"]')!.textContent).toBe('发送');
    await screenshot(el, 'zh-CN');
  });

  it('ja: labels and text in Japanese, streaming with the stop button', async () => {
    const el = await chatFixture((c) => {
      c.lang = 'ja';
      c.theme = 'light';
      c.style.height = '760px';
      c.style.width = '720px';
      c.agent = {
        events: (input) =>
          (async function* () {
            yield* richRun(input as string, '').slice(0, 9);
            yield { method: 'TextDelta', params: { text: 'パリは現在 **18 °C** で晴れです。\n\n' } } as WireEvent;
            yield { method: 'TextDelta', params: { text: '`explode` ツールは失敗しました' } } as WireEvent;
            await new Promise(() => undefined);
          })(),
      };
    });
    el.send('パリの天気は？');
    await until(() => $(el, '[part="stop-button"]') !== null && $$(el, '[part~="tool-call"]').length === 2, 'the streaming state');
    await until(() => ($(el, '[part~="answer-text"]')?.textContent ?? '').includes('パリは現在'), 'the answer');
    expect($(el, '[part="stop-button"]')!.textContent).toBe('停止');
    expect($(el, '[part="timeline"]')!.getAttribute('aria-busy')).toBe('true');
    expect($$(el, '[part="tool-status"]').map((n) => n.textContent)).toEqual(['完了', '失敗']);
    await screenshot(el, 'ja');
    el.stop();
  });

  it('streaming reasoning: the reasoning block is open while it streams', async () => {
    const el = await chatFixture((c) => {
      c.theme = 'light';
      c.style.height = '300px';
      c.style.width = '720px';
    });
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'Is 1,000,003 prime?' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'ReasoningDelta', params: { text: 'Check small divisors first: not even, digit sum 4 so not divisible by 3, ' } },
      { method: 'ReasoningDelta', params: { text: 'does not end in 0 or 5; try 7, 11, 13…' } },
    ]);
    const details = $<HTMLDetailsElement>(el, '[part="reasoning"]')!;
    expect(details.open).toBe(true);
    expect(details.querySelector('summary')!.textContent).toBe('Thinking…');
    await screenshot(el, 'reasoning-streaming');
  });

  it('a tool failure: a failed card with its error result', async () => {
    const el = await chatFixture((c) => {
      c.theme = 'light';
      c.style.height = '360px';
      c.style.width = '720px';
    });
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'Run the explode tool' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'e', name: 'explode', arguments: '{"reason": "disk full"}' } },
      { method: 'ToolResult', params: { tool_call_id: 'e', name: 'explode', content: 'explode error: boom: disk full', ok: false, elapsed_ms: 87 } },
    ]);
    const card = $(el, '[part~="tool-call"]')!;
    expect(card.dataset['status']).toBe('failed');
    expect(card.querySelector('[part="tool-result"]')!.textContent).toBe('explode error: boom: disk full');
    await screenshot(el, 'tool-failure');
  });

  it('an error: a failed run with its message and retry, after a stopped partial answer', async () => {
    const el = await chatFixture((c) => {
      c.theme = 'light';
      c.style.height = '460px';
      c.style.width = '720px';
      c.client = { stream: () => (async function* () {})() };
    });
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'Write a long story' } },
      { method: 'TextDelta', params: { text: 'Once upon a time, in a quiet village,' } },
      { method: 'RunEnd', params: { ...END, content: 'Once upon a time, in a quiet village,', stop_reason: 'cancelled' } },
      { method: 'RunBegin', params: { user_input: 'Try again please' } },
      { method: 'RunError', params: { message: 'Rate limit reached for gpt-4o-mini. Try again in 20s.', code: 'http', status: 429, where: 'llm' } },
      { method: 'RunEnd', params: { ...END, stop_reason: 'error' } },
    ]);
    expect($(el, '[part="stopped"]')!.textContent).toBe('Stopped');
    expect($(el, '[part="error"] .error-message')!.textContent).toBe('Rate limit reached for gpt-4o-mini. Try again in 20s.');
    expect($(el, '[part="retry-button"]')).not.toBeNull();
    await screenshot(el, 'error');
  });

  it('a code block: the language and a copy button in a header above the code, never over it, at any width', async () => {
    for (const [theme, width] of [['light', 720], ['dark', 720], ['light', 375]] as const) {
      const el = await chatFixture((c) => {
        c.theme = theme;
        c.style.height = '420px';
        c.style.width = `${width}px`;
      });
      const answer = 'Sum a list in Python:\n\n```python\ndef total(xs):\n    return sum(xs)\n```\n\nCall `total([1, 2])`.';
      await pushAll(el, textRun('How do I sum a list?', [answer]));
      const block = $(el, '[part~="code-block"]')!;
      const button = block.querySelector<HTMLButtonElement>('[part~="copy-button"]')!;
      const label = block.querySelector('[part~="code-language"]')!;
      expect(button.getAttribute('aria-label')).toBe('Copy code');
      expect(label.textContent).toBe('python');
      expect(getComputedStyle(button).opacity).toBe('1');
      expect(button.tabIndex).toBe(0);
      const b = button.getBoundingClientRect();
      const code = block.querySelector('code')!.getBoundingClientRect();
      // above the code, not over it, and small
      expect(b.bottom).toBeLessThanOrEqual(code.top);
      expect(b.height).toBeLessThan(32);
      expect(label.getBoundingClientRect().right).toBeLessThan(b.left);

      // the message actions (a chunk) are in the tab order too: wait for them so it stays put
      await until(() => $$(el, '[part="message-actions"]').length > 0, 'the message actions');
      $<HTMLTextAreaElement>(el, '[part="input"]')!.focus();
      button.focus();
      await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
      await userEvent.keyboard('{Tab}');
      expect(el.shadowRoot!.activeElement).toBe(button);
      expect(button.matches(':focus-visible')).toBe(true);
      expect(getComputedStyle(button).outlineStyle).toBe('solid');
      expect(getComputedStyle(button).outlineColor).toBe(theme === 'light' ? 'rgb(11, 92, 213)' : 'rgb(110, 168, 255)');
      await screenshot(el, `code-block-${theme}-${width}`);
      await chaiExpect(el).to.be.accessible();
    }
  });
});

describe('<pagent-chat> conversation list', () => {
  const LONG = 'What is the weather in Tokyo, and should I take an umbrella to the evening concert in Shibuya?';
  const stored = [
    { id: 's1', title: LONG, messages: [{ role: 'user' as const, content: 'Weather in Tokyo?' }, { role: 'assistant' as const, content: 'It is **21 °C** and dry; no umbrella needed.' }] },
    { id: 's2', title: 'Please think before you answer', messages: [{ role: 'user' as const, content: 'Think first.' }, { role: 'assistant' as const, content: 'Done thinking.' }] },
    { id: 's3', title: undefined, messages: [{ role: 'user' as const, content: 'Hello' }, { role: 'assistant' as const, content: 'Hi!' }] },
  ];
  /** A small in-memory store with the list/load/rename/delete the element uses. */
  // written yesterday, the day before, and on 5 March 2021
  const DAY = 24 * 3600 * 1000;
  const updated = [Date.now() - DAY, Date.now() - 2 * DAY, Date.UTC(2021, 2, 5, 12)];
  const memoryStore = () => ({
    list: async () => stored.map(({ id, title, messages }, i) => ({ id, title, messageCount: messages.length, updatedAt: updated[i] })),
    load: async (id: string) => stored.find((x) => x.id === id),
    rename: async () => undefined,
    delete: async () => undefined,
  });

  async function listFixture(theme: 'light' | 'dark', width: number): Promise<PagentChat> {
    const el = await chatFixture((c) => {
      c.theme = theme;
      c.style.height = '420px';
      c.style.width = `${width}px`;
      c.store = memoryStore();
    });
    await until(() => $$(el, '[part="session"]').length === 3, 'the conversation list');
    $$<HTMLButtonElement>(el, '[part="session-open"]')[0]!.click();
    await until(() => $(el, '[part~="answer-text"]') !== null, 'the opened conversation');
    await el.updateComplete;
    return el;
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: a row per conversation with its title over its date, the open one marked, long titles cut with the full title kept`, async () => {
      const el = await listFixture(theme, 720);
      const rows = $$(el, '[part="session"]');
      const opens = $$<HTMLButtonElement>(el, '[part="session-open"]');
      const titles = $$(el, '[part="session-title"]');
      expect(titles.map((t) => t.textContent)).toEqual([LONG, 'Please think before you answer', 'Untitled']);
      expect(opens.map((b) => b.title)).toEqual([LONG, 'Please think before you answer', 'Untitled']);
      expect(rows.map((r) => r.getAttribute('aria-current'))).toEqual(['true', null, null]);
      // issue 10, item 16: dates, in the element's locale
      const short = (t: number, o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en', o).format(new Date(t));
      expect($$(el, '[part="session-date"]').map((d) => d.textContent)).toEqual([
        new Date(updated[0]!).getFullYear() === new Date().getFullYear() ? short(updated[0]!, { month: 'short', day: 'numeric' }) : short(updated[0]!, { year: 'numeric', month: 'short', day: 'numeric' }),
        new Date(updated[1]!).getFullYear() === new Date().getFullYear() ? short(updated[1]!, { month: 'short', day: 'numeric' }) : short(updated[1]!, { year: 'numeric', month: 'short', day: 'numeric' }),
        'Mar 5, 2021',
      ]);
      expect($$(el, '[part="session-rename"]').map((b) => b.getAttribute('aria-label'))).toEqual([
        'Rename “What is the weather in Tokyo, and should…”',
        'Rename “Please think before you answer”',
        'Rename “Untitled”',
      ]);
      expect($$(el, '[part="session-delete"]').map((b) => b.getAttribute('aria-label'))).toEqual([
        'Delete “What is the weather in Tokyo, and should…”',
        'Delete “Please think before you answer”',
        'Delete “Untitled”',
      ]);

      // the title has the row's whole width: a 30-character title is not cut (issue 10, item 16: it showed ~14)
      expect(titles[1]!.scrollWidth).toBeLessThanOrEqual(titles[1]!.clientWidth);
      expect(titles[0]!.scrollWidth).toBeGreaterThan(titles[0]!.clientWidth);
      expect(getComputedStyle(titles[0]!).textOverflow).toBe('ellipsis');
      // the date sits under the title, the small icon buttons at the right of the date line
      const first = rows[0]!.getBoundingClientRect();
      const title = titles[0]!.getBoundingClientRect();
      const date = $$(el, '[part="session-date"]')[0]!.getBoundingClientRect();
      const rename = $$(el, '[part="session-rename"]')[0]!.getBoundingClientRect();
      const del = $$(el, '[part="session-delete"]')[0]!.getBoundingClientRect();
      expect(first.height).toBeLessThan(64);
      expect(date.top).toBeGreaterThanOrEqual(title.bottom - 1);
      expect(Math.abs(rename.top + rename.height / 2 - (date.top + date.height / 2))).toBeLessThan(5);
      expect(del.left).toBeGreaterThan(rename.left);
      expect(first.right - del.right).toBeLessThan(8);
      expect(rename.width).toBeLessThanOrEqual(28);
      expect(rename.height).toBeGreaterThanOrEqual(24);

      // visible focus on the icon buttons, from the keyboard
      opens[0]!.focus();
      await userEvent.keyboard('{Tab}');
      const focused = el.shadowRoot!.activeElement as HTMLElement;
      expect(focused.getAttribute('part')).toBe('session-rename');
      expect(focused.matches(':focus-visible')).toBe(true);
      expect(getComputedStyle(focused).outlineStyle).toBe('solid');
      await screenshot(el, `sessions-${theme}`);
      await chaiExpect(el).to.be.accessible();
    });
  }

  it('narrow: the list sits above the timeline, a few rows high, and the timeline keeps most of the height', async () => {
    const el = await listFixture('light', 400);
    const list = $(el, '[part="session-list"]')!.getBoundingClientRect();
    const timeline = $(el, '[part="timeline"]')!.getBoundingClientRect();
    expect(list.width).toBeGreaterThan(360);
    expect(timeline.width).toBeGreaterThan(360);
    expect(timeline.top).toBeGreaterThanOrEqual(list.bottom - 1);
    expect(list.height).toBeLessThan(130);
    expect(timeline.height).toBeGreaterThan(list.height);
    expect($(el, '[part~="answer-text"]')!.textContent).toContain('no umbrella needed');
    await screenshot(el, 'sessions-narrow');
    el.theme = 'dark';
    await el.updateComplete;
    await screenshot(el, 'sessions-narrow-dark');
    await chaiExpect(el).to.be.accessible();

    // renaming from the keyboard: the title field takes focus with the title selected
    $$<HTMLButtonElement>(el, '[part="session-rename"]')[1]!.click();
    await el.updateComplete;
    const input = $<HTMLInputElement>(el, '[part="session-title-input"]')!;
    expect(el.shadowRoot!.activeElement).toBe(input);
    expect(input.value).toBe('Please think before you answer');
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, input.value.length]);
    await screenshot(el, 'sessions-narrow-rename');
    await userEvent.keyboard('{Escape}');
    await el.updateComplete;
    expect($(el, '[part="session-title-input"]')).toBeNull();
  });

  it('zh-CN and ja: the icon buttons are named in the locale', async () => {
    for (const [lang, rename, del] of [
      ['zh-CN', '重命名“Please think before you answer”', '删除“Please think before you answer”'],
      ['ja', '「Please think before you answer」の名前を変更', '「Please think before you answer」を削除'],
    ] as const) {
      const el = await chatFixture((c) => {
        c.lang = lang;
        c.store = memoryStore();
      });
      await until(() => $$(el, '[part="session"]').length === 3, 'the conversation list');
      expect($$(el, '[part="session-rename"]')[1]!.getAttribute('aria-label')).toBe(rename);
      expect($$(el, '[part="session-delete"]')[1]!.getAttribute('aria-label')).toBe(del);
    }
  });
});
