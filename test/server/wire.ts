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
