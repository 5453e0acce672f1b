// The conversation list's search, export and import, against a real IndexedDB store in Chromium.
import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { PagentChat } from '../../../src/chat/element.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { $, $$, chatFixture, until } from './helpers.js';

const SCREENS = '../../../test-results/screens';
const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function filler(n: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < n; i++) out.push({ role: 'user', content: `question ${i} about nothing much` }, { role: 'assistant', content: `answer ${i}, long enough to take a line.` });
  return out;
}

async function put(store: SessionStore, id: string, title: string, updatedAt: number, messages: ChatMessage[]): Promise<void> {
  await store.import(JSON.stringify({
    format: 'pagent-web/session', version: 1, id, title, createdAt: updatedAt, updatedAt,
    session: { version: 1, kind: 'session', systemPrompt: undefined, messages },
  }));
}

/** Three conversations; "long" has its hit (日本語) deep down, far from the bottom and the top. */
async function seededStore(): Promise<SessionStore> {
  const store = createSessionStore({ name: `conv-ui-${crypto.randomUUID()}` });
  stores.push(store);
  await put(store, 'long', 'Travel notes', 3000, [
    ...filler(12),
    { role: 'user', content: 'How do I say thank you in 日本語?' },
    { role: 'assistant', content: 'ありがとう (arigatō).' },
    ...filler(12),
  ]);
  await put(store, 'hostile', '<img src=x onerror=alert(1)> Weather', 2000, [
    { role: 'user', content: 'weather please' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Kyoto"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: '{"sky":"sunny 日本語"}' },
  ]);
  await put(store, 'greet', '问候', 1000, [{ role: 'user', content: '你好世界' }, { role: 'assistant', content: 'Hello world' }]);
  return store;
}

async function listFixture(setup?: (el: PagentChat) => void) {
  const store = await seededStore();
  const el = await chatFixture((c) => {
    c.store = store;
    setup?.(c);
  });
  await until(() => $(el, '[part="session-search"]') !== null && $$(el, '[part="session"]').length === 3, 'the list and its search field');
  return { el, store, field: $<HTMLInputElement>(el, '[part="session-search"]')! };
}

async function type(field: HTMLInputElement, text: string): Promise<void> {
  field.focus();
  await userEvent.fill(field, text);
}

const hits = (el: PagentChat) => $$<HTMLElement>(el, '[part="search-hit"]');
const status = (el: PagentChat) => $(el, '.session-list [role="status"]')!.textContent!.trim();

async function screenshot(el: PagentChat, name: string): Promise<void> {
  await page.viewport(780, 900);
  el.scrollIntoView();
  await el.updateComplete;
  await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  await page.screenshot({ element: el, path: `${SCREENS}/${name}.png` });
}

describe('searching the conversation list', () => {
  it('shows hits with the match in a <mark> (built from text) and announces how many', async () => {
    const { el, field } = await listFixture();
    await type(field, '日本語');
    await until(() => hits(el).length === 2, 'two hits');
    expect(status(el)).toBe('2 conversations found');
    expect(hits(el).map((h) => h.dataset['sessionId'])).toEqual(['long', 'hostile']);
    const marks = hits(el).map((h) => h.querySelector('mark')!.textContent);
    expect(marks).toEqual(['日本語', '日本語']);
    expect(hits(el)[0]!.querySelector('[part="search-snippet"]')!.textContent).toBe('How do I say thank you in 日本語?');
    // a hostile title is text, never markup
    expect(hits(el)[1]!.querySelector('[part="session-title"]')!.textContent).toBe('<img src=x onerror=alert(1)> Weather');
    expect(el.shadowRoot!.querySelector('img')).toBeNull();
    await type(field, 'WEATHER');
    await until(() => status(el) === '1 conversation found', 'a title hit');
    expect(hits(el)[0]!.querySelector('[part="session-title"] mark')!.textContent).toBe('Weather');
    await type(field, 'zzz-nothing');
    await until(() => status(el) === 'No conversations found', 'no hit');
    await chaiExpect(el).to.be.accessible();
  });

  it('says "Searching…" while a search reads the store, keeping the last results until the new ones are in', async () => {
    const store = await seededStore();
    // the store's own search, held until the test lets it go (a search that reads many conversations)
    let release = (): void => undefined;
    const slow: SessionStore = {
      ...store,
      search: async (query, options) => {
        await new Promise<void>((r) => (release = r));
        return store.search(query, options);
      },
    };
    const el = await chatFixture((c) => (c.store = slow));
    await until(() => $(el, '[part="session-search"]') !== null, 'the search field');
    const field = $<HTMLInputElement>(el, '[part="session-search"]')!;
    await type(field, '日本語');
    await until(() => $(el, '[part="search-progress"]') !== null, 'the progress line');
    expect($(el, '[part="search-progress"]')!.textContent!.trim()).toBe('Searching…');
    expect(hits(el)).toHaveLength(0);
    release();
    await until(() => hits(el).length === 2 && $(el, '[part="search-progress"]') === null, 'the hits');
    await type(field, 'WEATHER');
    await until(() => $(el, '[part="search-progress"]') !== null, 'the progress line again');
    expect(hits(el)).toHaveLength(2); // the last results, marked busy
    expect($(el, '#conv-results')!.getAttribute('aria-busy')).toBe('true');
    release();
    await until(() => hits(el).length === 1 && $(el, '[part="search-progress"]') === null, 'the new hit');
    expect($(el, '#conv-results')!.getAttribute('aria-busy')).toBe('false');
  });

  it('walks the results with the arrow keys, opens one with Enter at its message, and clears with Escape', async () => {
    const { el, field } = await listFixture((c) => (c.style.height = '360px'));
    await type(field, '日本語');
    await until(() => hits(el).length === 2, 'two hits');
    await userEvent.keyboard('{ArrowDown}');
    await el.updateComplete;
    expect(hits(el)[0]!.getAttribute('aria-selected')).toBe('true');
    expect(field.getAttribute('aria-activedescendant')).toBe(hits(el)[0]!.id);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    await el.updateComplete;
    expect(field.getAttribute('aria-activedescendant')).toBe(hits(el)[0]!.id); // wraps around
    await userEvent.keyboard('{ArrowUp}');
    await el.updateComplete;
    expect(hits(el)[1]!.getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    // the long conversation opens at message 24 (the 13th user message), in view and marked
    await until(() => $(el, '[data-hit]') !== null, 'the marked message');
    const hit = $<HTMLElement>(el, '[data-hit]')!;
    expect(hit.textContent).toContain('How do I say thank you in 日本語?');
    expect(hit.getAttribute('part')).toContain('user');
    const inView = (): boolean => {
      const box = hit.getBoundingClientRect();
      const view = $(el, '[part="timeline"]')!.getBoundingClientRect();
      return box.top >= view.top && box.bottom <= view.bottom;
    };
    await until(inView, 'the marked message in view');
    // and it stays there (nothing scrolls the view back to the newest message)
    await new Promise((r) => setTimeout(r, 100));
    expect(inView()).toBe(true);
    expect(el.shadowRoot!.activeElement).toBe(hit);
    expect($(el, '[part="session"][aria-current="true"]')).toBeNull(); // the results still show
    field.focus();
    await userEvent.keyboard('{Escape}');
    await el.updateComplete;
    expect(field.value).toBe('');
    expect(hits(el)).toHaveLength(0);
    expect($(el, '[part="session"][aria-current="true"]')!.dataset['sessionId']).toBe('long');
  });

  it('opens a hit in another version of a conversation at that version, and keeps it as the active path', async () => {
    const { el, store, field } = await listFixture();
    // "greet" gets a second answer beside "Hello world" (a regenerate): the new one is the active path
    const { head } = await store.append('greet', [{ role: 'assistant', content: 'Bonjour le monde' }], { parent: 0 });
    expect((await store.load('greet'))!.messages.map((m) => m.content)).toEqual(['你好世界', 'Bonjour le monde']);
    await type(field, 'hello world');
    await until(() => hits(el).length === 1, 'the hit in the older version');
    hits(el)[0]!.click();
    await until(() => $(el, '[data-hit]') !== null, 'the marked answer');
    expect($(el, '[data-hit]')!.textContent).toContain('Hello world');
    expect(el.shadowRoot!.textContent).not.toContain('Bonjour le monde');
    // the store's active path is the version shown, so the agent continues from it
    const loaded = (await store.load('greet'))!;
    expect(loaded.messages.map((m) => m.content)).toEqual(['你好世界', 'Hello world']);
    expect(loaded.seqs).toEqual([0, 1]);
    expect(head).toBe(2);
  });

  it('opens a tool result hit at its tool card', async () => {
    const { el, field } = await listFixture();
    await type(field, 'sunny');
    await until(() => hits(el).length === 1, 'one hit');
    hits(el)[0]!.click();
    await until(() => $(el, '[data-hit]') !== null, 'the marked card');
    expect($(el, '[data-hit]')!.getAttribute('part')).toContain('tool-call');
  });

  it('only the newest query updates the list: an older, slower search is aborted', async () => {
    const store = await seededStore();
    const started: string[] = [];
    const settled: string[] = [];
    const aborted: string[] = [];
    const slow: SessionStore = Object.create(store, {
      search: {
        value: async (q: string, o: { signal?: AbortSignal }) => {
          started.push(q);
          if (q === 'hello') {
            await new Promise((r) => setTimeout(r, 400));
            if (o.signal?.aborted) aborted.push(q);
            settled.push(q);
          }
          return store.search(q, o);
        },
      },
    }) as SessionStore;
    const el = await chatFixture((c) => (c.store = slow));
    await until(() => $(el, '[part="session-search"]') !== null, 'the field');
    const field = $<HTMLInputElement>(el, '[part="session-search"]')!;
    await type(field, 'hello');
    await until(() => started.includes('hello'), 'the slow search to start');
    await type(field, '你好');
    await until(() => hits(el).length === 1, 'the newest results');
    await until(() => settled.includes('hello'), 'the slow search to end');
    expect(aborted).toEqual(['hello']);
    expect(hits(el).map((h) => h.dataset['sessionId'])).toEqual(['greet']);
    expect(status(el)).toBe('1 conversation found');
  });

  it('speaks Chinese and Japanese', async () => {
    for (const [lang, found] of [['zh-CN', '找到 2 个对话'], ['ja', '2 件の会話が見つかりました']] as const) {
      const { el, field } = await listFixture((c) => c.setAttribute('lang', lang));
      await until(() => field.getAttribute('aria-label') !== 'Search conversations', 'localised field');
      await type(field, '日本語');
      await until(() => status(el) === found, `${lang} count`);
    }
  });

  it('screenshots: results and export choices, light, dark and 375 px', async () => {
    for (const [theme, width] of [['light', 720], ['dark', 720], ['light', 375]] as const) {
      const { el, field } = await listFixture((c) => {
        c.theme = theme;
        c.style.width = `${width}px`;
      });
      await type(field, '日本語');
      await until(() => hits(el).length === 2, 'hits');
      await userEvent.keyboard('{ArrowDown}');
      await screenshot(el, `search-${theme}-${width}`);
      await type(field, '');
      await until(() => $$(el, '[part="session"]').length === 3, 'the list again');
      $$<HTMLButtonElement>(el, '[part="session-export"]')[1]!.click();
      await until(() => $(el, '[part="session-export-choice"]') !== null, 'the choice');
      await screenshot(el, `export-${theme}-${width}`);
    }
  });
});
