import { expect as chaiExpect } from '@open-wc/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { $, $$, END, chatFixture, pushAll, shadow } from './helpers.js';

declare global {
  interface Window {
    __pwned?: number;
  }
}

const EVIL = 'evil.example';
const PAYLOADS = [
  `<script>window.__pwned = 1</script>`,
  `<img src="https://${EVIL}/img.png" onerror="window.__pwned = 2">`,
  `<svg onload="window.__pwned = 3"><use href="https://${EVIL}/x.svg#a"/></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=4"></style></mglyph></table></mtext></math>`,
  `<a href="javascript:window.__pwned=5">click</a> javascript:window.__pwned=5`,
  `<a href="jav&#x09;ascript:window.__pwned=6">x</a> <a href="javascript&colon;window.__pwned=6">y</a>`,
  `<meta http-equiv="refresh" content="0;url=https://${EVIL}/">`,
  `<base href="https://${EVIL}/">`,
  `<form id="attributes"><input name="nodeName"></form><img name="getElementById">`,
  `</style><style>*{background:url(https://${EVIL}/css.png) !important}</style>`,
  `<iframe src="https://${EVIL}/frame"></iframe>`,
  `"><img src=x onerror=window.__pwned=7>`,
].join('\n');

const MARKDOWN_PAYLOADS = [
  `[a](javascript:window.__pwned=8) [b](jav&#x09;ascript:window.__pwned=9) [c](javascript&colon;x) [d]( java\tscript:x)`,
  `[e](data:text/html,<script>window.__pwned=10</script>) [f](vbscript:msgbox)`,
  `![img](https://${EVIL}/md.png)`,
  `<script>window.__pwned=11</script> <img src="https://${EVIL}/raw.png">`,
].join('\n\n');

const FORBIDDEN = 'script, img, svg, math, iframe, meta, base, form:not([part="composer"]), style, object, embed, link';
let resources: string[] = [];
let observer: PerformanceObserver;

beforeAll(() => {
  observer = new PerformanceObserver((list) => resources.push(...list.getEntries().map((e) => e.name)));
  observer.observe({ type: 'resource', buffered: true });
});
afterAll(() => observer.disconnect());

describe('<pagent-chat> with hostile content in every field', () => {
  it('runs nothing, loads nothing, navigates nowhere and leaves page globals alone', async () => {
    resources = [];
    const href = location.href;
    const baseURI = document.baseURI;
    const globals = Object.keys(window).length;
    const el = await chatFixture((c) => (c.wireLog = true));
    // the page runs the message itself: it takes pagent-send and pushes the run's events
    el.addEventListener('pagent-send', (e) => e.preventDefault());
    el.send(PAYLOADS);
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: PAYLOADS } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'ReasoningDelta', params: { text: PAYLOADS } },
      { method: 'TextDelta', params: { text: MARKDOWN_PAYLOADS } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'x', name: PAYLOADS, arguments: PAYLOADS } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'y', name: 'ok', arguments: JSON.stringify({ html: PAYLOADS }) } },
      { method: 'ToolResult', params: { tool_call_id: 'x', name: PAYLOADS, content: PAYLOADS, ok: false } },
      { method: 'ToolResult', params: { tool_call_id: 'y', name: 'ok', content: PAYLOADS } },
      { method: 'TurnEnd', params: { turn: 0, stopped: false } },
      { method: 'TurnBegin', params: { turn: 1 } },
      { method: 'RunError', params: { message: PAYLOADS, code: PAYLOADS, where: PAYLOADS } },
      { method: 'RunEnd', params: { ...END, stop_reason: 'error' } },
    ]);
    await new Promise((r) => setTimeout(r, 300));

    expect(window.__pwned).toBeUndefined();
    expect(location.href).toBe(href);
    expect(document.baseURI).toBe(baseURI);
    expect(Object.keys(window).length).toBe(globals);
    expect(resources.filter((r) => r.includes(EVIL))).toEqual([]);
    expect(document.querySelector('meta[http-equiv], base')).toBeNull();

    const root = shadow(el);
    expect([...root.querySelectorAll(FORBIDDEN)].map((n) => n.outerHTML)).toEqual([]);
    for (const a of root.querySelectorAll('a')) {
      const url = a.getAttribute('href');
      if (url !== null) expect(new URL(url, location.href).protocol).toMatch(/^(https?|mailto):$/);
    }
    expect([...root.querySelectorAll('*')].filter((n) => [...n.attributes].some((at) => at.name.startsWith('on')))).toEqual([]);

    // the text is shown as text, field by field
    expect($(el, '[part~="user"]')!.textContent!.trim()).toBe(PAYLOADS);
    expect($(el, '[part="reasoning-text"]')!.textContent).toBe(PAYLOADS);
    expect($$(el, '[part="tool-name"]')[0]!.textContent).toBe(PAYLOADS);
    expect($$(el, '[part="tool-arguments"]')[0]!.textContent).toBe(PAYLOADS);
    expect($$(el, '[part="tool-result"]').map((n) => n.textContent)).toEqual([PAYLOADS, PAYLOADS]);
    expect($(el, '[part="error"] .error-message')!.textContent).toBe(PAYLOADS);
    const answer = $(el, '[part~="answer-text"]')!.textContent!;
    expect(answer).toContain('<script>window.');
    expect(answer).toContain(`<img src="https://${EVIL}/raw.png">`);
    await chaiExpect(el).to.be.accessible();
  });

  it('shows hostile file names and text-file contents as text, sent and reopened from a store', async () => {
    resources = [];
    const { createSessionStore } = await import('../../../src/store/session-store.js');
    const el = await chatFixture();
    el.addEventListener('pagent-send', (e) => e.preventDefault());
    const names = PAYLOADS.split('\n');
    const dt = new DataTransfer();
    for (const name of names) dt.items.add(new File([PAYLOADS], `${name}.txt`, { type: 'text/plain' }));
    const input = $<HTMLInputElement>(el, 'input[type="file"]')!;
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
    for (let i = 0; i < 300 && $$(el, '[part~="attachment-preview"]').length < names.length; i++) await new Promise((r) => setTimeout(r, 10));
    expect($$(el, '[part~="attachment-preview"] .attachment-name').map((n) => n.textContent)).toEqual(names.map((n) => `${n}.txt`));
    let sent: readonly { part: unknown }[] = [];
    el.addEventListener('pagent-send', (e) => (sent = e.detail.attachments ?? []));
    $<HTMLButtonElement>(el, '[part~="send-button"]')!.click();
    await el.updateComplete;
    // the contents stay in the text parts, never in the DOM
    expect(sent).toHaveLength(names.length);
    const store = createSessionStore({ name: `hostile-${crypto.randomUUID()}` });
    await store.append('h', [
      { role: 'user', content: [...sent.map((a) => a.part as never), { type: 'file', file: { filename: PAYLOADS, file_data: 'data:application/pdf;base64,JVBERg==' } }] },
      { role: 'assistant', content: 'ok' },
    ]);
    const reopened = await chatFixture((c) => (c.store = store));
    for (let i = 0; i < 300 && $$(reopened, '[part~="session-open"]').length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    $<HTMLButtonElement>(reopened, '[part~="session-open"]')!.click();
    for (let i = 0; i < 300 && $$(reopened, '[part~="attachment-chip"]').length < names.length + 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect($$(reopened, '[part~="attachment-chip"] .attachment-name').map((n) => n.textContent)).toEqual([...names.map((n) => `${n}.txt`), PAYLOADS]);
    await new Promise((r) => setTimeout(r, 200));
    // the session list's own icons are aria-hidden SVGs; nothing else may be markup
    const forbidden = FORBIDDEN.replace('svg', 'svg:not([aria-hidden="true"])');
    for (const root of [shadow(el), shadow(reopened)]) {
      expect([...root.querySelectorAll(forbidden)].map((n) => n.outerHTML)).toEqual([]);
      expect([...root.querySelectorAll('*')].filter((n) => [...n.attributes].some((at) => at.name.startsWith('on')))).toEqual([]);
      expect([...root.querySelectorAll('[part~="message-text"]')].map((n) => n.textContent)).toEqual([]);
    }
    expect(window.__pwned).toBeUndefined();
    expect(resources.filter((r) => r.includes(EVIL))).toEqual([]);
    store.close();
  });

  it('loads a markdown image only when allowImage accepts it', async () => {
    resources = [];
    const asked: string[] = [];
    const el = await chatFixture((c) => {
      c.allowImage = (url) => {
        asked.push(url.href);
        return false;
      };
    });
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'img' } },
      { method: 'TextDelta', params: { text: `![pic](https://${EVIL}/allowed.png)\n` } },
      { method: 'RunEnd', params: { ...END } },
    ]);
    expect(asked).toEqual([`https://${EVIL}/allowed.png`]);
    expect($$(el, 'img')).toEqual([]);
  });
});
