import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { wireRoutes, wireUpgrade } from './wire.js';
import { llmRoutes } from './llm.js';
import { replayRoutes } from './replay.js';
import { mcpRoutes } from './mcp.js';
import { remoteRoutes } from './remote.js';
import { modelApiRoutes } from './model-apis.js';

/** A route handler: returns false when the path is not its own. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': '*',
};

// One module of routes per layer, each owning its own path prefix:
//   /wire/*  test/server/wire.ts  (corpus replays, error bodies, stalls, WebSocket)
//   /llm/*    test/server/llm.ts    (scripted OpenAI-compatible model: provider quirks, faults, retries)
//   /replay/* test/server/replay.ts (the provider captures behind the pagent corpus, for parity)
//   /mcp/*    test/server/mcp.ts    (MCP servers built with the official server SDK; own CORS)
//   /remote/* test/server/remote.ts (an AI SDK route and an AG-UI agent that hold conversations)
//   /apis/*   test/server/model-apis.ts (scripted Chat Completions, Responses and Anthropic Messages servers)
const handlers: RouteHandler[] = [wireRoutes, llmRoutes, replayRoutes, mcpRoutes, remoteRoutes, modelApiRoutes];

/** Routes shared by the globalSetup server and the same-origin Vite middleware. */
export async function handleTestRoute(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'OPTIONS' && !url.pathname.startsWith('/mcp/')) {
    res.writeHead(204, CORS_HEADERS).end();
    return true;
  }
  for (const handle of handlers) if (await handle(req, res, url)) return true;
  return false;
}

/** Starts the test server on a free loopback port. */
export async function startTestServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    handleTestRoute(req, res).then(
      (handled) => {
        if (!handled) res.writeHead(404, CORS_HEADERS).end('not found');
      },
      (err: unknown) => {
        if (!res.headersSent) res.writeHead(500, CORS_HEADERS);
        res.end(String(err));
      },
    );
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!wireUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a request body as text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
