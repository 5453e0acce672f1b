/**
 * Session store search, measured in Chromium's IndexedDB: 1,000 conversations of 100 messages each.
 * `store.search()` against a plain scan measured in the same run (one `getAll` of every message record,
 * then `includes` on each text), for a word found only in the oldest conversation's last message (the
 * search reads everything) and for a word in every answer (it stops at `limit`). Also prints the most message
 * records held at once (the largest `getAll` of message records) by each.
 */
import type { Page } from 'playwright-core';
import { openPage, startHarness } from '../test/e2e/store/harness.js';

interface Figures {
  query: string;
  hits: number;
  searchMs: number;
  scanMs: number;
  searchHeld: number;
  scanHeld: number;
}

const CONVERSATIONS = 1000;
const MESSAGES = 100;

async function seed(page: Page, name: string): Promise<number> {
  return page.evaluate(
    async ({ name, conversations, messages }) => {
      const store = window.pagent.createSessionStore({ name });
      const t = performance.now();
      for (let c = 0; c < conversations; c++) {
        const list = [];
        for (let m = 0; m < messages; m++) {
          list.push(
            m % 2 === 0
              ? { role: 'user' as const, content: `Question ${c}.${m}: what should I pack for a trip to Kyoto in spring? 京都の春の天気は？` }
              : { role: 'assistant' as const, content: `Answer ${c}.${m}: light layers and an umbrella. 春の京都は朝晩が冷えます。Cherry blossoms peak in early April, so book early.` },
          );
        }
        if (c === 0) list[messages - 1] = { role: 'assistant' as const, content: 'The rare word is xylophone-琵琶, said once.' };
        await store.append(`c${c}`, list);
      }
      store.close();
      return performance.now() - t;
    },
    { name, conversations: CONVERSATIONS, messages: MESSAGES },
  );
}

function measure(page: Page, name: string, query: string): Promise<Figures> {
  return page.evaluate(
    async ({ name, query }) => {
      const store = window.pagent.createSessionStore({ name });
      const getAll = IDBObjectStore.prototype.getAll;
      let held = 0;
      IDBObjectStore.prototype.getAll = function (this: IDBObjectStore, ...args: Parameters<typeof getAll>) {
        const req = getAll.apply(this, args);
        // message records only (the search also reads the small session records, one per conversation)
        req.addEventListener('success', () => {
          if ((req.result[0] as { message?: unknown } | undefined)?.message !== undefined) held = Math.max(held, req.result.length);
        });
        return req;
      };
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const open = (): Promise<IDBDatabase> =>
        new Promise((resolve, reject) => {
          const req = indexedDB.open(name);
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
      const db = await open();
      try {
        await store.search('warm up');
        const searchTimes: number[] = [];
        const scanTimes: number[] = [];
        let hits = 0;
        let searchHeld = 0;
        let scanHeld = 0;
        for (let r = 0; r < 3; r++) {
          held = 0;
          let t = performance.now();
          hits = (await store.search(query, { limit: 50 })).length;
          searchTimes.push(performance.now() - t);
          searchHeld = Math.max(searchHeld, held);
          // the plain scan: every message record at once, then includes (no normalisation, no snippet)
          held = 0;
          t = performance.now();
          const all: Array<{ message: { content: unknown } }> = await new Promise((resolve, reject) => {
            const req = db.transaction('sessions').objectStore('sessions').getAll(IDBKeyRange.bound(['message'], ['message', []]));
            req.onsuccess = () => resolve(req.result);
            req.onerror = () => reject(req.error);
          });
          let found = 0;
          for (const record of all) if (typeof record.message.content === 'string' && record.message.content.includes(query)) found++;
          scanTimes.push(performance.now() - t);
          scanHeld = Math.max(scanHeld, held);
          if (found === 0) throw new Error('the scan found nothing');
        }
        return { query, hits, searchMs: median(searchTimes), scanMs: median(scanTimes), searchHeld, scanHeld };
      } finally {
        IDBObjectStore.prototype.getAll = getAll;
        db.close();
        store.close();
      }
    },
    { name, query },
  );
}

/** Prints search time against a plain scan, and the records each holds at most. */
export async function run(): Promise<void> {
  const h = await startHarness();
  try {
    const context = await h.browser.newContext();
    const page = await openPage(context, h.baseUrl);
    await page.evaluate('globalThis.__name = (fn) => fn');
    const name = `bench-search-${Date.now()}`;
    const seedMs = await seed(page, name);
    console.log(`store search: ${CONVERSATIONS} conversations × ${MESSAGES} messages in Chromium IndexedDB (seeded in ${(seedMs / 1000).toFixed(1)} s)`);
    for (const query of ['xylophone', 'umbrella']) {
      const f = await measure(page, name, query);
      console.log(
        `  "${f.query}": search ${f.searchMs.toFixed(0)} ms (${f.hits} hits, at most ${f.searchHeld} message records held)` +
          `  vs plain scan ${f.scanMs.toFixed(0)} ms (${f.scanHeld} held): ${(f.searchMs / f.scanMs).toFixed(2)}×`,
      );
    }
    await context.close();
  } finally {
    await h.close();
  }
}
