import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore, type StoreChange } from '../../../src/store/index.js';
import { StoreError } from '../../../src/errors.js';
import { Session } from '../../../src/agent/sessions/session.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { countWrites, plant, rawEntries, rejection, turn, uniqueName } from './helpers.js';

const opened: SessionStore[] = [];
function open(name = uniqueName(), openTimeoutMs?: number): SessionStore {
  const store = createSessionStore(openTimeoutMs === undefined ? { name } : { name, openTimeoutMs });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

function sessionOf(turns: number, systemPrompt = 'You are terse. 简洁。'): Session {
  const s = new Session(systemPrompt);
  for (let i = 0; i < turns; i++) s.append(...turn(i));
  return s;
}

describe('createSessionStore', () => {
  it('does not touch IndexedDB until a method is called', async () => {
    const name = uniqueName('lazy');
    createSessionStore({ name });
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).not.toContain(name);
  });

  it('round-trips a session with tool calls, reasoning, CJK and emoji', async () => {
    const store = open();
    const session = sessionOf(3);
    await store.save('chat-1', session, { title: '天気の話 🌦️' });
    const back = await store.load('chat-1');
    expect(back).toBeInstanceOf(Session);
    expect(back!.systemPrompt).toBe('You are terse. 简洁。');
    expect(back!.messages).toEqual(session.messages);
    expect(back!.messages[1]).toEqual(turn(0)[1]);
    const [summary] = await store.list();
    expect(summary).toMatchObject({ id: 'chat-1', title: '天気の話 🌦️', messageCount: 12 });
    expect(summary!.updatedAt).toBeGreaterThanOrEqual(summary!.createdAt);
  });

  it('returns undefined for a session it does not have', async () => {
    expect(await open().load('nope')).toBeUndefined();
  });

  it('appends after the stored messages and creates the session on the first append', async () => {
    const store = open();
    await store.append('a', turn(0));
    await store.append('a', turn(1));
    const back = await store.load('a');
    expect(back!.messages).toEqual([...turn(0), ...turn(1)]);
    const [summary] = await store.list();
    // the title comes from the first user message when none was given
    expect(summary).toMatchObject({ id: 'a', title: '第0問: 東京の天気は? 🌦️ (turn 0)', messageCount: 8 });
  });

  it('lists summaries newest first without reading message records', async () => {
    const store = open();
    await store.append('old', turn(0));
    await new Promise((r) => setTimeout(r, 5));
    await store.append('new', turn(1));
    const original = IDBObjectStore.prototype.getAll;
    const ranges: unknown[] = [];
    IDBObjectStore.prototype.getAll = function (this: IDBObjectStore, query?: IDBValidKey | IDBKeyRange | null, count?: number) {
      ranges.push(query instanceof IDBKeyRange ? query.lower : query);
      return original.call(this, query, count);
    };
    try {
      const list = await store.list();
      expect(list.map((s) => s.id)).toEqual(['new', 'old']);
      expect(list.every((s) => !('messages' in s))).toBe(true);
    } finally {
      IDBObjectStore.prototype.getAll = original;
    }
    expect(ranges).toEqual([['session']]);
  });

  it('renames, deletes and clears', async () => {
    const store = open();
    await store.append('a', turn(0));
    await store.append('b', turn(1));
    await store.rename('a', 'Renamed ✨');
    expect((await store.list()).find((s) => s.id === 'a')!.title).toBe('Renamed ✨');
    await store.delete('a');
    expect(await store.load('a')).toBeUndefined();
    expect((await store.list()).map((s) => s.id)).toEqual(['b']);
    await store.delete('missing');
    await store.clear();
    expect(await store.list()).toEqual([]);
    expect(await rawEntries(store.name)).toEqual([]);
  });

  it('fails to rename or export a session it does not have with reason not-found', async () => {
    const store = open();
    expect((await rejection(store.rename('ghost', 'x'))).reason).toBe('not-found');
    expect((await rejection(store.export('ghost'))).reason).toBe('not-found');
  });

  it('exports one session as JSON text and imports it back under a free id', async () => {
    const store = open();
    await store.save('chat', sessionOf(2), { title: '导出 📤' });
    const json = await store.export('chat');
    const parsed = JSON.parse(json) as { format: string; session: { messages: ChatMessage[] } };
    expect(parsed.format).toBe('pagent-web/session');
    expect(parsed.session.messages).toEqual(sessionOf(2).messages);

    const other = open();
    expect(await other.import(json)).toBe('chat');
    expect((await other.load('chat'))!.messages).toEqual(sessionOf(2).messages);
    expect((await other.list())[0]!.title).toBe('导出 📤');

    // importing where the id is taken never overwrites: the copy gets a new id
    const copyId = await store.import(json);
    expect(copyId).not.toBe('chat');
    expect((await store.load(copyId))!.messages).toEqual(sessionOf(2).messages);
    expect((await store.list()).length).toBe(2);
  });

  it('rejects a bad import file with reason invalid and writes nothing', async () => {
    const store = open();
    await store.append('keep', turn(0));
    const before = await rawEntries(store.name);
    const good = JSON.parse(await store.export('keep')) as Record<string, unknown> & { session: { messages: unknown[] } };
    const badFiles = [
      'not json {',
      '[]',
      JSON.stringify({ ...good, format: 'something-else' }),
      JSON.stringify({ ...good, version: 3 }),
      JSON.stringify({ ...good, id: 'new-id', session: { ...good.session, messages: [...good.session.messages, { role: 'tool', content: 'no id' }] } }),
      JSON.stringify({ ...good, id: 'new-id', session: { ...good.session, messages: [{ role: 'wizard', content: 'hi' }] } }),
    ];
    for (const file of badFiles) {
      const err = await rejection(store.import(file));
      expect(err.name).toBe('StoreError');
      expect(err.reason).toBe('invalid');
      expect(err.code).toBe('store');
    }
    expect((await rejection(store.import(badFiles[4]!))).message).toMatch(/message 4: tool message has no tool_call_id/);
    expect(await rawEntries(store.name)).toEqual(before);
  });

  it('rejects an invalid message on append with reason invalid and writes nothing', async () => {
    const store = open();
    await store.append('s', turn(0));
    const before = await rawEntries(store.name);
    const bad = [{ role: 'assistant', content: 42 }] as unknown as ChatMessage[];
    expect((await rejection(store.append('s', bad))).reason).toBe('invalid');
    expect(await rawEntries(store.name)).toEqual(before);
  });
});

describe('write cost', () => {
  async function turnCost(existingMessages: number): Promise<{ puts: number; bytes: number }> {
    const store = open();
    // whole turns, topped up with plain question/answer pairs to exactly `existingMessages`
    const turns = Math.floor(existingMessages / 4);
    const history: ChatMessage[] = [];
    for (let i = 0; i < turns; i++) history.push(...turn(i));
    while (history.length < existingMessages) {
      history.push({ role: 'user', content: '続けて 👉' }, { role: 'assistant', content: 'はい ✅' });
    }
    await store.append('long', history);
    expect((await store.list())[0]!.messageCount).toBe(existingMessages);
    return countWrites(() => store.append('long', turn(turns)));
  }

  it('writes the same records per turn at 10 and 1,000 messages (only the new messages and the meta record)', async () => {
    const small = await turnCost(10);
    const large = await turnCost(1000);
    console.log(`store write cost per 4-message turn: at 10 messages ${small.puts} puts / ${small.bytes} B, at 1000 messages ${large.puts} puts / ${large.bytes} B`);
    expect(small.puts).toBe(5);
    expect(large.puts).toBe(5);
    // only the counters in the meta record and the turn numbers in the message text get longer
    expect(Math.abs(large.bytes - small.bytes)).toBeLessThan(40);
  });

  it('save() by contrast rewrites every message, which is why the agent appends', async () => {
    const store = open();
    const { puts } = await countWrites(() => store.save('s', sessionOf(250)));
    expect(puts).toBe(1001);
  });
});

describe('failures', () => {
  it('reports a corrupt message record as reason corrupt and keeps other sessions readable', async () => {
    const store = open();
    await store.append('good', turn(0));
    await store.append('bad', turn(1));
    await plant(store.name, ['message', 'bad', 2], { version: 1, message: { role: 'tool', content: 5 } });
    const err = await rejection(store.load('bad'));
    expect(err.reason).toBe('corrupt');
    expect(err.sessionId).toBe('bad');
    expect(err.message).toMatch(/load "bad".*message 2/);
    expect((await store.load('good'))!.messages).toEqual(turn(0));
    expect((await store.list()).map((s) => s.id).sort()).toEqual(['bad', 'good']);
    // the app can still delete it
    await store.delete('bad');
    expect((await store.list()).map((s) => s.id)).toEqual(['good']);
  });

  it('reports a missing message record as corrupt', async () => {
    const store = open();
    await store.append('gap', turn(0));
    const { del } = await import('idb-keyval');
    const { rawStore } = await import('./helpers.js');
    await del(['message', 'gap', 1], rawStore(store.name));
    expect((await rejection(store.load('gap'))).reason).toBe('corrupt');
  });

  it('lists a session with a corrupt meta record as corrupt so it can be deleted', async () => {
    const store = open();
    await store.append('fine', turn(0));
    await plant(store.name, ['session', 'broken'], { version: 99, junk: true });
    const list = await store.list();
    expect(list.find((s) => s.id === 'broken')).toMatchObject({ corrupt: true, messageCount: 0 });
    expect(list.find((s) => s.id === 'fine')).toMatchObject({ messageCount: 4 });
    expect((await rejection(store.load('broken'))).message).toMatch(/schema version 99/);
    await store.delete('broken');
    expect((await store.list()).map((s) => s.id)).toEqual(['fine']);
  });

  it('refuses to append to a session deleted from storage under it, leaving the in-memory session untouched', async () => {
    const name = uniqueName();
    const store = open(name);
    const session = sessionOf(2);
    await store.save('s', session);
    const before = structuredClone(session.messages);
    const deleted = new Promise<void>((resolve, reject) => {
      const req = indexedDB.deleteDatabase(name);
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error('the store kept the database open during a delete'));
    });
    await deleted;
    const err = await rejection(store.append('s', turn(2)));
    expect(err.reason).toBe('deleted');
    expect(session.messages).toEqual(before);
    // the store keeps working for other sessions on the recreated database
    await store.append('fresh', turn(0));
    expect((await store.load('fresh'))!.messages).toEqual(turn(0));
    expect(await store.load('s')).toBeUndefined();
  });

  it('refuses to recreate a session deleted or cleared through this store from a tail, and save() stores it whole again', async () => {
    const store = open();
    await store.append('s', turn(0));
    await store.delete('s');
    expect((await rejection(store.append('s', turn(1)))).reason).toBe('deleted');
    expect(await store.load('s')).toBeUndefined();
    expect(await store.list()).toEqual([]);

    const whole = sessionOf(2);
    await store.save('s', whole);
    await store.append('s', turn(2));
    expect((await store.load('s'))!.messages).toEqual([...whole.messages, ...turn(2)]);

    await store.clear();
    expect((await rejection(store.append('s', turn(3)))).reason).toBe('deleted');
    expect(await store.list()).toEqual([]);
    // a session this store never saw is still created by append
    await store.append('new', turn(0));
    expect((await store.load('new'))!.messages).toEqual(turn(0));
  });

  it('fails with reason blocked when another connection keeps a pending delete from finishing', async () => {
    const name = uniqueName();
    const holder = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name);
      req.onupgradeneeded = () => req.result.createObjectStore('sessions');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    // this old connection ignores versionchange, so the delete waits and so does every later open
    const pendingDelete = new Promise<void>((resolve) => {
      indexedDB.deleteDatabase(name).onsuccess = () => resolve();
    });
    const store = open(name, 50);
    const err = await rejection(store.list());
    expect(err.reason).toBe('blocked');
    holder.close();
    await pendingDelete;
    await store.append('after', turn(0));
    expect((await store.load('after'))!.messages).toEqual(turn(0));
  });
});

describe('several stores on one database (as in several tabs)', () => {
  it('tells subscribers of another store instance about a write', async () => {
    const name = uniqueName();
    const writer = open(name);
    const reader = open(name);
    const changes: StoreChange[] = [];
    const seen = new Promise<void>((resolve) => {
      reader.subscribe((c) => {
        changes.push(c);
        if (c.type === 'append') resolve();
      });
    });
    await writer.append('shared', turn(0));
    await seen;
    expect(changes).toEqual([{ type: 'append', id: 'shared', from: 0, count: 4, messageCount: 4, parent: null, head: 3, remote: true }]);
    expect((await reader.load('shared'))!.messages).toEqual(turn(0));
  });

  it('tells its own subscribers too, and stops after unsubscribe', async () => {
    const store = open();
    const changes: StoreChange[] = [];
    const off = store.subscribe((c) => changes.push(c));
    await store.append('x', turn(0));
    await store.rename('x', 'X');
    off();
    await store.delete('x');
    expect(changes).toEqual([
      { type: 'append', id: 'x', from: 0, count: 4, messageCount: 4, parent: null, head: 3, remote: false },
      { type: 'rename', id: 'x', title: 'X', remote: false },
    ]);
  });

  it('keeps a write that succeeded when a subscriber throws', async () => {
    const store = open();
    const reported: unknown[] = [];
    const onError = (e: ErrorEvent) => {
      reported.push(e.error);
      e.preventDefault();
    };
    window.addEventListener('error', onError);
    try {
      store.subscribe(() => {
        throw new Error('listener bug');
      });
      await store.append('x', turn(0));
    } finally {
      window.removeEventListener('error', onError);
    }
    expect(reported).toHaveLength(1);
    expect((await store.load('x'))!.messages).toEqual(turn(0));
  });

  it('loses no message when two connections append to one session at once', async () => {
    const name = uniqueName();
    const a = open(name);
    const b = open(name);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 25; i++) {
      writes.push(a.append('race', [{ role: 'user', content: `a${i}` }]));
      writes.push(b.append('race', [{ role: 'user', content: `b${i}` }]));
    }
    await Promise.all(writes);
    const messages = (await a.load('race'))!.messages.map((m) => m.content);
    expect(messages).toHaveLength(50);
    expect(new Set(messages).size).toBe(50);
    // each connection's own appends keep their order
    const own = (p: string) => messages.filter((m) => typeof m === 'string' && m.startsWith(p));
    expect(own('a')).toEqual(Array.from({ length: 25 }, (_, i) => `a${i}`));
    expect(own('b')).toEqual(Array.from({ length: 25 }, (_, i) => `b${i}`));
  });
});

describe('storage durability', () => {
  it('reports estimated usage and quota, and answers persist() with a boolean', async () => {
    const store = open();
    await store.append('s', turn(0));
    const { usage, quota } = await store.estimate();
    expect(quota).toBeGreaterThan(0);
    expect(usage).toBeGreaterThanOrEqual(0);
    expect(typeof (await store.persist())).toBe('boolean');
  });
});
