/**
 * Session store with images, in Chromium: a conversation of 20 turns each carrying a 200 kB image against
 * the same conversation as text only. Prints, per turn, the records and bytes written (message records as
 * JSON, blob bytes apart) and the median append time, then the median `list()` and `load()` times of both,
 * as ratios against the text-only baseline measured in the same run.
 */
import type { Page } from 'playwright-core';
import { openPage, startHarness } from '../test/e2e/store/harness.js';

interface Figures {
  records: number;
  jsonBytes: number;
  blobBytes: number;
  appendMs: number;
  listMs: number;
  loadMs: number;
}

function measure(page: Page, withImages: boolean): Promise<Figures> {
  return page.evaluate(async (images) => {
    const { createSessionStore } = window.pagent;
    const store = createSessionStore({ name: `bench-attach-${images}-${crypto.randomUUID()}` });
    // 200 kB of pseudo-random bytes as a JPEG data URL, one per turn
    const bytes = new Uint8Array(200_000);
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x6000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x6000));
    const image = `data:image/jpeg;base64,${btoa(binary)}`;
    const turn = (n: number) => [
      images
        ? { role: 'user' as const, content: [{ type: 'text' as const, text: `photo ${n}` }, { type: 'image_url' as const, image_url: { url: image } }] }
        : { role: 'user' as const, content: `photo ${n}` },
      { role: 'assistant' as const, content: `A photo of the beach (${n}).` },
    ];
    const put = IDBObjectStore.prototype.put;
    let records = 0;
    let jsonBytes = 0;
    let blobBytes = 0;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      records += 1;
      const blob = (value as { blob?: unknown }).blob;
      if (blob instanceof Blob) blobBytes += blob.size;
      else jsonBytes += new TextEncoder().encode(JSON.stringify(value)).length;
      return put.call(this, value, key);
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const appendTimes: number[] = [];
    try {
      for (let n = 0; n < 20; n++) {
        const t = performance.now();
        await store.append('s', turn(n));
        appendTimes.push(performance.now() - t);
      }
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    const listTimes: number[] = [];
    const loadTimes: number[] = [];
    for (let r = 0; r < 15; r++) {
      let t = performance.now();
      await store.list();
      listTimes.push(performance.now() - t);
      t = performance.now();
      await store.load('s');
      loadTimes.push(performance.now() - t);
    }
    store.close();
    return { records: records / 20, jsonBytes: jsonBytes / 20, blobBytes: blobBytes / 20, appendMs: median(appendTimes), listMs: median(listTimes), loadMs: median(loadTimes) };
  }, withImages);
}

export async function run(): Promise<void> {
  const h = await startHarness();
  try {
    const context = await h.browser.newContext();
    const page = await openPage(context, h.baseUrl);
    await page.evaluate('globalThis.__name = (fn) => fn');
    const text = await measure(page, false);
    const images = await measure(page, true);
    const line = (label: string, f: Figures) =>
      `  ${label}: per turn ${f.records} records, ${Math.round(f.jsonBytes)} B of records + ${Math.round(f.blobBytes)} B of blobs, append ${f.appendMs.toFixed(2)} ms;` +
      ` list() ${f.listMs.toFixed(2)} ms, load() ${f.loadMs.toFixed(2)} ms`;
    console.log('store: 20 turns, each with one 200 kB image vs text only (Chromium IndexedDB)');
    console.log(line('text only  ', text));
    console.log(line('with images', images));
    console.log(
      `  ratios (images / text): append ×${(images.appendMs / text.appendMs).toFixed(2)}, list() ×${(images.listMs / text.listMs).toFixed(2)},` +
        ` load() ×${(images.loadMs / text.loadMs).toFixed(2)}`,
    );
    await context.close();
  } finally {
    await h.close();
  }
}
