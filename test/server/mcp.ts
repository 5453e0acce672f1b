import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { readBody, type RouteHandler } from './index.js';

/**
 * Real MCP servers built with the official server SDK, under /mcp/*:
 *   /mcp/<key>/basic   tools add, fail (isError), slow (waits until cancelled), unlock (adds `secret`:
 *                      a tools/list_changed notification), rich (text + image + resource)
 *   /mcp/<key>/auth    the same tools, only with `Authorization: Bearer let-me-in` (else 401)
 *   /mcp/<key>/hang    accepts the connection and never answers
 *   /mcp/<key>/broken  500 with a JSON error body for every request
 *   /mcp/<key>/rpcerror a JSON-RPC error answer (200, application/json) to every request
 *   /mcp/<key>/redirect 307 to /mcp/<key>-target/basic on the other loopback origin (127.0.0.1 ↔ localhost)
 *   /mcp/<key>/echo    the basic server, except that these tools/call echo the request's X-Api-Key and
 *                      Authorization headers back: echo_ok (a result), echo_fail (an isError result),
 *                      echo_rpc (a JSON-RPC error), echo_http (HTTP 500 with a JSON error body)
 *   GET /mcp/<key>/log events the servers under that key saw: ["cancelled <requestId> <reason>", …]
 *   GET /mcp/<key>/requests how many requests (preflights included) reached that key
 * Each key has its own sessions and log, so tests do not see each other.
 */

/** CORS for MCP: Authorization and the MCP headers must be named (a `*` does not cover Authorization). */
export const MCP_CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization, X-Api-Key, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id',
};

const logs = new Map<string, string[]>();
const requestCounts = new Map<string, number>();
const sessions = new Map<string, StreamableHTTPServerTransport>();
const log = (key: string, line: string): void => {
  const list = logs.get(key) ?? [];
  list.push(line);
  logs.set(key, list);
};

function buildServer(key: string, kind: string): McpServer {
  const server = new McpServer({ name: 'pagent-test', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  if (kind === 'echo') {
    // listed here; their calls are answered by echoCall before they reach the server
    for (const name of ['echo_ok', 'echo_fail', 'echo_rpc', 'echo_http']) {
      server.registerTool(name, { description: 'Echoes the request headers.', inputSchema: {} }, async () => ({ content: [] }));
    }
  }
  server.registerTool('add', { description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool('fail', { description: 'Always fails.', inputSchema: { why: z.string() } }, async ({ why }) => ({
    content: [{ type: 'text', text: `cannot do that: ${why}` }],
    isError: true,
  }));
  server.registerTool('slow', { description: 'Waits until cancelled.', inputSchema: {} }, async (_args, extra) => {
    log(key, `slow started ${String(extra.requestId)}`);
    await new Promise<void>((resolve) => {
      if (extra.signal.aborted) resolve();
      extra.signal.addEventListener('abort', () => resolve(), { once: true });
      setTimeout(resolve, 20_000).unref();
    });
    if (extra.signal.aborted) log(key, `cancelled ${String(extra.requestId)} ${String(extra.signal.reason ?? '')}`);
    return { content: [{ type: 'text', text: 'finished' }] };
  });
  server.registerTool('rich', { description: 'Returns several kinds of content.', inputSchema: {} }, async () => ({
    content: [
      { type: 'text', text: 'Report 📄' },
      { type: 'image', data: Buffer.from('png-bytes').toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'mem://notes', text: '中文 notes', mimeType: 'text/plain' } },
    ],
  }));
  server.registerTool('unlock', { description: 'Adds the secret tool.', inputSchema: {} }, async () => {
    server.registerTool('secret', { description: 'The unlocked tool.', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: '42' }] }));
    return { content: [{ type: 'text', text: 'unlocked' }] };
  });
  return server;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...MCP_CORS_HEADERS, 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/** The `echo_*` tools of /mcp/<key>/echo: they answer with the request's own secret headers in them. */
function echoCall(req: IncomingMessage, res: ServerResponse, body: unknown): boolean {
  const call = body as { id?: unknown; method?: unknown; params?: { name?: unknown } } | undefined;
  if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string' || !call.params.name.startsWith('echo_')) return false;
  const echoed = `key ${String(req.headers['x-api-key'])}, auth ${String(req.headers['authorization'])}`;
  const reply = (result: Record<string, unknown>): void => json(res, 200, { jsonrpc: '2.0', id: call.id, ...result });
  switch (call.params.name) {
    case 'echo_ok':
      reply({ result: { content: [{ type: 'text', text: `you sent ${echoed}` }] } });
      break;
    case 'echo_fail':
      reply({ result: { content: [{ type: 'text', text: `rejected ${echoed}` }], isError: true } });
      break;
    case 'echo_rpc':
      reply({ error: { code: -32001, message: `unauthorised: ${echoed}` } });
      break;
    default:
      json(res, 500, { error: { message: `upstream refused ${echoed}` } });
  }
  return true;
}

/** Routes of the MCP test servers (see the module comment). */
export const mcpRoutes: RouteHandler = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
  const match = /^\/mcp\/([\w-]+)\/(basic|auth|hang|broken|rpcerror|redirect|echo|log|requests)$/.exec(url.pathname);
  if (!match) return false;
  const [, key, kind] = match as unknown as [string, string, string];
  for (const [name, value] of Object.entries(MCP_CORS_HEADERS)) res.setHeader(name, value);
  if (kind === 'log') {
    json(res, 200, logs.get(key) ?? []);
    return true;
  }
  if (kind === 'requests') {
    json(res, 200, { count: requestCounts.get(key) ?? 0 });
    return true;
  }
  requestCounts.set(key, (requestCounts.get(key) ?? 0) + 1);
  if (req.method === 'OPTIONS') {
    res.writeHead(204).end();
    return true;
  }
  if (kind === 'redirect') {
    await readBody(req);
    const [host, port] = String(req.headers.host ?? '').split(':');
    const other = host === 'localhost' ? '127.0.0.1' : 'localhost';
    res.writeHead(307, { Location: `http://${other}:${port}/mcp/${key}-target/basic` }).end();
    return true;
  }
  if (kind === 'hang') {
    await new Promise<void>((resolve) => res.on('close', () => resolve()));
    return true;
  }
  if (kind === 'broken') {
    await readBody(req);
    json(res, 500, { error: { message: 'database unavailable' } });
    return true;
  }
  if (kind === 'rpcerror') {
    const request = JSON.parse(await readBody(req)) as { id?: unknown };
    json(res, 200, { jsonrpc: '2.0', id: request.id ?? null, error: { code: -32602, message: 'Unsupported protocol version' } });
    return true;
  }
  if (kind === 'auth' && req.headers['authorization'] !== 'Bearer let-me-in') {
    await readBody(req);
    json(res, 401, { error: 'invalid_token', error_description: 'Missing or wrong bearer token' });
    return true;
  }
  const text = req.method === 'POST' ? await readBody(req) : '';
  const body: unknown = text ? JSON.parse(text) : undefined;
  if (kind === 'echo' && echoCall(req, res, body)) return true;
  if (req.method === 'POST' && body && typeof body === 'object' && 'method' in body && body.method === 'notifications/cancelled') {
    const params = (body as { params?: { requestId?: unknown; reason?: unknown } }).params;
    log(key, `notification cancelled ${String(params?.requestId)} ${String(params?.reason ?? '')}`);
  }
  const sessionId = req.headers['mcp-session-id'];
  let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
  if (!transport) {
    if (typeof sessionId === 'string' || req.method !== 'POST') {
      json(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
      return true;
    }
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, created),
    });
    created.onclose = () => {
      if (created.sessionId) sessions.delete(created.sessionId);
    };
    await buildServer(key, kind).connect(created);
    transport = created;
  }
  await transport.handleRequest(req, res, body);
  return true;
};
