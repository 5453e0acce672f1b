import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS, readBody, sleep, type RouteHandler } from './index.js';
import { QUIRK_STREAMS } from './llm-quirks.js';

/**
 * Scripted OpenAI-compatible model routes under /llm/*, each ending in `/v1/chat/completions` so an LLM's
 * baseURL is the part before `/chat/completions`:
 *   /llm/real/<name>/v1                 test/fixtures/providers-real/<name>.sse, byte-exact
 *   /llm/quirk/<name>/v1                a synthetic quirk stream from ./llm-quirks.ts
 *   /llm/script/<key>/<steps>/v1        attempt n (counted per key) plays steps[n] (the last one repeats);
 *                                       steps are comma-separated (see `playStep`)
 *   GET /llm/attempts/<key>             {count, requests: [{headers, body}]} seen under that key
 */

interface Attempts {
  count: number;
  requests: Array<{ headers: Record<string, string | string[] | undefined>; body: unknown }>;
  /** For the endless steps: bytes written, and whether the client went away before the server stopped. */
  endless?: { sent: number; clientGone: boolean };
}

/** What an endless step writes at most before it gives up on its own (the test server stays bounded). */
const ENDLESS_CAP = 64 * 1024 * 1024;
const attempts = new Map<string, Attempts>();

// A function, not a constant: index.ts imports this module before CORS_HEADERS is initialised (import cycle).
const sseHeaders = (): Record<string, string> => ({ ...CORS_HEADERS, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
const fixture = (name: string): Buffer =>
  readFileSync(new URL(`../fixtures/providers-real/${name.replace(/[^\w.-]/g, '')}.sse`, import.meta.url));

const textChunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;

/** The `ok` answer: "Hello world" in two deltas, usage, [DONE]. */
const OK_STREAM =
  textChunk({ role: 'assistant', content: 'Hello' }) +
  textChunk({ content: ' world' }) +
  textChunk({}, 'stop') +
  `data: ${JSON.stringify({ id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })}\n\n` +
  'data: [DONE]\n\n';

const jsonError = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
};

const waitForClose = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    res.on('close', () => resolve());
    req.on('close', () => resolve());
  });

/**
 * Plays one scripted step:
 *   ok                 200 "Hello world" stream
 *   s<status>          that status with {"error":{"message":"scripted <status>"}}
 *   s<status>-ra<n>    ... with Retry-After: n (seconds); -radate<n>: an HTTP date n seconds ahead; -rams<n>: retry-after-ms
 *   reset              a broken status line, then the socket closes (a network error before any response)
 *   cut                200 headers and the first body byte, then the socket is destroyed
 *   end                200, one content chunk, then a clean end (no finish_reason, no [DONE])
 *   hang               no response at all until the client goes away
 *   stall              200, one content chunk, then silence until the client goes away
 *   slow               the ok stream, each message 30 ms apart
 *   echo401            401 whose error message echoes the Authorization header
 *   echoerr            200 stream with an error chunk echoing the Authorization header
 *   nocors             the ok stream without any CORS header
 *   xredirect          307 to the same script path, key + "-target", on the other loopback origin
 *                      (127.0.0.1 ↔ localhost), whose step plays ok
 *   sredirect          307 to that path on the same origin
 *   json               a non-streamed chat.completion JSON object
 *   jsonthink          the same, its content a <think> block then the answer
 *   html502            502 with an HTML page
 *   nginx502           502 with nginx's own error page (text/html, padded past 500 characters)
 *   fastapi422         422 with FastAPI's validation error body (`detail: [{loc, msg, type}, ...]`)
 *   mistral422         Mistral's 422 body for stream_options
 *   endless            200 stream: one content chunk, then one `data:` line that never ends
 *   endlesslines       200 stream: one content chunk, then `data:` lines that never end the message
 *   endlessjson        200 application/json body that never ends
 *   endless500         500 whose error body never ends
 * The endless steps write 16 KiB pieces until the client goes or ENDLESS_CAP, and record it in `endless`.
 */
async function playStep(step: string, req: IncomingMessage, res: ServerResponse, record: Attempts): Promise<void> {
  const status = /^s(\d{3})(?:-(ra|radate|rams)(\d+))?$/.exec(step);
  if (status) {
    const code = Number(status[1]);
    const headers: Record<string, string> = {};
    if (status[2] === 'ra') headers['Retry-After'] = status[3]!;
    if (status[2] === 'rams') headers['retry-after-ms'] = status[3]!;
    if (status[2] === 'radate') headers['Retry-After'] = new Date(Date.now() + Number(status[3]) * 1000).toUTCString();
    jsonError(res, code, { error: { message: `scripted ${code}`, type: 'scripted' } }, headers);
    return;
  }
  const auth = String(req.headers['authorization'] ?? '');
  switch (step) {
    case 'ok':
      res.writeHead(200, sseHeaders()).end(OK_STREAM);
      return;
    case 'reset':
      // Not a bare destroy: Chromium silently retries a request whose reused socket closed without a byte,
      // which would make the attempt count non-deterministic. A broken status line fails the request once.
      req.socket.end('HTTP/1.1 5\r\n\r\n');
      return;
    case 'cut':
      res.writeHead(200, sseHeaders());
      res.write('d');
      // Long enough for the client to read the byte: an errored body stream drops unread chunks.
      await sleep(200);
      req.socket.destroy();
      return;
    case 'end':
      res.writeHead(200, sseHeaders()).end(textChunk({ role: 'assistant', content: 'Hel' }));
      return;
    case 'hang':
      await waitForClose(req, res);
      return;
    case 'stall':
      res.writeHead(200, sseHeaders());
      res.write(textChunk({ role: 'assistant', content: 'Hel' }));
      await waitForClose(req, res);
      return;
    case 'slow': {
      res.writeHead(200, sseHeaders());
      for (const message of OK_STREAM.split(/(?<=\n\n)/)) {
        if (res.destroyed) return;
        res.write(message);
        await sleep(30);
      }
      res.end();
      return;
    }
    case 'echo401':
      jsonError(res, 401, { error: { message: `Incorrect API key provided: ${auth}`, type: 'invalid_request_error' } });
      return;
    case 'echoerr':
      res.writeHead(200, sseHeaders()).end(
        textChunk({ role: 'assistant', content: 'Hi' }) + `data: ${JSON.stringify({ error: { message: `upstream rejected ${auth}` } })}\n\n` + 'data: [DONE]\n\n',
      );
      return;
    case 'xredirect':
    case 'sredirect': {
      const [host, port] = String(req.headers.host ?? '').split(':');
      const otherHost = step === 'sredirect' ? host : host === 'localhost' ? '127.0.0.1' : 'localhost';
      const key = /^\/llm\/script\/([\w-]+)\//.exec(req.url ?? '')?.[1] ?? 'x';
      const location = `http://${otherHost}:${port}/llm/script/${key}-target/ok/v1/chat/completions`;
      res.writeHead(307, { ...CORS_HEADERS, Location: location }).end();
      return;
    }
    case 'nocors':
      res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(OK_STREAM);
      return;
    case 'json':
      jsonError(res, 200, {
        id: 'chatcmpl-j',
        object: 'chat.completion',
        model: 'scripted',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Not streamed' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      });
      return;
    case 'jsonthink':
      jsonError(res, 200, {
        id: 'chatcmpl-t',
        object: 'chat.completion',
        model: 'scripted',
        choices: [{ index: 0, message: { role: 'assistant', content: '<think>\nWhy not.\n</think>\n\nNot streamed' }, finish_reason: 'stop' }],
      });
      return;
    case 'html502':
      res.writeHead(502, { ...CORS_HEADERS, 'Content-Type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    case 'nginx502':
      res
        .writeHead(502, { ...CORS_HEADERS, 'Content-Type': 'text/html' })
        .end(
          '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
            '<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n' +
            '<!-- a padding to disable MSIE and Chrome friendly error page -->\r\n'.repeat(6),
        );
      return;
    case 'fastapi422':
      jsonError(res, 422, {
        detail: [
          { type: 'missing', loc: ['body', 'messages', 0, 'content'], msg: 'Field required', input: { role: 'user' } },
          { type: 'float_type', loc: ['body', 'temperature'], msg: 'Input should be a valid number', input: 'hot' },
          { type: 'extra_forbidden', loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted', input: {} },
          { type: 'extra_forbidden', loc: ['body', 'seed'], msg: 'Extra inputs are not permitted', input: 1 },
        ],
      });
      return;
    case 'mistral422':
      jsonError(res, 422, {
        object: 'error',
        message: { detail: [{ type: 'extra_forbidden', loc: ['body', 'stream_options', 'include_usage'], msg: 'Extra inputs are not permitted', input: true }] },
        type: 'invalid_request_error',
        param: null,
        code: null,
      });
      return;
    case 'endless':
    case 'endlesslines':
    case 'endlessjson':
    case 'endless500': {
      const json = step === 'endlessjson' || step === 'endless500';
      res.writeHead(step === 'endless500' ? 500 : 200, json ? { ...CORS_HEADERS, 'Content-Type': 'application/json' } : sseHeaders());
      const piece =
        step === 'endlesslines' ? `data: ${'x'.repeat(16 * 1024 - 7)}\n` : 'x'.repeat(16 * 1024);
      const first = json ? `{"error":{"message":"` : `${textChunk({ role: 'assistant', content: 'Hel' })}data: "`;
      await playEndless(req, res, record, step === 'endlesslines' ? textChunk({ role: 'assistant', content: 'Hel' }) : first, piece);
      return;
    }
    default:
      jsonError(res, 400, { error: { message: `unknown scripted step ${step}` } });
  }
}

/** Writes `first`, then `piece` over and over (waiting for drain) until the client goes or ENDLESS_CAP. */
async function playEndless(req: IncomingMessage, res: ServerResponse, record: Attempts, first: string, piece: string): Promise<void> {
  const endless = { sent: 0, clientGone: false };
  record.endless = endless;
  let gone = false;
  const closed = waitForClose(req, res).then(() => {
    gone = true;
    endless.clientGone = !res.writableFinished;
  });
  let text = first;
  while (!gone && !res.destroyed && endless.sent < ENDLESS_CAP) {
    endless.sent += Buffer.byteLength(text);
    if (!res.write(text)) await Promise.race([new Promise((r) => res.once('drain', r)), closed]);
    text = piece;
  }
  if (!gone) res.end();
}

/** Scripted OpenAI-compatible model routes under /llm/* (see the module comment). */
export const llmRoutes: RouteHandler = async (req, res, url) => {
  const path = url.pathname;
  if (!path.startsWith('/llm/')) return false;

  const attemptsMatch = /^\/llm\/attempts\/([\w-]+)$/.exec(path);
  if (attemptsMatch && req.method === 'GET') {
    jsonError(res, 200, attempts.get(attemptsMatch[1]!) ?? { count: 0, requests: [] });
    return true;
  }

  const real = /^\/llm\/real\/([\w.-]+)\/v1\/chat\/completions$/.exec(path);
  if (real) {
    await readBody(req);
    let body: Buffer;
    try {
      body = fixture(real[1]!);
    } catch {
      jsonError(res, 404, { error: { message: `no recording ${real[1]}` } });
      return true;
    }
    res.writeHead(200, sseHeaders()).end(body);
    return true;
  }

  const quirk = /^\/llm\/quirk\/([\w.-]+)\/v1\/chat\/completions$/.exec(path);
  if (quirk) {
    await readBody(req);
    const stream = QUIRK_STREAMS[quirk[1]!];
    if (!stream) jsonError(res, 404, { error: { message: `no quirk stream ${quirk[1]}` } });
    else res.writeHead(200, sseHeaders()).end(stream.sse);
    return true;
  }

  const script = /^\/llm\/script\/([\w-]+)\/([\w,-]+)\/v1\/chat\/completions$/.exec(path);
  if (script && req.method !== 'POST') {
    // a browser's reachability probe after a network failure (a no-cors GET): answered, never counted
    res.writeHead(405, { ...CORS_HEADERS, Allow: 'POST' }).end();
    return true;
  }
  if (script) {
    const key = script[1]!;
    const steps = script[2]!.split(',');
    const text = await readBody(req);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // kept as text
    }
    const record = attempts.get(key) ?? { count: 0, requests: [] };
    attempts.set(key, record);
    const step = steps[Math.min(record.count, steps.length - 1)]!;
    record.count++;
    record.requests.push({ headers: { ...req.headers }, body });
    await playStep(step, req, res, record);
    return true;
  }

  return false;
};
