// A real download from the conversation list's export (Playwright's download event), and the import of
// that very file through the list's file picker.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, startHarness, type Harness } from './store/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('export and import through the conversation list', () => {
  it('downloads store.export(id) as a .json file named after the title, and imports it back after a delete', async () => {
    const context = await h.browser.newContext({ acceptDownloads: true });
    const page = await openPage(context, h.baseUrl);
    await page.evaluate(async () => {
      const store = window.pagent.storeFor('export-e2e');
      await store.append('trip', [
        { role: 'user', content: 'Plan a day in 京都 / Kyoto' },
        { role: 'assistant', content: 'Morning: Fushimi Inari 🦊' },
      ]);
      const chat = document.createElement('pagent-chat');
      chat.store = store;
      document.body.append(chat);
    });
    await page.locator('pagent-chat [part="session-export"]').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('pagent-chat [part="session-export-json"]').click()]);
    expect(download.suggestedFilename()).toBe('Plan a day in 京都 Kyoto.json');
    const text = await readFile((await download.path())!, 'utf8');
    expect(text).toBe(await page.evaluate(() => window.pagent.storeFor('export-e2e').export('trip')));

    await page.evaluate(() => window.pagent.storeFor('export-e2e').delete('trip'));
    await page.locator('pagent-chat .sessions-empty').waitFor();
    await page.locator('pagent-chat .conv-tools input[type="file"]').setInputFiles({ name: 'trip.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.locator('pagent-chat [part="session"][aria-current="true"]').waitFor();
    const messages = await page.evaluate(async () => (await window.pagent.storeFor('export-e2e').load('trip'))?.messages);
    expect(messages).toEqual(JSON.parse(text).session.messages);
    await context.close();
  });
});
