/**
 * The built demo (dist-demo/, made by `npm test`'s pretest build) under `vite preview`, whose plugin serves
 * the local scripted model, wire server and back ends — the path a newcomer takes with `npm run demo` —
 * with one Chromium, for the demo's e2e files.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { preview, type PreviewServer } from 'vite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';

/** A demo page in a browser context of its own (its own storage), with what it reported as errors. */
export interface DemoPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions and `console.error` messages of the page, in order. */
  errors: string[];
}

/** Options of {@link BuiltDemo.open}. */
export interface OpenOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** Called before the page loads (listen for requests or responses here). */
  beforeLoad?: (page: Page) => void;
}

/** The served demo of a test file; see {@link builtDemo}. */
export interface BuiltDemo {
  /** The demo's address, ending in `/`. */
  readonly url: string;
  /** Opens the demo with `query` (e.g. `?source=local`) and waits until the page is ready. */
  open(query?: string, options?: OpenOptions): Promise<DemoPage>;
}

/**
 * Serves the built demo and starts Chromium before the calling file's tests, and stops both after them.
 * Call it once, at the top of an e2e file.
 */
export function builtDemo(): BuiltDemo {
  let server: PreviewServer | undefined;
  let browser: Browser | undefined;
  let url = '';

  beforeAll(async () => {
    if (!existsSync('dist-demo/index.html')) throw new Error('dist-demo/ missing: run `npm run build` first');
    server = await preview({ mode: 'demo', preview: { port: 0, strictPort: false, host: '127.0.0.1' } });
    url = server.resolvedUrls!.local[0]!;
    browser = await launchChromium();
    mkdirSync('test-results', { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  return {
    get url() {
      return url;
    },
    async open(query = '', { viewport = { width: 1000, height: 900 }, colorScheme = 'light', beforeLoad } = {}) {
      const context = await browser!.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      beforeLoad?.(page);
      await page.goto(`${url}${query}`);
      await page.waitForSelector('body[data-ready]');
      return { context, page, errors };
    },
  };
}

/** Whether the page's `<pagent-chat>` is running a message. */
export const streaming = (page: Page): Promise<boolean> => page.evaluate(() => document.querySelector('pagent-chat')!.streaming);

/**
 * Sends `text` as a user does, once the message before has finished: an answer's last words show before
 * its run ends, and Enter during a run does not send.
 */
export async function send(page: Page, text: string): Promise<void> {
  await expect.poll(() => streaming(page)).toBe(false);
  await page.locator('pagent-chat textarea').fill(text);
  await page.keyboard.press('Enter');
}
