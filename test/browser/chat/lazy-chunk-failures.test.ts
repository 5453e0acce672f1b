/**
 * A lazily loaded chunk that cannot be fetched (offline, a deploy that removed it) loses nothing: code
 * stays plain text, a formula keeps its TeX source, and once the network is back the next code block or
 * formula loads it. The failure is a real one: the runner's browser refuses the chunk's request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { renderMarkdown } from '../../../src/chat/markdown.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { $, $$, chatFixture, pushAll, textRun, until } from './helpers.js';

const HIGHLIGHTER = '**/src/chat/markdown/highlighter.ts*';
const MATH = '**/src/chat/markdown/math-render.ts*';
const ACTIONS = '**/src/chat/actions/message-actions.ts*';
const ATTACHMENTS = '**/src/chat/attachments/lazy.ts*';
const CHINESE = '**/src/chat/locales/zh-CN.ts*';
const SLICES = '**/src/chat/slices/text-feed.ts*';

/** How many times the page asked for a chunk, by its path under src/chat (a refused request is listed too). */
const requests = (path: string): number =>
  performance.getEntriesByType('resource').filter((e) => e.name.includes(`/src/chat/${path}.ts`)).length;

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
};

function render(text: string): HTMLElement {
  const el = document.createElement('div');
  document.body.append(el);
  renderMarkdown(el, text);
  return el;
}

const tokens = (el: Element): number => el.querySelectorAll('span[class^="pagent-hl-"]').length;

afterEach(async () => {
  for (const glob of [HIGHLIGHTER, MATH, ACTIONS, ATTACHMENTS, CHINESE, SLICES]) await commands.setOffline(glob, false);
});

/** Pastes `file` into the message box, as a browser does with a copied file. */
function pasteFile(el: PagentChat, file: File): void {
  const data = new DataTransfer();
  data.items.add(file);
  const box = $<HTMLTextAreaElement>(el, 'textarea')!;
  box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true }));
}

describe('a lazy chunk that cannot be fetched', () => {
  it('leaves code plain and formulas as source, and loads on the next block once the network is back', async () => {
    await commands.setOffline(HIGHLIGHTER, true);
    await commands.setOffline(MATH, true);
    const code = 'const a = 1; // one\nlet b = "two";';
    const offline = render(`\`\`\`ts\n${code}\n\`\`\`\n\nEuler: $e^{i\\pi}+1=0$.\n`);
    await until(() => requests('markdown/highlighter') >= 1 && requests('markdown/math-render') >= 1, 'both chunks asked for');
    await settle();
    expect(offline.querySelector('code')!.textContent).toBe(`${code}\n`);
    expect(tokens(offline)).toBe(0);
    expect([...offline.querySelectorAll('[part~="math"]')].map((s) => s.textContent)).toEqual(['$e^{i\\pi}+1=0$']);
    expect(offline.querySelector('math')).toBeNull();

    await commands.setOffline(HIGHLIGHTER, false);
    await commands.setOffline(MATH, false);
    const online = render(`\`\`\`ts\n${code}\n\`\`\`\n\n$x^2$\n`);
    await until(() => tokens(online) > 0, 'the highlighter, fetched again');
    await until(() => online.querySelector('math') !== null, 'the math renderer, fetched again');
    expect(online.querySelector('code')!.textContent).toBe(`${code}\n`);
    // each chunk was asked for twice: the refused request, then the one that loaded it
    expect(requests('markdown/highlighter')).toBe(2);
    expect(requests('markdown/math-render')).toBe(2);
    // the block shown while offline stays plain, whole and never half coloured; the formula shown as source
    // is typeset once the renderer is here
    expect(offline.querySelector('code')!.textContent).toBe(`${code}\n`);
    expect(tokens(offline)).toBe(0);
    await until(() => offline.querySelector('math') !== null, 'the formula shown while offline, typeset');
    offline.remove();
    online.remove();
  });

  it('an element whose actions and attachment parts cannot be fetched says so in its language, keeps the text, and recovers', async () => {
    await commands.setOffline(ACTIONS, true);
    await commands.setOffline(ATTACHMENTS, true);
    const el = await chatFixture((c) => c.setAttribute('lang', 'ja'));
    await until(() => $(el, '[part~="attach-button"]')?.getAttribute('aria-label') === 'ファイルを添付', 'the Japanese strings');
    await pushAll(el, textRun('質問', ['答え']));
    const box = $<HTMLTextAreaElement>(el, 'textarea')!;
    box.value = '下書き';
    const file = new File(['# メモ\n'], 'memo.md', { type: 'text/markdown' });
    pasteFile(el, file);
    await until(() => $(el, '[part~="attachment-error"]') !== null, 'the notice');
    expect($(el, '[part~="attachment-error"]')!.getAttribute('role')).toBe('alert');
    expect($(el, '[part~="attachment-error"]')!.textContent!.trim()).toBe(
      '現在ファイルを添付できません。チャットのこの部分を読み込めませんでした。接続を確認してから、もう一度追加してください。',
    );
    expect(box.value).toBe('下書き');
    await settle();
    // the answer shows without its actions: they come with the chunk that could not be fetched
    expect($$(el, '[part~="answer-text"]').map((a) => a.textContent!.trim())).toEqual(['答え']);
    expect($$(el, '[part="message-copy-button"]')).toHaveLength(0);
    const refused = requests('actions/message-actions');

    // renders meanwhile do not ask again and again: automatic tries wait (or wait for the browser's online event)
    for (let i = 0; i < 5; i++) {
      el.requestUpdate();
      await el.updateComplete;
    }
    expect(requests('actions/message-actions')).toBe(refused);

    await commands.setOffline(ACTIONS, false);
    await commands.setOffline(ATTACHMENTS, false);
    window.dispatchEvent(new Event('online'));
    el.requestUpdate();
    await until(() => $$(el, '[part="message-copy-button"]').length === 2, 'the actions, fetched again');
    pasteFile(el, file);
    await until(() => $$(el, '[part~="attachment-preview"]').length === 1, 'the file, attached this time');
    expect($(el, '[part~="attachment-error"]')).toBeNull();
    expect(box.value).toBe('下書き');
  });

  it('shows English while the Chinese strings cannot be fetched, then Chinese once they can', async () => {
    await commands.setOffline(CHINESE, true);
    const el = await chatFixture((c) => c.setAttribute('lang', 'zh-CN'));
    await until(() => requests('locales/zh-CN') >= 1, 'the Chinese strings asked for');
    await settle();
    expect($(el, '[part~="attach-button"]')!.getAttribute('aria-label')).toBe('Attach files');
    await commands.setOffline(CHINESE, false);
    window.dispatchEvent(new Event('online'));
    el.requestUpdate();
    await until(() => $(el, '[part~="attach-button"]')!.getAttribute('aria-label') === '添加附件', 'the Chinese label');
    expect(requests('locales/zh-CN')).toBe(2);
  });

  it('draws an answer too big for one task at once when the slice queue cannot be fetched, rather than not at all', async () => {
    await commands.setOffline(SLICES, true);
    const text = '## A long answer\n\n' + 'A paragraph of *words* that goes on.\n\n'.repeat(4000);
    const el = await chatFixture();
    await pushAll(el, textRun('q', [text]));
    await until(() => requests('slices/text-feed') >= 1, 'the chunk asked for');
    const answer = $(el, '[part~="answer-text"]')!;
    await until(() => !answer.hasAttribute('aria-busy'), 'the answer drawn');
    expect($$(el, '[part~="answer-text"] p')).toHaveLength(4000);
    expect(answer.querySelector('h2')!.textContent).toBe('A long answer');
  });
});
