import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { SEARCH_BATCH, snippetOf, searchForm } from '../../../src/store/session-search.js';
import { StoreError } from '../../../src/errors.js';
import { uniqueName } from './helpers.js';

const opened: SessionStore[] = [];
function open(): SessionStore {
  const store = createSessionStore({ name: uniqueName('search') });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

/** Stores a conversation with a fixed `updatedAt` (import keeps the file's timestamps). */
async function put(store: SessionStore, id: string, title: string, updatedAt: number, messages: ChatMessage[]): Promise<void> {
  const file = {
    format: 'pagent-web/session', version: 1, id, title, createdAt: updatedAt, updatedAt,
    session: { version: 1, kind: 'session', systemPrompt: 'secret system words', messages },
  };
  expect(await store.import(JSON.stringify(file))).toBe(id);
}

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function seeded(): Promise<SessionStore> {
  const store = open();
  await put(store, 'weather', 'Weather in Tokyo', 3000, [
    { role: 'user', content: 'What is the weather in Tokyo today?' },
    { role: 'assistant', content: null, reasoning_content: 'hidden thoughts about zebras', tool_calls: [
      { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Osaka-argument"}' } },
    ] },
    { role: 'tool', tool_call_id: 'c1', content: '{"sky":"cloudy result"}' },
    { role: 'assistant', content: '東京は晴れ、21°C です。日本語の答え。' },
  ]);
  await put(store, 'greet', '问候', 2000, [
    { role: 'user', content: [{ type: 'text', text: '你好世界，请把这张图描述一下' }, { type: 'image_url', image_url: { url: PIXEL } }] },
    { role: 'assistant', content: 'Hello World — a small picture of one PIXEL.' },
  ]);
  await put(store, 'old', 'An old chat about tokyo', 1000, [{ role: 'user', content: 'nothing here' }]);
  return store;
}

describe('SessionStore.search', () => {
  it('finds title hits first, then message hits, newest first, case-insensitively', async () => {
    const store = await seeded();
    const hits = await store.search('TOKYO');
    expect(hits.map((h) => [h.id, h.seq])).toEqual([['weather', undefined], ['old', undefined]]);
    expect(hits[0]!.snippet).toEqual({ before: 'Weather in ', match: 'Tokyo', after: '' });
    expect(hits[1]!.snippet).toEqual({ before: 'An old chat about ', match: 'tokyo', after: '' });
  });

  it('finds Chinese and Japanese text by substring, with the message seq and role', async () => {
    const store = await seeded();
    const [zh] = await store.search('你好世界');
    expect(zh).toMatchObject({ id: 'greet', title: '问候', seq: 0, role: 'user', updatedAt: 2000 });
    expect(zh!.snippet).toEqual({ before: '', match: '你好世界', after: '，请把这张图描述一下' });
    const [ja] = await store.search('日本語');
    expect(ja).toMatchObject({ id: 'weather', seq: 3, role: 'assistant' });
    expect(ja!.snippet.match).toBe('日本語');
  });

  it('matches across width and case (NFKC): full-width letters find ASCII', async () => {
    const store = await seeded();
    const hits = await store.search('ｈｅｌｌｏ　ｗｏｒｌｄ');
    expect(hits.map((h) => h.id)).toEqual(['greet']);
    expect(hits[0]!.snippet.match).toBe('Hello World');
  });

  it('searches tool arguments and results but not reasoning, system prompts or attachment data', async () => {
    const store = await seeded();
    expect((await store.search('osaka-argument'))[0]).toMatchObject({ id: 'weather', seq: 1, role: 'assistant' });
    expect((await store.search('cloudy result'))[0]).toMatchObject({ id: 'weather', seq: 2, role: 'tool' });
    expect(await store.search('zebras')).toEqual([]);
    expect(await store.search('secret system')).toEqual([]);
    expect(await store.search('iVBORw0KGgo')).toEqual([]);
  });

  it('gives one hit per conversation unless asked for more, and honours limit', async () => {
    const store = open();
    const messages: ChatMessage[] = [];
    for (let i = 0; i < 5; i++) messages.push({ role: 'user', content: `needle ${i}` }, { role: 'assistant', content: 'hay' });
    await put(store, 'a', 'A', 2, messages);
    await put(store, 'b', 'B', 1, messages);
    expect((await store.search('needle')).map((h) => [h.id, h.seq])).toEqual([['a', 0], ['b', 0]]);
    expect((await store.search('needle', { perConversation: 3 })).map((h) => [h.id, h.seq])).toEqual([
      ['a', 0], ['a', 2], ['a', 4], ['b', 0], ['b', 2], ['b', 4],
    ]);
    expect((await store.search('needle', { perConversation: 3, limit: 4 })).length).toBe(4);
    expect(await store.search('needle', { limit: 0 })).toEqual([]);
    expect(await store.search('   ')).toEqual([]);
    await expect(store.search('needle', { limit: -1 })).rejects.toBeInstanceOf(StoreError);
  });

  it('reads a long conversation in batches and still finds its last message', async () => {
    const store = open();
    const messages: ChatMessage[] = [];
    for (let i = 0; i < SEARCH_BATCH * 2 + 7; i++) messages.push({ role: 'user', content: `filler ${i}` });
    messages.push({ role: 'assistant', content: 'the very last needle' });
    await put(store, 'long', 'Long', 1, messages);
    const largest: number[] = [];
    const getAll = IDBObjectStore.prototype.getAll;
    IDBObjectStore.prototype.getAll = function (this: IDBObjectStore, ...args: Parameters<typeof getAll>) {
      const req = getAll.apply(this, args);
      req.addEventListener('success', () => largest.push(req.result.length));
      return req;
    };
    try {
      const [hit] = await store.search('very last NEEDLE');
      expect(hit).toMatchObject({ id: 'long', seq: messages.length - 1 });
    } finally {
      IDBObjectStore.prototype.getAll = getAll;
    }
    // one read of the session records, then batches of at most SEARCH_BATCH messages
    expect(Math.max(...largest.slice(1))).toBe(SEARCH_BATCH);
    expect(largest.length).toBe(1 + 3);
  });

  it('rejects with the abort reason when aborted, before or during the search', async () => {
    const store = await seeded();
    const before = new AbortController();
    before.abort();
    await expect(store.search('tokyo', { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });
    const during = new AbortController();
    const pending = store.search('nothing matches this', { signal: during.signal });
    during.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('snippetOf', () => {
  it('cuts long text on grapheme boundaries with an ellipsis on each cut side', () => {
    const text = `${'👩‍👩‍👧 family '.repeat(20)}FIND me${' e\u0301te'.repeat(30)}`;
    const s = snippetOf(text, searchForm('find'))!;
    expect(s.match).toBe('FIND');
    expect(s.before.startsWith('…')).toBe(true);
    expect(s.after.endsWith('…')).toBe(true);
    // no half emoji or accent without its letter at either cut
    expect([...new Intl.Segmenter().segment(s.before.slice(1))][0]!.segment).not.toMatch(/^[\u200d\u0301]/);
    expect(s.after.slice(-2, -1)).not.toBe('\u200d');
    expect(s.after).toContain('e\u0301te');
  });

  it('collapses whitespace runs (a query with one space finds text broken over lines)', () => {
    expect(snippetOf('first line\n\n  second line', searchForm('line second'))).toEqual({
      before: 'first ',
      match: 'line\n\n  second'.replace(/\s+/g, ' '),
      after: ' line',
    });
  });
});
