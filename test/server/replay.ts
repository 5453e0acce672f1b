import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS, readBody, sleep, type RouteHandler } from './index.js';

// Two kinds of OpenAI-compatible endpoints, each isolated by a per-test key in the path:
//
//   /replay/<scenario>/<key>/v1/chat/completions
//     replays test/fixtures/provider/<scenario>.sse, one captured response per request, in order
//     (the file holds one response per model call, each starting with a `: pagent-capture` comment).
//   /replay/_script/<key>/v1/chat/completions
//     serves the responses a test registered with POST /replay/_script/<key> ({ responses: Scripted[] }).
//
//   GET /replay/<scenario|_script>/<key>/requests → the JSON request bodies received so far, in order.

/** One scripted response. */
export interface ScriptedResponse {
  /** HTTP status; with a status ≥ 400 the `body` is sent as JSON error text. */
  status?: number;
  /** Raw body for error responses. */
  body?: string;
  /** SSE `data:` payloads (objects are JSON-encoded), written one event at a time. */
  chunks?: unknown[];
  /** Append `data: [DONE]` after the chunks. @defaultValue true */
  done?: boolean;
  /** Milliseconds to wait before each chunk. */
  delayMs?: number;
  /** After the chunks, keep the response open until the client goes away. */
  hang?: boolean;
}

interface KeyState {
  requests: unknown[];
  script: ScriptedResponse[] | undefined;
}

const states = new Map<string, KeyState>();
const captures = new Map<string, string[]>();

function state(id: string): KeyState {
  let s = states.get(id);
  if (!s) {
    s = { requests: [], script: undefined };
    states.set(id, s);
  }
  return s;
}

/** The captured responses of one scenario, byte-exact, split at each `: pagent-capture` comment. */
function capturedResponses(scenario: string): string[] {
  let responses = captures.get(scenario);
  if (!responses) {
    const text = readFileSync(new URL(`../fixtures/provider/${scenario}.sse`, import.meta.url), 'utf8');
    responses = text.split(/(?=^: pagent-capture )/m).filter((part) => part.trim() !== '');
    captures.set(scenario, responses);
  }
  return responses;
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

// a function, not a constant: index.ts imports this module before it defines CORS_HEADERS
const sseHeaders = () => ({ ...CORS_HEADERS, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });

async function writeCapture(res: ServerResponse, text: string): Promise<void> {
  res.writeHead(200, sseHeaders());
  // one SSE event per write, so the client sees a real stream
  for (const event of text.split(/(?<=\n\n)/)) {
    res.write(event);
    await sleep(0);
  }
  res.end();
}

async function writeScripted(req: IncomingMessage, res: ServerResponse, scripted: ScriptedResponse): Promise<void> {
  const status = scripted.status ?? 200;
  if (status >= 400) {
    res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json' }).end(scripted.body ?? '');
    return;
  }
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  res.writeHead(status, sseHeaders());
  for (const chunk of scripted.chunks ?? []) {
    if (scripted.delayMs) await sleep(scripted.delayMs);
    if (gone) return;
    res.write(`data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`);
  }
  if (scripted.hang) {
    await new Promise<void>((resolve) => {
      if (gone) resolve();
      req.on('close', () => resolve());
      res.on('close', () => resolve());
    });
    return;
  }
  if (scripted.done !== false) res.write('data: [DONE]\n\n');
  res.end();
}

/** Provider capture replays and scripted models under /replay/* (the streams behind the pagent corpus). */
export const replayRoutes: RouteHandler = async (req, res, url) => {
  if (!url.pathname.startsWith('/replay/')) return false;
  const parts = url.pathname.split('/').filter(Boolean).slice(1);
  const [scenario, key, ...rest] = parts;
  if (!scenario || !key || !/^[\w-]+$/.test(scenario)) {
    sendJson(res, 404, { error: { message: 'use /replay/<scenario>/<key>/v1/chat/completions' } });
    return true;
  }
  const id = `${scenario}/${key}`;
  const tail = rest.join('/');

  if (tail === 'requests' && req.method === 'GET') {
    sendJson(res, 200, state(id).requests);
    return true;
  }
  if (scenario === '_script' && tail === '' && req.method === 'POST') {
    const { responses } = JSON.parse(await readBody(req)) as { responses: ScriptedResponse[] };
    states.set(id, { requests: [], script: responses });
    sendJson(res, 200, { ok: true });
    return true;
  }
  if (tail !== 'v1/chat/completions' || req.method !== 'POST') {
    sendJson(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
    return true;
  }

  const s = state(id);
  const raw = await readBody(req);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = raw;
  }
  const index = s.requests.length;
  s.requests.push(body);

  if (scenario === '_script') {
    const scripted = s.script?.[index];
    if (!scripted) sendJson(res, 500, { error: { message: `no scripted response #${index + 1} for ${key}` } });
    else await writeScripted(req, res, scripted);
    return true;
  }
  const responses = capturedResponses(scenario);
  const captured = responses[index];
  if (captured === undefined) {
    sendJson(res, 500, { error: { message: `${scenario} has ${responses.length} captured responses; request #${index + 1} has none` } });
  } else {
    await writeCapture(res, captured);
  }
  return true;
};
