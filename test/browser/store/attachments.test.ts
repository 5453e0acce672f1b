// Attachments in the session store: their data lives in Blob records of its own, never in the message
// records that list()/load() read per turn; load/export give the data URLs back byte for byte.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/agent/messages.js';
import type { UserContentPart } from '../../../src/agent/content-parts.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import { StoreError } from '../../../src/errors.js';
import { rawEntries, uniqueName } from './helpers.js';

/** A base64 data URL of `size` pseudo-random bytes (deterministic: a simple LCG). */
function dataUrl(mime: string, size: number, seed: number): string {
  let x = seed;
  let binary = '';
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    binary += String.fromCharCode(x >>> 24);
  }
  return `data:${mime};base64,${btoa(binary)}`;
}

function imageTurn(n: number, bytes = 50_000): ChatMessage[] {
  const parts: UserContentPart[] = [
    { type: 'text', text: `photo ${n} 📷` },
    { type: 'image_url', image_url: { url: dataUrl('image/jpeg', bytes, n), detail: 'auto' } },
  ];
  return [{ role: 'user', content: parts }, { role: 'assistant', content: `a photo (${n})` }];
}
/** A 1×1 PNG, written here. */
const PIXEL_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const textTurn = (n: number): ChatMessage[] => [{ role: 'user', content: `photo ${n} 📷` }, { role: 'assistant', content: `a photo (${n})` }];

/** Counts puts while `fn` runs: records, JSON bytes of the non-blob values, bytes held in blobs. */
async function countWrites(fn: () => Promise<unknown>): Promise<{ records: number; jsonBytes: number; blobBytes: number }> {
  const original = IDBObjectStore.prototype.put;
  const out = { records: 0, jsonBytes: 0, blobBytes: 0 };
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
    out.records += 1;
    const blob = (value as { blob?: unknown }).blob;
    if (blob instanceof Blob) out.blobBytes += blob.size;
    else out.jsonBytes += new TextEncoder().encode(JSON.stringify(value)).length;
    return original.call(this, value, key);
  };
  try {
    await fn();
  } finally {
    IDBObjectStore.prototype.put = original;
  }
  return out;
}

const kinds = (entries: Array<[IDBValidKey, unknown]>) => entries.map(([k]) => (k as unknown[])[0]);

describe('session store attachments', () => {
  it('keeps image data in blob records, out of the message records, and load gives it back exactly', async () => {
    const name = uniqueName();
    const store = createSessionStore({ name });
    const turn = imageTurn(1);
    await store.append('a', turn);
    const entries = await rawEntries(name);
    expect(kinds(entries).sort()).toEqual(['blob', 'message', 'message', 'session']);
    const userRecord = entries.find(([k]) => (k as unknown[])[0] === 'message' && (k as unknown[])[2] === 0)![1];
    expect(JSON.stringify(userRecord)).not.toContain('base64');
    expect(userRecord).toMatchObject({ blobs: [1] });
    const blob = entries.find(([k]) => (k as unknown[])[0] === 'blob')!;
    expect(blob[0]).toEqual(['blob', 'a', 0, 1]);
    expect((blob[1] as { blob: Blob }).blob).toBeInstanceOf(Blob);
    expect((blob[1] as { blob: Blob }).blob.size).toBe(50_000);
    // never typed after the header
    expect((blob[1] as { blob: Blob }).blob.type).toBe('application/octet-stream');
    expect((await store.load('a'))!.messages).toEqual(turn);
    store.close();
  });

  it('keeps file parts (with their name) and https images as given', async () => {
    const store = createSessionStore({ name: uniqueName() });
    const parts: UserContentPart[] = [
      { type: 'file', file: { filename: 'report 📄.pdf', file_data: dataUrl('application/pdf', 3000, 7) } },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      { type: 'text', text: 'read these' },
    ];
    await store.append('f', [{ role: 'user', content: parts }]);
    expect((await store.load('f'))!.messages).toEqual([{ role: 'user', content: parts }]);
    expect((await store.list())[0]!.title).toBe('[file report 📄.pdf] [image] read these');
    store.close();
  });

  it('writes a turn with an image at flat cost, as many message records as a text turn plus one blob', async () => {
    const name = uniqueName();
    const images = createSessionStore({ name });
    const texts = createSessionStore({ name: uniqueName() });
    const figures: Array<{ image: Awaited<ReturnType<typeof countWrites>>; text: Awaited<ReturnType<typeof countWrites>> }> = [];
    for (let n = 0; n < 20; n++) {
      const image = await countWrites(() => images.append('s', imageTurn(n)));
      const text = await countWrites(() => texts.append('s', textTurn(n)));
      figures.push({ image, text });
    }
    for (const { image, text } of figures) {
      expect(image.records).toBe(text.records + 1);
      expect(image.blobBytes).toBe(50_000);
      // the message records stay small: the image adds a part with an empty URL, not its data
      expect(image.jsonBytes - text.jsonBytes).toBeLessThan(200);
    }
    // the 20th turn writes the same as the 1st
    expect(figures[19]!.image.jsonBytes - figures[0]!.image.jsonBytes).toBeLessThan(10);
    // list() reads no blob: it returns the same summary for both
    const [summary] = await images.list();
    expect(summary).toMatchObject({ id: 's', messageCount: 40 });
    const loaded = (await images.load('s'))!.messages;
    expect(loaded).toHaveLength(40);
    expect(loaded[38]).toEqual(imageTurn(19)[0]);
    expect(kinds(await rawEntries(name)).filter((k) => k === 'blob')).toHaveLength(20);
    images.close();
    texts.close();
  });

  it('deletes the blobs with the conversation, and save() replaces them', async () => {
    const name = uniqueName();
    const store = createSessionStore({ name });
    await store.append('d', [...imageTurn(1), ...imageTurn(2)]);
    await store.append('keep', imageTurn(3));
    expect(kinds(await rawEntries(name)).filter((k) => k === 'blob')).toHaveLength(3);
    const one = new Session();
    one.append(...imageTurn(4));
    await store.save('keep', one);
    expect((await store.load('keep'))!.messages).toEqual(imageTurn(4));
    await store.delete('d');
    const left = await rawEntries(name);
    expect(left.filter(([k]) => (k as unknown[])[0] === 'blob').map(([k]) => k)).toEqual([['blob', 'keep', 0, 1]]);
    expect(left.some(([k]) => (k as unknown[])[1] === 'd')).toBe(false);
    store.close();
  });

  it('types every blob record application/octet-stream, never after the data URL header, and gives the URL back exactly', async () => {
    const name = uniqueName();
    const store = createSessionStore({ name });
    const svg = `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"><script>parent.__pwned = 1</script></svg>')}`;
    const html = `data:image/png;base64,${btoa('<!doctype html><script>parent.__pwned = 2</script>')}`;
    const parts: UserContentPart[] = [
      { type: 'image_url', image_url: { url: PIXEL_PNG } },
      { type: 'image_url', image_url: { url: svg } },
      { type: 'image_url', image_url: { url: html } },
      { type: 'file', file: { filename: 'drawing.svg', file_data: svg } },
    ];
    await store.append('t', [{ role: 'user', content: parts }]);
    const blobs = (await rawEntries(name)).filter(([k]) => (k as unknown[])[0] === 'blob');
    expect(blobs.map(([k, v]) => [(k as unknown[])[3], (v as { header: string }).header, (v as { blob: Blob }).blob.type])).toEqual([
      [0, 'data:image/png;base64', 'application/octet-stream'],
      [1, 'data:image/svg+xml;base64', 'application/octet-stream'],
      [2, 'data:image/png;base64', 'application/octet-stream'],
      [3, 'data:image/svg+xml;base64', 'application/octet-stream'],
    ]);
    expect((await store.load('t'))!.messages).toEqual([{ role: 'user', content: parts }]);
    store.close();
  });

  it('exports data URLs and imports them back into blob records', async () => {
    const name = uniqueName();
    const store = createSessionStore({ name });
    const turn = [...imageTurn(1, 2000), ...imageTurn(2, 3000)];
    await store.append('x', turn);
    const json = await store.export('x');
    const file = JSON.parse(json) as { session: { messages: ChatMessage[] } };
    expect(file.session.messages).toEqual(turn);
    await store.delete('x');
    expect(kinds(await rawEntries(name))).toEqual([]);
    const id = await store.import(json);
    expect(id).toBe('x');
    expect((await store.load('x'))!.messages).toEqual(turn);
    expect(kinds(await rawEntries(name)).filter((k) => k === 'blob')).toHaveLength(2);
    store.close();
  });

  it('refuses broken base64 with reason invalid and writes nothing', async () => {
    const name = uniqueName();
    const store = createSessionStore({ name });
    const bad: ChatMessage = { role: 'user', content: [{ type: 'file', file: { filename: 'a.bin', file_data: 'data:application/octet-stream;base64,@@@' } }] };
    const err = await store.append('b', [bad]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect(err).toMatchObject({ reason: 'invalid' });
    expect((err as Error).message).toContain('"a.bin"');
    expect(await rawEntries(name)).toEqual([]);
    store.close();
  });

  it('reports a missing blob record as a corrupt session', async () => {
    const name = uniqueName();
    const store = createSessionStore({ name });
    await store.append('c', imageTurn(1));
    const { del } = await import('idb-keyval');
    const { rawStore } = await import('./helpers.js');
    await del(['blob', 'c', 0, 1], rawStore(name));
    await expect(store.load('c')).rejects.toMatchObject({ reason: 'corrupt', message: expect.stringMatching(/attachment 1 of message 0 is missing/) });
    store.close();
  });
});
