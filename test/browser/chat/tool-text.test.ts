/**
 * The default tool card draws long arguments and results a slice at a time: a 10 MB result and 5 MB of
 * arguments put at most TOOL_TEXT_STEP characters of each into the page, "Show more" (keyboard too) draws
 * the next slice, Copy copies the whole text, and the controls speak the element's language.
 */
import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { TOOL_TEXT_STEP } from '../../../src/chat/tool-calls/card.js';
import type { PagentChat } from '../../../src/chat/element.js';
import type { WireEvent } from '../../../src/wire/events.js';
import { $, $$, chatFixture, pushAll, until } from './helpers.js';

/** `n` characters of numbered lines, decoded from JSON as the wire gives them. */
function lines(n: number): string {
  const parts: string[] = [];
  for (let i = 0, length = 0; length < n; i++) {
    const line = `line ${i}: the quick brown fox jumps over the lazy dog\n`;
    parts.push(line);
    length += line.length;
  }
  return (JSON.parse(JSON.stringify(parts.join(''))) as string).slice(0, n);
}

/** JSON arguments of about `n` characters (too long to be shown indented). */
function bigArguments(n: number): string {
  const rows: object[] = [];
  for (let i = 0, length = 0; length < n; i++) {
    const row = { id: i, name: `row ${i}` };
    rows.push(row);
    length += JSON.stringify(row).length + 1;
  }
  return JSON.stringify({ rows });
}

const call = (args: string, content: string): WireEvent[] => [
  { method: 'RunBegin', params: { user_input: 'dump' } },
  { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 'dump', arguments: args } },
  { method: 'ToolResult', params: { tool_call_id: 'a', name: 'dump', content, ok: true } },
];

const section = (el: PagentChat, part: 'tool-arguments' | 'tool-result'): HTMLElement => $(el, `[part="${part}"]`)!.closest<HTMLElement>('.tool-section')!;
const shownLength = (el: PagentChat, part: 'tool-arguments' | 'tool-result'): number => $(el, `[part="${part}"]`)!.textContent!.length;

/** Waits for the controls under the card's long texts (they come with a chunk fetched on first need). */
const controlsShown = (el: PagentChat): Promise<void> => until(() => $(el, '[part="tool-more"]') !== null, 'the Show more and Copy controls');

afterEach(() => vi.restoreAllMocks());

describe('a tool card with long arguments and a long result', () => {
  it('puts a bounded slice of 5 MB of arguments and a 10 MB result into the page, whatever their length', async () => {
    const args = bigArguments(5_000_000);
    const result = lines(10_000_000);
    const el = await chatFixture();
    await pushAll(el, call(args, result));
    // before the controls' chunk is here, and after: one slice of each
    expect(shownLength(el, 'tool-arguments')).toBe(TOOL_TEXT_STEP);
    expect(shownLength(el, 'tool-result')).toBe(TOOL_TEXT_STEP);
    await controlsShown(el);
    const card = $(el, '[part~="tool-call"]')!;
    expect(shownLength(el, 'tool-arguments')).toBe(TOOL_TEXT_STEP);
    expect(shownLength(el, 'tool-result')).toBe(TOOL_TEXT_STEP);
    // the whole card: both slices, the labels and the controls
    expect(card.textContent!.length).toBeLessThan(2 * TOOL_TEXT_STEP + 400);
    // too long to indent: shown as sent
    expect($(el, '[part="tool-arguments"]')!.textContent).toBe(args.slice(0, TOOL_TEXT_STEP));
    expect($(el, '[part="tool-arguments"]')!.dataset['json']).toBe('false');
    expect($(el, '[part="tool-result"]')!.textContent).toBe(result.slice(0, TOOL_TEXT_STEP));
    expect(section(el, 'tool-result').querySelector('[part="tool-shown"]')!.textContent).toBe('Showing 20,000 of 10,000,000 characters');
    expect(section(el, 'tool-arguments').querySelector('[part="tool-shown"]')!.textContent).toBe(
      `Showing 20,000 of ${args.length.toLocaleString('en')} characters`,
    );
    await chaiExpect(el).to.be.accessible();
  });

  it('draws the next slice at each "Show more", from the keyboard too, and keeps the slice while the card updates', async () => {
    const el = await chatFixture();
    await pushAll(el, call('{"q": 1}', lines(10_000_000)));
    await controlsShown(el);
    const more = section(el, 'tool-result').querySelector<HTMLButtonElement>('[part="tool-show-more"]')!;
    expect(more.textContent).toBe('Show more');
    more.focus();
    await userEvent.keyboard('{Enter}');
    await until(() => shownLength(el, 'tool-result') === 2 * TOOL_TEXT_STEP, 'the second slice');
    await userEvent.keyboard(' ');
    await until(() => shownLength(el, 'tool-result') === 3 * TOOL_TEXT_STEP, 'the third slice');
    expect(el.shadowRoot!.activeElement).toBe(more);
    expect(section(el, 'tool-result').querySelector('[part="tool-shown"]')!.textContent).toBe('Showing 60,000 of 10,000,000 characters');
    // an update of the element (more events) keeps what was drawn
    await pushAll(el, [{ method: 'TextDelta', params: { text: 'Done.' } }, { method: 'RunEnd', params: { content: 'Done.', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'no_tool_calls' } }]);
    expect(shownLength(el, 'tool-result')).toBe(3 * TOOL_TEXT_STEP);
    // short arguments have no controls
    expect(section(el, 'tool-arguments').querySelector('[part="tool-more"]')).toBeNull();
  });

  it('once everything is drawn the button goes and focus moves to the text, not to <body>', async () => {
    const result = lines(2 * TOOL_TEXT_STEP + 5);
    const el = await chatFixture();
    await pushAll(el, call('{}', result));
    await controlsShown(el);
    const press = async (): Promise<void> => {
      section(el, 'tool-result').querySelector<HTMLButtonElement>('[part="tool-show-more"]')!.focus();
      await userEvent.keyboard('{Enter}');
    };
    await press();
    await until(() => shownLength(el, 'tool-result') === 2 * TOOL_TEXT_STEP, 'the second slice');
    await press();
    await until(() => shownLength(el, 'tool-result') === result.length, 'all of it');
    expect($(el, '[part="tool-result"]')!.textContent).toBe(result);
    expect(section(el, 'tool-result').querySelector('[part="tool-show-more"]')).toBeNull();
    expect(section(el, 'tool-result').querySelector('[part="tool-shown"]')).toBeNull();
    expect(el.shadowRoot!.activeElement).toBe($(el, '[part="tool-result"]'));
  });

  it('copies the whole text, not the slice drawn', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    const args = bigArguments(5_000_000);
    const result = lines(10_000_000);
    const el = await chatFixture();
    await pushAll(el, call(args, result));
    await controlsShown(el);
    section(el, 'tool-result').querySelector<HTMLButtonElement>('[part="tool-copy"]')!.click();
    await until(() => writeText.mock.calls.length === 1, 'the copy');
    expect(writeText.mock.calls[0]![0].length).toBe(result.length);
    expect(writeText.mock.calls[0]![0] === result).toBe(true);
    await until(() => section(el, 'tool-result').querySelector('[part="tool-copy-status"]')!.textContent === 'Copied', 'the confirmation');
    section(el, 'tool-arguments').querySelector<HTMLButtonElement>('[part="tool-copy"]')!.click();
    await until(() => writeText.mock.calls.length === 2, 'the second copy');
    expect(writeText.mock.calls[1]![0] === args).toBe(true);
  });

  it('never cuts a character in two', async () => {
    const result = `${'a'.repeat(TOOL_TEXT_STEP - 1)}😀${'b'.repeat(TOOL_TEXT_STEP)}`;
    const el = await chatFixture();
    await pushAll(el, call('{}', result));
    expect($(el, '[part="tool-result"]')!.textContent).toBe('a'.repeat(TOOL_TEXT_STEP - 1));
    await controlsShown(el);
    expect($(el, '[part="tool-result"]')!.textContent).toBe('a'.repeat(TOOL_TEXT_STEP - 1));
    section(el, 'tool-result').querySelector<HTMLButtonElement>('[part="tool-show-more"]')!.click();
    await until(() => shownLength(el, 'tool-result') > TOOL_TEXT_STEP, 'the next slice');
    expect($(el, '[part="tool-result"]')!.textContent).toBe(result.slice(0, 2 * TOOL_TEXT_STEP - 1));
  });

  it('speaks Chinese and Japanese, and takes overrides', async () => {
    const result = lines(3 * TOOL_TEXT_STEP);
    for (const [lang, more, shown] of [
      ['zh-CN', '显示更多', '显示 60,000 个字符中的 20,000 个'],
      ['ja', 'さらに表示', '60,000 文字中 20,000 文字を表示'],
    ] as const) {
      const el = await chatFixture((c) => (c.lang = lang));
      await pushAll(el, call('{}', result));
      await until(() => section(el, 'tool-result').querySelector('[part="tool-show-more"]')?.textContent === more, `the ${lang} strings`);
      expect(section(el, 'tool-result').querySelector('[part="tool-shown"]')!.textContent).toBe(shown);
      expect($$(el, '[part="tool-copy"]').map((b) => b.textContent)).toEqual([lang === 'ja' ? 'コピー' : '复制']);
    }
    // and they can be overridden like any other string
    const el = await chatFixture((c) => (c.strings = { showMore: 'More', toolTextShown: '{shown}/{total}' }));
    await pushAll(el, call('{}', result));
    await until(() => section(el, 'tool-result').querySelector('[part="tool-show-more"]')?.textContent === 'More', 'the overridden label');
    expect(section(el, 'tool-result').querySelector('[part="tool-shown"]')!.textContent).toBe('20,000/60,000');
  });
});
