// One conversation with a time no Date can hold never stops the list from drawing: against a real IndexedDB
// store holding a record of an older version (written before imports checked times), and any store at all.
import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { plant, rawEntries, turn } from '../store/helpers.js';
import { $$, chatFixture, until } from './helpers.js';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const rows = (el: HTMLElement) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="session"]')];
const ids = (el: HTMLElement) => rows(el).map((r) => r.dataset['sessionId']);

describe('the conversation list with a time that is no date', () => {
  it('draws every conversation of a store holding updatedAt 1e300, and the bad one deletes', async () => {
    const store = createSessionStore({ name: `bad-dates-${crypto.randomUUID()}` });
    stores.push(store);
    await store.append('before', turn(0));
    await store.append('bad', turn(1));
    await store.append('after', turn(2));
    // written straight into IndexedDB, as an import of an older version stored it
    const [, record] = (await rawEntries(store.name)).find(([key]) => JSON.stringify(key) === '["session","bad"]')!;
    await plant(store.name, ['session', 'bad'], { ...(record as object), updatedAt: 1e300 });

    const errors: unknown[] = [];
    const onError = (e: ErrorEvent) => errors.push(e.error);
    window.addEventListener('error', onError);
    try {
      const el = await chatFixture((c) => (c.store = store));
      await until(() => rows(el).length === 3, 'three conversations');
      expect(ids(el)).toEqual(expect.arrayContaining(['before', 'bad', 'after']));
      const bad = rows(el).find((r) => r.dataset['sessionId'] === 'bad')!;
      bad.querySelector<HTMLButtonElement>('[part="session-delete"]')!.click();
      await until(() => bad.querySelector('[part="session-delete-confirm"]') !== null, 'the question');
      bad.querySelector<HTMLButtonElement>('[part="session-delete-confirm"]')!.click();
      await until(() => rows(el).length === 2, 'the bad conversation deleted');
      expect(ids(el)).toEqual(['after', 'before']);
      expect((await store.list()).map((x) => x.id)).toEqual(['after', 'before']);
      await chaiExpect(el).to.be.accessible();
    } finally {
      window.removeEventListener('error', onError);
    }
    expect(errors).toEqual([]);
  });

  it('shows no date for times a store returns that are no date, and the dates of the others', async () => {
    const good = Date.UTC(2021, 2, 5, 12);
    const times = [1e300, -1e300, NaN, Infinity, 8.64e15 + 1, good];
    const store = {
      list: async () => times.map((updatedAt, i) => ({ id: `c${i}`, title: `Conversation ${i}`, updatedAt, messageCount: 2 })),
      load: async () => ({ messages: [] }),
      rename: async () => undefined,
      delete: async () => undefined,
    };
    const el = await chatFixture((c) => (c.store = store));
    await until(() => rows(el).length === times.length, 'every conversation');
    expect($$(el, '[part="session-title"]').map((t) => t.textContent)).toEqual(times.map((_, i) => `Conversation ${i}`));
    expect($$(el, '[part="session-date"]').map((d) => d.textContent)).toEqual(['Mar 5, 2021']);
    expect(rows(el).every((r) => r.querySelector('[part="session-delete"]') !== null)).toBe(true);
  });
});
