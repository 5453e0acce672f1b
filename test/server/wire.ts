import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { randomPieces } from '../helpers/random.js';
import { CORS_HEADERS, readBody, sleep, type RouteHandler } from './index.js';

/**
 * A scripted HTTP response, sent by the test as the JSON body of a POST to /wire/script (or as
 * `?s=<JSON>` on a GET): how the server answers, byte by byte.
 */
export interface WireScript {
  /** @defaultValue 200 */
  status?: number;
  /** Wait this long before sending the status line and headers. */
  headersDelayMs?: number;
  /** Response headers (CORS headers are always added). No Content-Type unless given here. */
  headers?: Record<string, string>;
  /** Written in order, each as its own write. */
  chunks?: string[];
  /** Alternatively one body, cut into random pieces of 1..chunkMax bytes (seeded; cuts inside UTF-8 too). */
  body?: string;
  chunkMax?: number;
  seed?: number;
  /** Pause before every write after the first. */
  delayMs?: number;
  /** After the last write: end the response, keep it open until the client leaves, or reset the connection. */
  end?: 'end' | 'hang' | 'destroy';
  /** Record how the connection ended under this id (see /wire/closes). */
  id?: string;
}

/** A scripted WebSocket session, given as `?s=<JSON>` on /wire/ws. */
export interface WireSocketScript {
  /** Text frames, or binary frames: `{binary}` (that text's UTF-8 bytes) or `{bytes}` (raw bytes). */
  frames: Array<string | { binary: string } | { bytes: number[] }>;
  /** Pause before every frame after the first. */
  delayMs?: number;
  /** After the last frame: a clean close, a TCP reset without a close frame, or nothing. */
  end?: 'close' | 'terminate' | 'hang';
  closeCode?: number;
  closeReason?: string;
  id?: string;
}

/** How a recorded connection ended, as /wire/closes?id= reports it. */
export interface CloseRecord {
  /** The connection is gone. */
  closed: boolean;
  /** The server had sent everything (its response ended, or it closed the socket) before it went. */
  finishedByServer: boolean;
  /** Chunks or frames written before it went. */
  writes: number;
  /** WebSocket only: the close code the server saw. */
  code?: number;
}

/**
 * A resumable SSE run, given as `?s=<JSON>` on /wire/resumable/<key>: how the server behaves on each
 * request for that run (the first request, then each reconnect).
 */
export interface ResumableScript {
  /** The run's documents (each the data of one SSE message), or a corpus file (`pagent/text.ndjson`) whose lines are. */
  docs?: string[];
  corpus?: string;
  /**
   * Per request: after how many messages of that response the connection goes (after half of the next
   * message, cut inside its line); absent: the response is not cut. After one message or more the server
   * holds there until `POST /wire/resumable-drop/<key>`: a browser discards what it had not read yet when
   * a connection fails, so the test says when it has the events.
   */
  dropAfter?: Array<number | null>;
  /** How it goes: a TCP reset, or a clean end of the response. @defaultValue 'destroy' */
  dropWith?: 'destroy' | 'end';
  /** Cut between messages rather than inside one. */
  dropAtBoundary?: boolean;
  /** A `retry` field at the start of each response. */
  retry?: number;
  /** Put `id` fields on the messages. @defaultValue true */
  ids?: boolean;
  /**
   * What a request with `Last-Event-ID` gets: the messages after it (as a resumable server does), that
   * message again too (an off-by-one), or the whole run again (a server that ignores the header).
   * @defaultValue 'after'
   */
  replay?: 'after' | 'inclusive' | 'all';
  /** Per request: the status (0: the connection is reset before any response). @defaultValue 200 */
  status?: Array<number | null>;
  /** Per request: the Content-Type. @defaultValue 'text/event-stream' */
  contentType?: Array<string | null>;
  /** Write NDJSON lines (no ids, no SSE) instead. */
  ndjson?: boolean;
  /** End the last message without its blank line (some servers do). */
  noFinalBlankLine?: boolean;
}

/** What the resumable route saw of one request. */
export interface ResumableRequest {
  method: string;
  lastEventId: string | null;
  body: string;
  /** The request's x-* headers. */
  headers: Record<string, string>;
}

/** The runs of /wire/resumable: each message kept with its id, as a server that can resume keeps them. */
const resumableRuns = new Map<string, { messages: Array<{ id: string; data: string }>; requests: ResumableRequest[] }>();
/** Responses of /wire/resumable held at their cut, by run key; and drops asked for before the cut came. */
const heldForDrop = new Map<string, () => void>();
const dropsAsked = new Set<string>();

async function playResumable(req: IncomingMessage, res: ServerResponse, key: string, script: ResumableScript): Promise<void> {
  const body = req.method === 'POST' ? await readBody(req) : '';
  let run = resumableRuns.get(key);
  if (!run) {
    const corpus = (script.corpus ?? 'pagent/text.ndjson').split('/');
    if (!corpus.every((segment) => SAFE_SEGMENT.test(segment))) throw new Error(`bad corpus path ${script.corpus}`);
    const docs = script.docs ?? readFileSync(`${fixtures}${corpus.join('/')}`, 'utf8').split('\n').filter((l) => l !== '');
    run = { messages: docs.map((data, i) => ({ id: String(i + 1), data })), requests: [] };
    resumableRuns.set(key, run);
  }
  const lastEventId = req.headers['last-event-id'];
  const n = run.requests.length;
  run.requests.push({
    method: req.method ?? '',
    lastEventId: typeof lastEventId === 'string' ? lastEventId : null,
    body,
    headers: Object.fromEntries(Object.entries(req.headers).filter((e): e is [string, string] => e[0].startsWith('x-') && typeof e[1] === 'string')),
  });
  const status = script.status?.[n] ?? 200;
  if (status === 0) {
    req.socket.destroy();
    return;
  }
  if (status !== 200) {
    res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: `refused request ${n + 1}` }));
    return;
  }
  req.socket.setNoDelay(true);
  res.writeHead(200, { ...CORS_HEADERS, 'Cache-Control': 'no-cache', 'Content-Type': script.contentType?.[n] ?? (script.ndjson ? 'application/x-ndjson' : 'text/event-stream') });
  res.flushHeaders();
  let from = 0;
  if (typeof lastEventId === 'string' && script.replay !== 'all') {
    from = run.messages.findIndex((m) => m.id === lastEventId) + (script.replay === 'inclusive' ? 0 : 1);
  }
  const frame = (m: { id: string; data: string }, first: boolean): string => {
    if (script.ndjson) return `${m.data}\n`;
    const retry = first && script.retry !== undefined ? `retry: ${script.retry}\n` : '';
    const blank = script.noFinalBlankLine && m === run.messages.at(-1) ? '' : '\n';
    return `${retry}${script.ids === false ? '' : `id: ${m.id}\n`}data: ${m.data}\n${blank}`;
  };
  const dropAfter = script.dropAfter?.[n] ?? undefined;
  const messages = run.messages.slice(from);
  for (const [i, message] of messages.entries()) {
    if (i > 0) await new Promise((r) => setImmediate(r));
    if (res.destroyed) return;
    const text = frame(message, i === 0);
    if (i === dropAfter) {
      if (i > 0 && !dropsAsked.delete(key)) {
        await new Promise<void>((resolve) => {
          heldForDrop.set(key, resolve);
          res.on('close', resolve);
        });
        heldForDrop.delete(key);
        if (res.destroyed) return;
      }
      if (!script.dropAtBoundary) res.write(Buffer.from(text, 'utf8').subarray(0, Math.ceil(Buffer.byteLength(text) / 2)));
      await sleep(20);
      if (script.dropWith === 'end') res.end();
      else req.socket.destroy();
      return;
    }
    res.write(text);
  }
  res.end();
}

const records = new Map<string, CloseRecord>();
const recordedBodies = new Map<string, string[]>();
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const SAFE_SEGMENT = /^[A-Za-z0-9_.-]+$/;

async function play(req: IncomingMessage, res: ServerResponse, script: WireScript): Promise<void> {
  const record: CloseRecord = { closed: false, finishedByServer: false, writes: 0 };
  if (script.id) records.set(script.id, record);
  let gone = false;
  res.on('close', () => {
    gone = true;
    record.closed = true;
    record.finishedByServer = res.writableFinished;
  });
  req.socket.setNoDelay(true);
  for (let waited = 0; !gone && waited < (script.headersDelayMs ?? 0); waited += 10) await sleep(10);
  if (gone) return;
  res.writeHead(script.status ?? 200, { ...CORS_HEADERS, 'Cache-Control': 'no-cache', ...script.headers });
  res.flushHeaders();

  const pieces =
    script.body !== undefined
      ? randomPieces(Buffer.from(script.body, 'utf8'), script.chunkMax ?? 16, script.seed ?? 1)
      : (script.chunks ?? []).map((c) => Buffer.from(c, 'utf8'));
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) await (script.delayMs ? sleep(script.delayMs) : new Promise((r) => setImmediate(r)));
    if (gone) return;
    res.write(piece);
    record.writes += 1;
  }
  switch (script.end ?? 'end') {
    case 'end':
      res.end();
      return;
    case 'destroy':
      await sleep(20);
      req.socket.destroy();
      return;
    case 'hang':
      // until the client leaves; a safety net so a broken test never keeps a socket forever
      for (let waited = 0; !gone && waited < 30_000; waited += 25) await sleep(25);
      if (!gone) res.end();
  }
}

/** Serves a corpus file: NDJSON as is, or each line as an SSE `data:` message (`as=sse`). */
function corpusScript(url: URL): WireScript | undefined {
  const [, , , dir, file] = url.pathname.split('/');
  if (!dir || !file || !SAFE_SEGMENT.test(dir) || !SAFE_SEGMENT.test(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(`${fixtures}${dir}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
  const q = url.searchParams;
  const sse = q.get('as') === 'sse';
  const body = sse
    ? text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => `data: ${line}\n\n`)
        .join('')
    : text;
  const type = q.get('type') ?? (sse ? 'text/event-stream' : 'application/x-ndjson');
  return {
    headers: type === 'none' ? {} : { 'Content-Type': type },
    body,
    chunkMax: Number(q.get('chunkMax') ?? 16),
    seed: Number(q.get('seed') ?? 1),
    delayMs: Number(q.get('delayMs') ?? 0),
  };
}

/**
 * A stream written by the protocol's own producer (`@ag-ui/encoder`, or the AI SDK's `streamText` with its
 * mock model), with the headers that producer sets; `header=0` drops the AI SDK's marker header.
 * The producers load on first use, so the Vite config that mounts these routes stays light.
 */
async function dialectScript(url: URL): Promise<WireScript | undefined> {
  const [, , , dialect, name] = url.pathname.split('/');
  const q = url.searchParams;
  const chunking = { chunkMax: Number(q.get('chunkMax') ?? 16), seed: Number(q.get('seed') ?? 1), delayMs: Number(q.get('delayMs') ?? 0) };
  if (dialect === 'ag-ui') {
    const { agUiScenarios, agUiSse } = await import('../helpers/ag-ui-producer.js');
    const events = (agUiScenarios as Record<string, Parameters<typeof agUiSse>[0]>)[name ?? ''];
    if (!events) return undefined;
    return { headers: { 'Content-Type': 'text/event-stream' }, body: agUiSse(events), ...chunking };
  }
  if (dialect === 'ai-sdk') {
    const { aiSdkResponse, aiSdkResponseWithData, aiSdkScenarios } = await import('../helpers/ai-sdk-producer.js');
    const scenario = (aiSdkScenarios as Record<string, Parameters<typeof aiSdkResponse>[0]>)[name ?? ''];
    if (!scenario) return undefined;
    const response = (q.get('data') === '1' ? aiSdkResponseWithData : aiSdkResponse)(scenario);
    const headers = Object.fromEntries(response.headers);
    if (q.get('header') === '0') delete headers['x-vercel-ai-ui-message-stream'];
    return { headers, body: await response.text(), ...chunking };
  }
  return undefined;
}

function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

/**
 * Wire stream routes under /wire/*:
 * - `POST /wire/script` (body: a {@link WireScript}) or `GET /wire/script?s=<JSON>`: a scripted response;
 * - `GET|POST /wire/corpus/<dir>/<file>?as=sse|ndjson&chunkMax=&seed=&delayMs=&type=`: a corpus file in
 *   random small chunks (`type=none` sends no Content-Type);
 * - `GET|POST /wire/dialect/<ag-ui|ai-sdk>/<scenario>?chunkMax=&seed=&delayMs=&header=0&data=1`: a scenario
 *   of test/helpers/ag-ui-producer.ts or ai-sdk-producer.ts, written by that protocol's own producer;
 * - `GET /wire/echo` / `POST /wire/echo`: one pagent run whose `user_input` is the JSON of the request's
 *   method, body and headers (x-*, accept, content-type);
 * - `POST /wire/recorded/<key>?s=[…]`: records the body and plays the request's script; `GET` lists the bodies;
 * - `GET|POST /wire/resumable/<key>?s=<JSON>`: the run `<key>` as SSE messages with ids, resumed after a
 *   request's `Last-Event-ID` (a {@link ResumableScript} says where each request is cut);
 *   `POST /wire/resumable-drop/<key>`: the response held at its cut goes; `GET /wire/resumable-log/<key>`:
 *   the {@link ResumableRequest}s it got, oldest first;
 * - `GET /wire/closes?id=`: the {@link CloseRecord} of a scripted connection (`{}` when unknown).
 */
export const wireRoutes: RouteHandler = async (req, res, url) => {
  if (!url.pathname.startsWith('/wire/')) return false;
  const route = url.pathname.slice('/wire/'.length);
  if (route === 'script') {
    const text = req.method === 'POST' ? await readBody(req) : (url.searchParams.get('s') ?? '{}');
    await play(req, res, JSON.parse(text) as WireScript);
    return true;
  }
  if (route.startsWith('corpus/')) {
    const script = corpusScript(url);
    if (!script) return false;
    if (req.method === 'POST') await readBody(req);
    await play(req, res, script);
    return true;
  }
  if (route.startsWith('dialect/')) {
    const script = await dialectScript(url);
    if (!script) return false;
    if (req.method === 'POST') await readBody(req);
    await play(req, res, script);
    return true;
  }
  if (route === 'echo') {
    const body = req.method === 'POST' ? await readBody(req) : null;
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => name.startsWith('x-') || name === 'accept' || name === 'content-type'),
    );
    const seen = JSON.stringify({ method: req.method, body, headers });
    const lines = [
      { jsonrpc: '2.0', method: 'RunBegin', params: { user_input: seen } },
      { jsonrpc: '2.0', method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null } },
    ];
    res.writeHead(200, { ...CORS_HEADERS, 'Content-Type': 'application/x-ndjson' });
    res.end(lines.map((l) => JSON.stringify(l) + '\n').join(''));
    return true;
  }
  if (route.startsWith('recorded/')) {
    // POST: records the request body under the key and plays the n-th script of `?s=[…]` (the last one
    // again after that); GET: the bodies received so far, oldest first
    const key = route.slice('recorded/'.length);
    const bodies = recordedBodies.get(key) ?? [];
    recordedBodies.set(key, bodies);
    if (req.method !== 'POST') {
      json(res, bodies);
      return true;
    }
    bodies.push(await readBody(req));
    const scripts = JSON.parse(url.searchParams.get('s') ?? '[]') as WireScript[];
    await play(req, res, scripts[Math.min(bodies.length, scripts.length) - 1] ?? {});
    return true;
  }
  if (route.startsWith('resumable/')) {
    await playResumable(req, res, route.slice('resumable/'.length), JSON.parse(url.searchParams.get('s') ?? '{}') as ResumableScript);
    return true;
  }
  if (route.startsWith('resumable-drop/')) {
    const key = route.slice('resumable-drop/'.length);
    const release = heldForDrop.get(key);
    if (release) release();
    else dropsAsked.add(key);
    json(res, {});
    return true;
  }
  if (route.startsWith('resumable-log/')) {
    json(res, resumableRuns.get(route.slice('resumable-log/'.length))?.requests ?? []);
    return true;
  }
  if (route === 'closes') {
    json(res, records.get(url.searchParams.get('id') ?? '') ?? {});
    return true;
  }
  return false;
};

const sockets = new WebSocketServer({ noServer: true });

async function playSocket(ws: WebSocket, script: WireSocketScript): Promise<void> {
  const record: CloseRecord = { closed: false, finishedByServer: false, writes: 0 };
  if (script.id) records.set(script.id, record);
  let serverClosing = false;
  ws.on('close', (code) => {
    record.closed = true;
    record.finishedByServer = serverClosing;
    record.code = code;
  });
  ws.on('error', () => undefined);
  for (const [i, frame] of script.frames.entries()) {
    if (i > 0 && script.delayMs) await sleep(script.delayMs);
    if (ws.readyState !== ws.OPEN) return;
    if (typeof frame === 'string') ws.send(frame);
    else ws.send('bytes' in frame ? Buffer.from(frame.bytes) : Buffer.from(frame.binary, 'utf8'), { binary: true });
    record.writes += 1;
  }
  await sleep(10);
  if (ws.readyState !== ws.OPEN) return;
  const end = script.end ?? 'close';
  if (end === 'hang') return;
  serverClosing = true;
  if (end === 'terminate') ws.terminate();
  else ws.close(script.closeCode ?? 1000, script.closeReason);
}

/**
 * WebSocket upgrades: `/wire/ws?s=<JSON>` plays a {@link WireSocketScript}; `/wire/ws-reject` refuses
 * the handshake with 403. Returns false when the path is not a WebSocket route.
 */
export function wireUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/wire/ws-reject') {
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    return true;
  }
  if (url.pathname !== '/wire/ws') return false;
  const script = JSON.parse(url.searchParams.get('s') ?? '{"frames": []}') as WireSocketScript;
  sockets.handleUpgrade(req, socket, head, (ws) => void playSocket(ws, script));
  return true;
}
