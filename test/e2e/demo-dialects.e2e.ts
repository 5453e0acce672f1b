import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preview, type PreviewServer } from 'vite';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';

// The built demo's wire server switched to AG-UI and to the AI SDK UI message stream: the element reads
// what the Agent in Node writes in each protocol, and the wire log shows that protocol's raw lines.
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

describe('the demo wire server in other protocols', () => {
  it.each([
    ['wire-ag-ui', '"type":"TOOL_CALL_START"', 'text/event-stream', null],
    ['wire-ai-sdk', '"type":"tool-input-available"', 'text/event-stream', 'v1'],
  ])('%s: a tool call and the answer, and the raw lines of that protocol in the wire log', async (source, rawLine, contentType, marker) => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const response = page.waitForResponse((r) => r.url().includes('/demo/api/chat'));
    await page.goto(`${baseUrl}?source=${source}`);
    await page.waitForSelector('body[data-ready]');
    await page.locator('pagent-chat textarea').fill("What's the weather in Tokyo?");
    await page.keyboard.press('Enter');
    const headers = (await response).headers();
    expect(headers['content-type']).toBe(contentType);
    expect(headers['x-vercel-ai-ui-message-stream'] ?? null).toBe(marker);
    const card = page.locator('pagent-chat [part~="tool-call"]');
    await expect.poll(() => card.getAttribute('data-status')).toBe('ok');
    expect(await card.locator('[part="weather-city"]').textContent()).toBe('Tokyo'); // the demo's weather card
    const answer = page.locator('pagent-chat [part~="answer-text"]').last();
    await expect.poll(() => answer.textContent()).toContain('21° celsius in Tokyo right now.');
    await page.locator('pagent-chat [part="wire-log"] summary').click();
    await expect.poll(() => page.locator('pagent-chat [part~="wire-line"]', { hasText: rawLine }).count()).toBeGreaterThan(0);
    expect(await page.locator('pagent-chat [part~="wire-line-error"]').count()).toBe(0);
    await page.screenshot({ path: `test-results/demo-${source}.png`, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
