/**
 * A lazily loaded chunk that cannot be fetched (offline, a deploy that removed it) loses nothing: code
 * stays plain text, a formula keeps its TeX source, and once the network is back the next code block or
 * formula loads it. The failure is a real one: the runner's browser refuses the chunk's request.
 */
import { html } from 'lit';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { commands } from 'vitest/browser';
import { RemoteAgent } from '../../../src/agent/remote/remote-agent.js';
import { renderMarkdown } from '../../../src/chat/markdown.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { TOOL_TEXT_STEP } from '../../../src/chat/tool-calls/card.js';
import { $, $$, chatFixture, pushAll, textRun, until } from './helpers.js';

const HIGHLIGHTER = '**/src/chat/markdown/highlighter.ts*';
const MATH = '**/src/chat/markdown/math-render.ts*';
const ACTIONS = '**/src/chat/message-actions/controller.ts*';
const ATTACHMENTS = '**/src/chat/attachments/lazy.ts*';
const CHINESE = '**/src/chat/locales/zh-CN.ts*';
const QUESTIONS = '**/src/chat/questions/lazy.ts*';
const RENDERERS = '**/src/chat/tool-calls/renderers.ts*';
const TOOL_TEXT = '**/src/chat/tool-calls/text.ts*';
const SLICES = '**/src/chat/slices/text-feed.ts*';
const LIST = '**/src/chat/conversations/list-lazy.ts*';
const FILES = '**/src/chat/files/lazy.ts*';
const SRC_CLIENT = '**/src/chat/runs/src-client.ts*';

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
  for (const glob of [HIGHLIGHTER, MATH, ACTIONS, ATTACHMENTS, CHINESE, QUESTIONS, RENDERERS, TOOL_TEXT, SLICES, LIST, FILES, SRC_CLIENT]) await commands.setOffline(glob, false);
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
    const refused = requests('message-actions/controller');

    // renders meanwhile do not ask again and again: automatic tries wait (or wait for the browser's online event)
    for (let i = 0; i < 5; i++) {
      el.requestUpdate();
      await el.updateComplete;
    }
    expect(requests('message-actions/controller')).toBe(refused);

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

  it("dismisses an agent's question while the question part cannot be fetched (the run goes on), and asks with a form once it can", async () => {
    await commands.setOffline(QUESTIONS, true);
    const agent = new RemoteAgent({ url: `${inject('apiUrl')}/remote/ag-ui`, protocol: 'ag-ui' });
    const el = await chatFixture((c) => (c.agent = agent));
    el.send('Please ask me');
    await until(() => $$(el, '[part~="answer-text"]').at(-1)?.textContent === 'Cancelled.' && !el.streaming, "the agent's answer to the dismissed question");
    expect(requests('questions/lazy')).toBe(1);
    expect($(el, '[part~="question"]')).toBeNull();
    await commands.setOffline(QUESTIONS, false);
    el.send('Please ask me');
    await until(() => $(el, '[part~="question"]')?.dataset['status'] === 'asked', 'the form, fetched again');
    expect(requests('questions/lazy')).toBe(2);
    $<HTMLButtonElement>(el, '[part="question-dismiss"]')!.click();
    await until(() => !el.streaming, 'the run to end');
  });

  it('shows tool calls as default cards while the renderers chunk cannot be fetched, then as the page draws them', async () => {
    await commands.setOffline(RENDERERS, true);
    const el = await chatFixture((c) => (c.renderers = { get_weather: (call) => html`<b class="drawn">${call.status}</b>` }));
    await until(() => requests('tool-calls/renderers') >= 1, 'the renderers chunk asked for');
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'w' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 'get_weather', arguments: '{"city": "Paris"}' } },
    ]);
    await settle();
    expect($$(el, '[part~="tool-call"]').map((n) => n.querySelector('[part="tool-name"]')?.textContent)).toEqual(['get_weather']);
    expect($(el, '.drawn')).toBeNull();
    await commands.setOffline(RENDERERS, false);
    window.dispatchEvent(new Event('online'));
    el.requestUpdate();
    await until(() => $(el, '.drawn') !== null, 'the page\'s rendering, once the chunk is here');
    expect($(el, '.drawn')!.textContent).toBe('pending');
    expect($(el, '[part="tool-name"]')).toBeNull();
    expect(requests('tool-calls/renderers')).toBe(2);
  });

  it("draws one slice of a tool card's long result while its controls' chunk cannot be fetched, and Show more once it can", async () => {
    await commands.setOffline(TOOL_TEXT, true);
    const result = 'x'.repeat(3 * TOOL_TEXT_STEP);
    const el = await chatFixture();
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'w' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 'dump', arguments: '{}' } },
      { method: 'ToolResult', params: { tool_call_id: 'a', name: 'dump', content: result, ok: true } },
    ]);
    await until(() => requests('tool-calls/text') >= 1, 'the controls chunk asked for');
    await settle();
    expect($(el, '[part="tool-result"]')!.textContent!.length).toBe(TOOL_TEXT_STEP);
    expect($(el, '[part="tool-show-more"]')).toBeNull();
    await commands.setOffline(TOOL_TEXT, false);
    window.dispatchEvent(new Event('online'));
    el.requestUpdate();
    await until(() => $(el, '[part="tool-show-more"]') !== null, 'Show more, once the chunk is here');
    $<HTMLButtonElement>(el, '[part="tool-show-more"]')!.click();
    await until(() => $(el, '[part="tool-result"]')!.textContent!.length === 2 * TOOL_TEXT_STEP, 'the next slice');
    expect(requests('tool-calls/text')).toBe(2);
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

  it('shows the conversation while the list and files panel cannot be fetched, and both once they can', async () => {
    await commands.setOffline(LIST, true);
    await commands.setOffline(FILES, true);
    const store = { list: async () => [{ id: 'a', title: 'Stored one', createdAt: 1, updatedAt: 1, messageCount: 2 }], load: async () => undefined, rename: async () => undefined, delete: async () => undefined };
    const workspace = { files: async () => [{ path: 'notes.md', size: 12 }], file: async () => new Blob(['x']), delete: async () => undefined };
    const el = await chatFixture((c) => {
      c.store = store;
      c.workspace = workspace;
    });
    await pushAll(el, textRun('q', ['the answer']));
    await until(() => requests('conversations/list-lazy') >= 1 && requests('files/lazy') >= 1, 'both chunks asked for');
    await settle();
    expect($(el, '[part="session-list"]')).toBeNull();
    expect($(el, '[part="files"]')).toBeNull();
    expect($(el, '[part~="answer-text"]')!.textContent).toBe('the answer');
    await commands.setOffline(LIST, false);
    await commands.setOffline(FILES, false);
    window.dispatchEvent(new Event('online'));
    el.requestUpdate();
    await until(() => $(el, '[part="session-list"]')?.textContent?.includes('Stored one') === true, 'the list, fetched again');
    await until(() => $(el, '[part="files"]')?.textContent?.includes('notes.md') === true, 'the files panel, fetched again');
  });

  it('fails a message to src with a network error card while its client cannot be fetched, and the next message fetches it', async () => {
    await commands.setOffline(SRC_CLIENT, true);
    const line = (method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n';
    const step = { content: 'Hi', tool_calls: [], reasoning_content: '', usage: null };
    const run = [line('RunBegin', { user_input: 'Q2' }), line('TextDelta', { text: 'Hi' }), line('RunEnd', { ...step, stop_reason: 'no_tool_calls' })];
    const src = `${inject('apiUrl')}/wire/recorded/${crypto.randomUUID()}?s=${encodeURIComponent(JSON.stringify([{ headers: { 'Content-Type': 'application/x-ndjson' }, chunks: run }]))}`;
    const el = await chatFixture((c) => (c.src = src));
    const codes: string[] = [];
    el.addEventListener('pagent-error', (e) => codes.push(e.detail.error.code));
    el.send('Q');
    await until(() => $(el, '[part~="error"]') !== null && !el.streaming, 'the error card');
    expect(codes).toEqual(['network']);
    expect($(el, '[part~="error-details"]')!.textContent).toContain('could not be loaded');
    expect($$(el, '[part~="user"]').map((u) => u.textContent!.trim())).toEqual(['Q']);

    await commands.setOffline(SRC_CLIENT, false);
    el.send('Q2');
    await until(() => !el.streaming && $$(el, '[part~="answer-text"]').map((a) => a.textContent).join() === 'Hi', 'the answer, once the client loaded');
    expect(requests('runs/src-client')).toBeGreaterThanOrEqual(2);
  });
});
