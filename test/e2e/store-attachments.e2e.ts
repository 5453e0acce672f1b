// Attachments under a real small quota (CDP Storage.overrideQuotaForOrigin) and across a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, pageErrors, startHarness, type Harness } from './store/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

describe('session store attachments in real pages', () => {
  it('a reload shows the stored images again, byte for byte', async () => {
    const context = await h.browser.newContext();
    const page = await openPage(context, h.baseUrl);
    const sent = await page.evaluate(async () => {
      const canvas = new OffscreenCanvas(64, 48);
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#c33';
      g.fillRect(0, 0, 64, 48);
      const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
      const url = `data:image/png;base64,${btoa(String.fromCharCode(...bytes))}`;
      await window.pagent.storeFor('reload-images').append('r', [
        { role: 'user', content: [{ type: 'text', text: 'a red card' }, { type: 'image_url', image_url: { url } }] },
        { role: 'assistant', content: 'Red.' },
      ]);
      return url;
    });
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'ready');
    const loaded = await page.evaluate(async () => (await window.pagent.storeFor('reload-images').load('r'))!.messages);
    expect(loaded).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'a red card' }, { type: 'image_url', image_url: { url: sent } }] },
      { role: 'assistant', content: 'Red.' },
    ]);
    // and the element shows it from a blob: URL
    const src = await page.evaluate(async () => {
      const chat = document.createElement('pagent-chat');
      chat.store = window.pagent.storeFor('reload-images');
      document.body.append(chat);
      for (let i = 0; i < 300; i++) {
        const open = chat.shadowRoot?.querySelector<HTMLButtonElement>('[part~="session-open"]');
        if (open) {
          open.click();
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      for (let i = 0; i < 300; i++) {
        const img = chat.shadowRoot?.querySelector<HTMLImageElement>('[part~="attachment-thumb"] img');
        if (img?.complete && img.naturalWidth === 64) return img.src;
        await new Promise((r) => setTimeout(r, 10));
      }
      return 'no image';
    });
    expect(src).toMatch(/^blob:/);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);

  it('names the attachment in a quota error and loses nothing already stored', async () => {
    const context = await h.persistentContext();
    const page = await openPage(context, h.baseUrl);
    const cdp = await context.newCDPSession(page);
    const origin = new URL(h.baseUrl).origin;
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1024 * 1024 });
    await page.evaluate(() =>
      window.pagent.storeFor('quota-files').append('kept', [
        { role: 'user', content: [{ type: 'text', text: 'small 🐜' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      ]),
    );
    try {
      const result = await page.evaluate(async () => {
        const store = window.pagent.storeFor('quota-files');
        // 4 MB of random bytes as a PDF: over the 1 MB quota
        const bytes = new Uint8Array(4 * 1024 * 1024);
        for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x6000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x6000));
        const url = `data:application/pdf;base64,${btoa(binary)}`;
        let error: { name: string; reason: string; message: string } | undefined;
        try {
          await store.append('kept', [{ role: 'user', content: [{ type: 'file', file: { filename: 'holiday-photos.pdf', file_data: url } }] }]);
        } catch (e) {
          const err = e as { name: string; reason: string; message: string };
          error = { name: err.name, reason: err.reason, message: err.message };
        }
        const kept = (await store.load('kept'))!.messages;
        const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
          const open = indexedDB.open('quota-files');
          open.onsuccess = () => {
            const req = open.result.transaction('sessions').objectStore('sessions').getAllKeys();
            req.onsuccess = () => {
              resolve(req.result);
              open.result.close();
            };
            req.onerror = () => reject(req.error);
          };
        });
        return { error, kept, keys };
      });
      expect(result.error).toMatchObject({ name: 'StoreError', reason: 'quota' });
      expect(result.error!.message).toContain('"holiday-photos.pdf" (4,194,304 bytes)');
      expect(result.error!.message).toMatch(/append "kept".*quota/);
      expect(result.kept).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'small 🐜' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      ]);
      // one message, its blob, the meta record: the failed write left nothing behind
      expect(result.keys).toHaveLength(3);
    } finally {
      await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    }
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);
});
