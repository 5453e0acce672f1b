import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { extname, normalize, sep } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { createHash } from 'node:crypto';
import { installPacked, ROOT } from '../helpers/packed.js';
import { codeBlock } from '../helpers/readme.js';
import { startStaticServer, type StaticRoute } from '../helpers/static-server.js';
import { encodeEventLine } from '../../src/wire/codec.js';
import type { WireEvent } from '../../src/wire/events.js';

// The README's first use (the element pasted into a plain HTML page): no bundler, no import map. The page
// loads pagent-chat.bundle.js from the packed package (standing in for the CDN URL) under the strict CSP of
// docs/guides/integrate.md with Trusted Types, and talks to a scripted wire server that follows the server
// contract of docs/guides/server.md.
const INTEGRATE = 'docs/guides/integrate.md';
const CSP = codeBlock('Content Security Policy', 'text', INTEGRATE)
  .code.replace(/^Content-Security-Policy:/, '')
  .replace(/\s+/g, ' ')
  .trim();

const STEP = { content: '', tool_calls: [], reasoning_content: '', usage: null };
const ANSWER = 'Streamed **without a bundler**:\n\n```js\nconsole.log("hi");\n```\n\n- one\n- two\n\nSee [the docs](https://example.com/docs).';

/** One run: a tool call in turn 0, then the markdown answer in pieces (the only stand-in: the model). */
function scriptedRun(input: string): WireEvent[] {
  const call = { id: 'call_1', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
  const pieces = ANSWER.match(/[\s\S]{1,7}/g)!;
  return [
    { method: 'RunBegin', params: { user_input: input } },
    { method: 'TurnBegin', params: { turn: 0 } },
    { method: 'StepEnd', params: { ...STEP, tool_calls: [call] } },
    { method: 'ToolCallBegin', params: { tool_call_id: 'call_1', name: 'get_weather', arguments: call.function.arguments } },
    { method: 'ToolResult', params: { tool_call_id: 'call_1', name: 'get_weather', content: '{"temp":18}', ok: true } },
    { method: 'TurnEnd', params: { turn: 0, stopped: false } },
    { method: 'TurnBegin', params: { turn: 1 } },
    ...pieces.map((text): WireEvent => ({ method: 'TextDelta', params: { text } })),
    { method: 'StepEnd', params: { ...STEP, content: ANSWER } },
    { method: 'TurnEnd', params: { turn: 1, stopped: true } },
    { method: 'RunEnd', params: { ...STEP, content: ANSWER, stop_reason: 'no_tool_calls' } },
  ];
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text);
}

/** POST /api/chat as the server contract says; records each request body. */
function chatRoute(bodies: unknown[], headers: Record<string, string> = {}): StaticRoute {
  return async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (url.pathname !== '/api/chat') return false;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, headers).end();
      return true;
    }
    const body = (await readJson(req)) as { message: string; session_id?: string };
    bodies.push(body);
    res.writeHead(200, { ...headers, 'Content-Type': 'application/x-ndjson', 'X-Session-Id': body.session_id ?? 'session-1' });
    for (const event of scriptedRun(body.message)) {
      res.write(encodeEventLine(event));
      await new Promise((r) => setTimeout(r, 5));
    }
    res.end();
    return true;
  };
}

const CDN = /https:\/\/cdn\.jsdelivr\.net\/npm\/pagent-web@[^/]+\//g;
let browser: Browser;
let consumer: string;

beforeAll(async () => {
  consumer = await mkdtemp(join(tmpdir(), 'pagent-no-bundler-'));
  await installPacked(consumer);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await rm(consumer, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  problems: string[];
  requests: string[];
  close: () => Promise<void>;
}

/** Serves `html` (with `csp`) and the packed package under /pagent-web/, and opens the page. */
async function open(html: string, routes: StaticRoute[], csp = CSP): Promise<Opened> {
  const server = await startStaticServer({
    root: join(consumer, 'node_modules'),
    routes: [
      (req, res, url) => {
        if (url.pathname !== '/') return false;
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp }).end(html);
        return true;
      },
      ...routes,
    ],
  });
  const page = await browser.newPage({ viewport: { width: 800, height: 700 } });
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto(server.url);
  return {
    page,
    problems,
    requests,
    close: async () => {
      await page.close();
      await server.close();
    },
  };
}

async function send(page: Page, text: string): Promise<void> {
  await page.locator('pagent-chat textarea').fill(text);
  await page.keyboard.press('Enter');
}

describe('the README element sample in a plain page', () => {
  const quickStart = codeBlock('Use 1 — `<pagent-chat>`', 'html').code;

  it('loads one self-contained module and renders a streamed answer under strict CSP and Trusted Types', async () => {
    expect(quickStart).toMatch(CDN);
    const bodies: unknown[] = [];
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>plain page</title></head><body>\n${quickStart.replace(CDN, '/pagent-web/')}</body></html>`;
    const { page, problems, requests, close } = await open(html, [chatRoute(bodies)]);
    await expect.poll(() => page.evaluate(() => customElements.get('pagent-chat') !== undefined)).toBe(true);

    await send(page, 'Weather in Paris?');
    const answer = page.locator('pagent-chat [part~="answer-text"]').last();
    await expect.poll(() => answer.textContent()).toContain('See the docs.');
    expect(await answer.locator('strong').textContent()).toBe('without a bundler');
    expect(await answer.locator('pre code').textContent()).toBe('console.log("hi");\n');
    expect(await answer.locator('li').allTextContents()).toEqual(['one', 'two']);
    expect(await answer.locator('a').getAttribute('href')).toBe('https://example.com/docs');
    const card = page.locator('pagent-chat [part~="tool-call"]');
    expect(await card.getAttribute('data-status')).toBe('ok');

    // the server's X-Session-Id comes back as session_id with the next message
    await send(page, 'And tomorrow?');
    await expect.poll(() => page.locator('pagent-chat [part~="answer-text"]').count()).toBe(2);
    expect(bodies).toEqual([{ message: 'Weather in Paris?' }, { message: 'And tomorrow?', session_id: 'session-1' }]);

    // one module, nothing else fetched: every dependency is inside it
    expect(requests).toEqual(['GET /', 'GET /pagent-web/dist/pagent-chat.bundle.js', 'POST /api/chat', 'POST /api/chat']);
    // it carries the SDK too: a plain page can give the element an Agent
    // (a string: Vitest would rewrite an import() inside a function)
    const exported = (await page.evaluate(`import('/pagent-web/dist/pagent-chat.bundle.js').then(Object.keys)`)) as string[];
    expect(exported).toEqual(expect.arrayContaining(['PagentChat', 'Agent', 'OpenAI', 'LLM', 'tool', 'WireClient', 'createSessionStore']));
    expect(problems).toEqual([]);
    await page.screenshot({ path: 'test-results/no-bundler.png', fullPage: true });
    await close();
  });

  it('names the package version in the CDN URL', async () => {
    const { version } = (await import('../../package.json', { with: { type: 'json' } })).default;
    expect([...quickStart.matchAll(CDN)].map((m) => m[0])).toEqual([`https://cdn.jsdelivr.net/npm/pagent-web@${version}/`]);
  });
});

describe('the no-bundler Agent sample of docs/guides/integrate.md', () => {
  it('runs an in-browser agent from a plain page (the provider: a recorded OpenAI stream)', async () => {
    const html = `<!doctype html><html><head><meta charset="utf-8"></head><body>\n${codeBlock('No bundler, or a CDN', 'html', INTEGRATE).code.replace(CDN, '/pagent-web/')}</body></html>`;
    const recorded = await readFile(new URL('../fixtures/provider/text.sse', import.meta.url), 'utf8');
    const server = await startStaticServer({
      root: join(consumer, 'node_modules'),
      routes: [
        (_, res, url) => {
          if (url.pathname !== '/') return false;
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
          return true;
        },
      ],
    });
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('dialog', (d) => void d.accept('sk-test-key'));
    const authorizations: Array<string | undefined> = [];
    await page.route('https://api.openai.com/**', (route) => {
      authorizations.push(route.request().headers()['authorization']);
      return route.fulfill({
        status: 200,
        headers: { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/event-stream' },
        body: recorded,
      });
    });
    await page.goto(server.url);
    // the key comes from the sample's prompt(); the module has run once the element holds the agent
    await expect.poll(() => page.evaluate(() => document.querySelector('pagent-chat')?.agent !== undefined)).toBe(true);
    await send(page, 'What is 2+2?');
    await expect.poll(() => page.locator('pagent-chat [part~="answer-text"]').last().textContent()).toBe('The answer is 4.');
    expect(authorizations).toEqual(['Bearer sk-test-key']);
    expect(problems).toEqual([]);
    await page.close();
    await server.close();
  });
});

describe('a cross-origin src', () => {
  const page = (apiUrl: string): string =>
    `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="/pagent-web/dist/pagent-chat.bundle.js"></script></head>` +
    `<body><pagent-chat src="${apiUrl}/api/chat"></pagent-chat></body></html>`;
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type' };

  it.each([
    ['without Access-Control-Expose-Headers, every message starts a new server session', {}, undefined],
    ['with Access-Control-Expose-Headers: X-Session-Id, the session continues', { 'Access-Control-Expose-Headers': 'X-Session-Id' }, 'session-1'],
  ])('%s', async (_, expose, secondSessionId) => {
    const bodies: unknown[] = [];
    const api = await startStaticServer({ root: consumer, routes: [chatRoute(bodies, { ...cors, ...expose })] });
    const { page: p, problems, close } = await open(page(api.url), [], CSP.replace("connect-src 'self'", `connect-src ${api.url}`));
    await expect.poll(() => p.evaluate(() => customElements.get('pagent-chat') !== undefined)).toBe(true);
    await send(p, 'one');
    await expect.poll(() => p.locator('pagent-chat [part~="answer-text"]').count()).toBe(1);
    await expect.poll(() => p.locator('pagent-chat [part~="answer-text"]').last().textContent()).toContain('See the docs.');
    await send(p, 'two');
    await expect.poll(() => bodies.length).toBe(2);
    expect(bodies[1]).toEqual(secondSessionId ? { message: 'two', session_id: secondSessionId } : { message: 'two' });
    expect(problems).toEqual([]);
    await close();
    await api.close();
  });
});

/** Serves the repository's node_modules under /deps/: the module build's dependencies, for an import map. */
const depsRoute: StaticRoute = async (_req, res, url) => {
  if (!url.pathname.startsWith('/deps/')) return false;
  const root = join(ROOT, 'node_modules');
  const path = normalize(join(root, decodeURIComponent(url.pathname.slice('/deps/'.length))));
  if (!path.startsWith(root + sep)) return void res.writeHead(403).end(), true;
  const body = await readFile(path).catch(() => undefined);
  if (!body) return void res.writeHead(404).end(), true;
  res.writeHead(200, { 'Content-Type': extname(path) === '.js' ? 'text/javascript; charset=utf-8' : 'application/octet-stream' }).end(body);
  return true;
};

/** The module build's bare imports, resolved the way a CDN's import map would. */
const IMPORT_MAP = JSON.stringify({
  imports: {
    lit: '/deps/lit/index.js',
    'lit/': '/deps/lit/',
    'lit-html': '/deps/lit-html/lit-html.js',
    'lit-html/': '/deps/lit-html/',
    'lit-element/': '/deps/lit-element/',
    '@lit/reactive-element': '/deps/@lit/reactive-element/reactive-element.js',
    '@lit/reactive-element/': '/deps/@lit/reactive-element/',
    'idb-keyval': '/deps/idb-keyval/dist/index.js',
    'eventsource-parser': '/deps/eventsource-parser/dist/index.js',
  },
});

describe('an image attachment under the documented policy', () => {
  const png = readFile(new URL('../fixtures/images/pixel.png', import.meta.url));
  // the import map is the one inline script: the policy allows it by its hash, and nothing else changes
  const mapHash = `'sha256-${createHash('sha256').update(IMPORT_MAP).digest('base64')}'`;
  const builds = [
    ['the bundle', '<script type="module" src="/pagent-web/dist/pagent-chat.bundle.js"></script>', CSP],
    ['the module build', `<script type="importmap">${IMPORT_MAP}</script><script type="module" src="/pagent-web/dist/pagent-chat.js"></script>`, CSP.replace("script-src 'self'", `script-src 'self' ${mapHash}`)],
  ] as const;

  it.each(builds)('%s: the preview, the sent thumbnail and the viewer show it with no violation', async (_, script, csp) => {
    const html = `<!doctype html><html><head><meta charset="utf-8">${script}</head><body><pagent-chat src="/api/chat"></pagent-chat></body></html>`;
    const bodies: unknown[] = [];
    const { page, problems, close } = await open(html, [chatRoute(bodies), depsRoute], csp);
    await expect.poll(() => page.evaluate(() => customElements.get('pagent-chat') !== undefined)).toBe(true);
    await page.locator('pagent-chat input[type="file"]').setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: await png });
    const loaded = (selector: string) => page.locator(selector).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth);
    await expect.poll(() => loaded('pagent-chat [part~="attachment-preview"] img')).toBe(2);
    await send(page, 'What is this?');
    await expect.poll(() => page.locator('pagent-chat [part~="answer-text"]').count()).toBe(1);
    await expect.poll(() => loaded('pagent-chat [part~="attachment-thumb"] img')).toBe(2);
    await page.locator('pagent-chat [part~="attachment-thumb"]').click();
    await expect.poll(() => loaded('pagent-chat dialog[open] img')).toBe(2);
    expect((bodies[0] as { content: unknown[] }).content).toHaveLength(2);
    expect(problems).toEqual([]);
    await close();
  });
});
