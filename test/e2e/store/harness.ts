/**
 * E2E harness for the session store: a Vite dev server (in-process) serving test/e2e/store/index.html,
 * which imports src directly, plus a scripted OpenAI-compatible model mounted on the same server at
 * `/__store-llm/<script>/v1/chat/completions`, and Debian's Chromium driven by playwright-core.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCH_OPTIONS, launchChromium } from '../../helpers/chromium.js';
import type { ChatMessage } from '../../../src/agent/messages.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const PAGE_PATH = '/test/e2e/store/index.html';

/** One request the scripted model received. */
export interface ModelRequest {
  script: string;
  messages: ChatMessage[];
  authorization: string | undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const payload = { id: 'chatcmpl-e2e', object: 'chat.completion.chunk', model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }] };
  return `data: ${JSON.stringify(payload)}\n\n`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** The story the `story` scripts tell, word by word (ASCII, CJK and emoji; every word differs). */
export const STORY: string[] = Array.from({ length: 60 }, (_, i) => (i % 7 === 3 ? `語${i} ` : i % 11 === 5 ? `🦊${i} ` : `word${i} `));

/**
 * The scripted model. Every request is checked first: one whose messages break the chat history rule
 * (see {@link requestProblem}) is answered 400 with the problem, as a provider would, and counted in
 * `refused`. Scripts:
 * - `tools-then-slow`: answers a request with no tool result yet with a call to `lookup` (id `call_a`),
 *   one with one tool result with a second call (`call_b`), and any later one with a slow text answer that
 *   streams a word every `slowChunkMs` and calls `onSlowStreaming` after its third word;
 * - `fast`: a short text answer at once;
 * - `story`: {@link STORY}, a word every `storyChunkMs` (each word's send time in `storySent`); a request
 *   whose last message is an assistant message continues the story from the end of that message's text;
 * - `story-tools`: a request with no tool result yet gets a call to `lookup` (id `call_story`) whose
 *   arguments stream in pieces `storyChunkMs` apart (when it was sent whole: `storyCallSent`); then the story, as `story`.
 */
export class ScriptedModel {
  readonly requests: ModelRequest[] = [];
  /** Requests answered 400 because their history was not valid, with the problem. */
  readonly refused: Array<{ script: string; problem: string }> = [];
  slowChunkMs = 100;
  storyChunkMs = 15;
  /** While set, a story waits after its tenth word until this settles (a run that is surely still going). */
  storyHold: Promise<void> | undefined;
  /** When each story word was written (`Date.now()`), by the word. */
  readonly storySent = new Map<string, number>();
  /** When the `story-tools` call was last sent whole (its arguments and `finish_reason`), `Date.now()`. */
  storyCallSent: number | undefined;
  private slowWaiters: Array<() => void> = [];

  /** Resolves once a slow answer is streaming (three words sent). */
  slowStreaming(): Promise<void> {
    return new Promise((resolve) => this.slowWaiters.push(resolve));
  }

  plugin(): Plugin {
    return {
      name: 'store-e2e-scripted-model',
      configureServer: (server) => {
        server.middlewares.use('/__store-llm', (req, res, next) => {
          this.handle(req, res).catch(next);
        });
      },
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const script = (req.url ?? '').split('/')[1] ?? '';
    const body = JSON.parse(await readBody(req)) as { messages: ChatMessage[] };
    this.requests.push({ script, messages: body.messages, authorization: req.headers.authorization });
    const problem = requestProblem(body.messages.filter((m) => m.role !== 'system'));
    if (problem) {
      this.refused.push({ script, problem });
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: `Invalid messages: ${problem}` } }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    if (script === 'story' || script === 'story-tools') return this.story(script, body.messages, res);
    const toolResults = body.messages.filter((m) => m.role === 'tool').length;
    if (script === 'tools-then-slow' && toolResults < 2) {
      const id = toolResults === 0 ? 'call_a' : 'call_b';
      res.write(chunk({ role: 'assistant', reasoning_content: `調べる ${id} 🔎` }));
      res.write(chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'lookup', arguments: `{"q":"${id}"}` } }] }));
      res.write(chunk({}, 'tool_calls'));
      res.end('data: [DONE]\n\n');
      return;
    }
    if (script === 'tools-then-slow') {
      let closed = false;
      res.on('close', () => {
        closed = true;
      });
      res.write(chunk({ role: 'assistant', content: '' }));
      for (let i = 0; i < 600 && !closed; i++) {
        res.write(chunk({ content: `word${i} ` }));
        if (i === 2) for (const w of this.slowWaiters.splice(0)) w();
        await sleep(this.slowChunkMs);
      }
      if (!closed) {
        res.write(chunk({}, 'stop'));
        res.end('data: [DONE]\n\n');
      }
      return;
    }
    res.write(chunk({ role: 'assistant', content: '了解 ✅' }));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  }
  /** The `story` and `story-tools` scripts. */
  private async story(script: string, messages: ChatMessage[], res: ServerResponse): Promise<void> {
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const results = messages.filter((m) => m.role === 'tool').length;
    if (script === 'story-tools' && results === 0) {
      const args = JSON.stringify({ q: '東京の物語 🦊', depth: 3 });
      res.write(chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_story', type: 'function', function: { name: 'lookup', arguments: '' } }] }));
      for (let i = 0; i < args.length && !closed; i += 4) {
        await sleep(this.storyChunkMs);
        res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + 4) } }] }));
      }
      if (closed) return;
      res.end(chunk({}, 'tool_calls') + 'data: [DONE]\n\n');
      this.storyCallSent = Date.now();
      return;
    }
    const last = messages.at(-1);
    const partial = last?.role === 'assistant' && typeof last.content === 'string' ? last.content : '';
    const told = STORY.join('');
    if (!told.startsWith(partial)) throw new Error(`the story does not start with the partial answer ${JSON.stringify(partial.slice(0, 80))}`);
    res.write(chunk({ role: 'assistant', content: '' }));
    let at = partial.length;
    for (const [i, word] of STORY.entries()) {
      if (i === 10 && this.storyHold) await this.storyHold;
      if (closed) return;
      const from = told.indexOf(word);
      if (from + word.length <= at) continue;
      // (a partial answer may end inside a word: the rest of that word first)
      const piece = told.slice(Math.max(at, from), from + word.length);
      at = from + word.length;
      await sleep(this.storyChunkMs);
      if (closed) return;
      this.storySent.set(word, Date.now());
      res.write(chunk({ content: piece }));
    }
    res.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
  }
}

export interface Harness {
  baseUrl: string;
  model: ScriptedModel;
  browser: Browser;
  /**
   * A browser with an on-disk profile. Chromium applies `Storage.overrideQuotaForOrigin` to IndexedDB
   * writes only there: in the off-the-record contexts of `browser.newContext()` the override is reported
   * active but writes are not held to it.
   */
  persistentContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const model = new ScriptedModel();
  const server: ViteDevServer = await createServer({
    configFile: false,
    root: ROOT,
    logLevel: 'error',
    cacheDir: 'node_modules/.vite-store-e2e',
    appType: 'mpa',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
    // serve the few ESM dependencies as they are: no optimizer run, so no reload in the middle of a test
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [model.plugin()],
  });
  await server.listen();
  const baseUrl = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
  const browser = await launchChromium();
  const profiles: string[] = [];
  const persistent: BrowserContext[] = [];
  return {
    baseUrl,
    model,
    browser,
    async persistentContext() {
      const dir = mkdtempSync(join(tmpdir(), 'pagent-store-e2e-'));
      profiles.push(dir);
      const context = await chromium.launchPersistentContext(dir, CHROMIUM_LAUNCH_OPTIONS);
      persistent.push(context);
      return context;
    },
    async close() {
      for (const c of persistent) await c.close();
      await browser.close();
      await server.close();
      for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Uncaught errors of every page opened with {@link openPage}. */
export const pageErrors: string[] = [];

/** Opens the store test page in `context` and waits until the SDK is on `window.pagent`. */
export async function openPage(context: BrowserContext, baseUrl: string): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(baseUrl + PAGE_PATH);
  await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'ready', null, { timeout: 10_000 });
  return page;
}

/**
 * Says what makes a message list an invalid chat request, or `undefined`: every assistant `tool_calls`
 * message must be followed by one tool message per call before anything else.
 */
export function requestProblem(messages: readonly ChatMessage[]): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      return `message ${i}: a tool message outside the results of an assistant tool_calls message`;
    }
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const want = new Set(m.tool_calls.map((c) => c.id));
    let j = i + 1;
    while (j < messages.length && messages[j]!.role === 'tool') {
      const t = messages[j] as Extract<ChatMessage, { role: 'tool' }>;
      if (!want.delete(t.tool_call_id)) return `message ${j}: a result for an unknown call ${t.tool_call_id}`;
      j++;
    }
    if (want.size > 0) return `message ${i}: tool calls without results: ${[...want].join(', ')}`;
    i = j - 1;
  }
  return undefined;
}
