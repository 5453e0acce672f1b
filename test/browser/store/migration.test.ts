/**
 * A database written by record version 1 (test/fixtures/store-v1/records.json, dumped from that code) is
 * upgraded in place when the current store first opens it, with nothing lost.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { entries } from 'idb-keyval';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import fixture from '../../fixtures/store-v1/records.json';
import { plant, rawStore, uniqueName } from './helpers.js';

type Raw = { key: IDBValidKey; value: unknown };

function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.$blob === 'string') {
      const binary = atob(v.$blob);
      return new Blob([Uint8Array.from(binary, (c) => c.charCodeAt(0))], { type: String(v.type) });
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)]));
  }
  return value;
}

const records = fixture as Raw[];
const recordAt = (key: unknown[]): Record<string, unknown> =>
  records.find((r) => JSON.stringify(r.key) === JSON.stringify(key))!.value as Record<string, unknown>;

const opened: SessionStore[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

async function plantFixture(): Promise<string> {
  const name = uniqueName('v1');
  for (const r of records) await plant(name, r.key, revive(r.value));
  return name;
}

describe('record version 1 data', () => {
  it('is the data the version 1 code wrote (the fixture is not empty)', () => {
    expect(records.every((r) => (r.value as { version: number }).version === 1)).toBe(true);
    expect(records.filter((r) => (r.key as unknown[])[0] === 'blob')).toHaveLength(2);
  });

  it('is upgraded in place on first open: same sessions, titles, dates, messages and attachments', async () => {
    const name = await plantFixture();
    const store = createSessionStore({ name });
    opened.push(store);
    const list = await store.list();
    expect(list.map((s) => [s.id, s.title, s.messageCount, s.createdAt]).sort()).toEqual(
      ['tools', 'attachments', 'empty-answer'].map((id) => {
        const r = recordAt(['session', id]);
        return [id, r.title, r.messageCount, r.createdAt];
      }).sort(),
    );
    const raw = new Map((await entries(rawStore(name))).map(([k, v]) => [JSON.stringify(k), v as Record<string, unknown>]));
    // every session and message record is version 2 now; the attachment data records are untouched
    for (const r of records) {
      const now = raw.get(JSON.stringify(r.key))!;
      const kind = (r.key as unknown[])[0];
      if (kind === 'session' || kind === 'message') expect(now.version).toBe(2);
      else expect(now).toEqual(revive(r.value));
    }
    expect(raw.get(JSON.stringify(['session', 'tools']))).toMatchObject({ head: 11, nextSeq: 12, choices: {} });
    expect(raw.get(JSON.stringify(['message', 'tools', 5]))).toMatchObject({ parent: 4, depth: 5 });

    // the messages, text and attachments as the version 1 code stored them
    for (const id of ['tools', 'attachments', 'empty-answer']) {
      const count = recordAt(['session', id]).messageCount as number;
      const loaded = (await store.load(id))!;
      expect(loaded.seqs).toEqual([...Array(count).keys()]);
      loaded.messages.forEach((m, seq) => {
        const old = recordAt(['message', id, seq]).message as { content: unknown };
        if (id !== 'attachments' || seq !== 0) expect(m).toEqual(old);
      });
    }
    const first = (await store.load('attachments'))!.messages[0]!;
    const parts = first.content as Array<{ type: string; image_url?: { url: string }; file?: { file_data: string } }>;
    expect(parts[1]!.image_url!.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(atob(parts[2]!.file!.file_data.split(',')[1]!)).toBe('%PDF-1.4 fixture');
    expect(await store.loadNotes('memory')).toEqual(['likes tea', 'lives in Osaka']);
    expect(await store.load('attachments').then((s) => s!.systemPrompt)).toBe('You are terse.');
  });

  it('takes new branches after the upgrade, and a second store (tab) opening it changes nothing more', async () => {
    const name = await plantFixture();
    const a = createSessionStore({ name });
    const b = createSessionStore({ name });
    opened.push(a, b);
    await Promise.all([a.list(), b.list()]);
    await a.append('tools', [{ role: 'assistant', content: 'A new last answer' }], { parent: 10 });
    const tree = (await b.loadTree('tools'))!;
    expect(tree.nodes).toHaveLength(13);
    expect(tree.head).toBe(12);
    expect(activeTexts(await b.load('tools', { through: 11 }))).toContain((recordAt(['message', 'tools', 11]).message as { content: string }).content);
  });
});

function activeTexts(session: { messages: readonly { content: unknown }[] } | undefined): unknown[] {
  return session!.messages.map((m) => m.content);
}

describe('a database of version 2 records', () => {
  it('is not read message by message when a store first opens it (no version 1 session record to upgrade)', async () => {
    const name = uniqueName('v2');
    const writer = createSessionStore({ name });
    opened.push(writer);
    for (const id of ['a', 'b']) {
      await writer.append(id, Array.from({ length: 150 }, (_, i) => ({ role: 'user' as const, content: `${id} ${i}` })));
    }
    writer.close();
    const visited = { continues: 0 };
    const original = IDBCursor.prototype.continue;
    IDBCursor.prototype.continue = function (this: IDBCursor, key?: IDBValidKey) {
      visited.continues += 1;
      return original.call(this, key);
    };
    try {
      const store = createSessionStore({ name });
      opened.push(store);
      expect((await store.list()).map((s) => s.messageCount)).toEqual([150, 150]);
    } finally {
      IDBCursor.prototype.continue = original;
    }
    // the two session records, not the 300 message records
    expect(visited.continues).toBe(2);
  });
});
