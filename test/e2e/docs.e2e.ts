// The documentation site as built (dist-docs/, made by `npm test`'s pretest build): every page of the table
// of contents opens in Chromium with no console error, renders its Markdown, and every live example shows
// its result against the demo's scripted model and wire server (mounted by the docs' preview server). The
// built folder also works from a plain static file server, search included.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preview, type PreviewServer } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startStaticServer } from '../helpers/static-server.js';
import { PAGES } from '../../docs/site/nav.js';

let server: PreviewServer;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  if (!existsSync('dist-docs/index.html')) throw new Error('dist-docs/ missing: run `npm run build` first');
  server = await preview({ configFile: 'docs/vite.config.ts', preview: { port: 0, strictPort: false, host: '127.0.0.1' } });
  baseUrl = server.resolvedUrls!.local[0]!;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** What each live example must show: a selector (shadow roots are pierced) and text it must contain. */
const SHOWS: Record<string, Array<[string, string | RegExp]>> = {
  'element-src': [['pagent-chat [part~="answer-text"]', '21°']],
  'push-events': [['pagent-chat [part~="answer-text"]', 'Pushed by hand: no server at all.']],
  'tool-renderers': [['pagent-chat .weather-card', '☀ Tokyo: 21°C']],
  'wire-client': [['pre.output', 'tool call: clock({})'], ['pre.output', 'RunEnd: no_tool_calls']],
  dialects: [['pre.output', /^pagent: RunBegin TurnBegin TextDelta .*RunEnd\nag-ui: RunBegin TurnBegin TextDelta .*RunEnd\nai-sdk: RunBegin TurnBegin TextDelta .*RunEnd\n$/]],
  agent: [['pre.output', '→ get_weather {"city":"Paris"}'], ['pre.output', '18°']],
  sessions: [['pre.output', /docs-sessions-example: "Think about it: what is the answer\?", \d+ messages/]],
  errors: [['pre.output', 'RunError http 503: The model is overloaded'], ['pre.output', 'onDecodeError: TurnEnd: missing "stopped" (line 2)']],
};

async function open(page: Page, url: string): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 30_000 });
  return errors;
}

describe('the documentation site', () => {
  it.each(PAGES.map((p) => [p.url, p]))('%s renders, with its examples, and logs no error', async (_url, p) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    const errors = await open(page, new URL(p.url, baseUrl).href);
    // the page's own title, and the table of contents with every page, this one marked
    expect((await page.locator('main article h1').first().textContent())?.trim()).toBeTruthy();
    expect(await page.locator('nav.toc a').count()).toBe(PAGES.length);
    expect(await page.locator('nav.toc a[aria-current="page"]').textContent()).toBe(p.title);
    // every link between pages points at a page of the site
    const hrefs = await page.locator('main a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const href of hrefs.filter((h) => h.startsWith(baseUrl))) {
      expect(PAGES.some((q) => href.split('#')[0] === new URL(q.url, baseUrl).href), href).toBe(true);
    }
    const examples = await page.locator('figure[data-example]').evaluateAll((fs) => fs.map((f) => (f as HTMLElement).dataset['example']!));
    const markdown = readFileSync(p.source, 'utf8');
    expect(examples.length).toBe(markdown.split('```example\n').length - 1);
    for (const name of examples) {
      const figure = page.locator(`figure[data-example="${name}"]`).first();
      expect(await figure.getAttribute('data-state'), name).toBe('done');
      const shows = SHOWS[name];
      expect(shows, `an expectation for the example ${name}`).toBeDefined();
      for (const [selector, text] of shows!) {
        const content = (await figure.locator(selector).last().textContent()) ?? '';
        if (typeof text === 'string') expect(content, name).toContain(text);
        else expect(content, name).toMatch(text);
      }
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('searches without a server: a section found by its words opens at its heading', async () => {
    const site = await startStaticServer({ root: 'dist-docs' });
    const page = await browser.newPage();
    try {
      const errors = await open(page, `${site.url}/guides/server.html`);
      await page.locator('.search input').fill('TurnEnd stopped');
      await page.locator('#search-results [role="option"]').first().waitFor();
      const first = await page.locator('#search-results [role="option"] a').first().getAttribute('href');
      expect(first).toBe(`${site.url}/reference/wire-events.html#turnend`);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${site.url}/reference/wire-events.html#turnend`);
      await page.waitForSelector('body[data-ready]');
      expect(await page.locator('h2#turnend').count()).toBe(1);
      // the first table after the heading lists the param
      const params = await page.evaluate(() => {
        const heading = document.getElementById('turnend')!;
        const table = [...document.querySelectorAll('main table')].find((t) => heading.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING);
        return table?.textContent ?? '';
      });
      expect(params).toMatch(/stopped\s*required\s*boolean/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await site.close();
    }
  }, 60_000);
});
