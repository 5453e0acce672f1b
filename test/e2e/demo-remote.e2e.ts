import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preview, type PreviewServer } from 'vite';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';

// The built demo's stateless back ends — an AI SDK route and an AG-UI agent — held by a RemoteAgent: the
// second message's answer comes from a back end that was sent the first turn, the page runs the back
// end's `region` call, an approval goes through the card's buttons, and a reload reopens the conversation.
let server: PreviewServer;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  if (!existsSync('dist-demo/index.html')) throw new Error('dist-demo/ missing: run `npm run build` first');
  server = await preview({ mode: 'demo', preview: { port: 0, strictPort: false, host: '127.0.0.1' } });
  baseUrl = server.resolvedUrls!.local[0]!;
  browser = await launchChromium();
  mkdirSync('test-results', { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the demo with its AI SDK and AG-UI back ends', () => {
  it.each([['remote-ai-sdk'], ['remote-ag-ui']])('%s: tools of the server and of the page, an approval, and the conversation kept across a reload', async (source) => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const requests: Array<Record<string, unknown>> = [];
    page.on('request', (r) => {
      if (r.url().includes('/demo/api/') && r.method() === 'POST') requests.push(JSON.parse(r.postData() ?? '{}') as Record<string, unknown>);
    });
    await page.goto(`${baseUrl}?source=${source}`);
    await page.waitForSelector('body[data-ready]');
    const chat = page.locator('pagent-chat');
    const send = async (text: string): Promise<void> => {
      // the answer's last words show before its run ends; Enter during a run does not send
      await expect.poll(() => chat.evaluate((el) => (el as HTMLElement & { streaming: boolean }).streaming)).toBe(false);
      await chat.locator('textarea').fill(text);
      await page.keyboard.press('Enter');
    };
    const answers = chat.locator('[part~="answer-text"]');

    await send("What's the weather in Tokyo?");
    await expect.poll(() => answers.last().textContent()).toContain('21° celsius in Tokyo right now.');

    await send('Where am I?');
    await expect.poll(() => answers.last().textContent()).toContain('the page ran region');

    await send('Remind me to stretch in an hour.');
    await chat.locator('[part~="approve-button"]').click();
    await expect.poll(() => answers.last().textContent()).toContain('the reminder is set');
    await page.screenshot({ path: `test-results/demo-${source}.png`, fullPage: true });

    // every request carried the whole conversation: the last one holds all three user messages
    const last = requests.at(-1)!;
    const texts = JSON.stringify(last['messages']);
    for (const said of ["What's the weather in Tokyo?", 'Where am I?', 'Remind me to stretch in an hour.']) expect(texts).toContain(said);

    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await expect.poll(() => chat.locator('[part~="message"][part~="user"]').count()).toBe(3);
    expect(errors).toEqual([]);
    await page.close();
  });
});
