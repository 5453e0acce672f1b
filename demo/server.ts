import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connect, Plugin } from 'vite';
import { Agent, LLM, Session, encodeStreamHeaders, type EncodeDialect } from '../src/index.js';
import { handleScriptedCompletion } from './scripted-model.js';
import { demoTools, DEMO_SYSTEM_PROMPT } from './tools.js';

/**
 * The demo's local servers (no network, no API key), mounted on the dev and preview servers:
 * - `POST /demo/v1/chat/completions` — the scripted OpenAI-compatible model (demo/scripted-model.ts);
 * - `POST /demo/api/chat` — a wire server: runs an `Agent` in Node against that model and streams
 *   `agent.wire()`, keeping each conversation under its `X-Session-Id`: pagent NDJSON, or with
 *   `?dialect=ag-ui` / `?dialect=ai-sdk` the AG-UI or AI SDK UI message stream (SSE, with its headers);
 * - `POST /demo/api/ai-sdk` — an AI SDK chat route (demo/ai-sdk-route.ts) and `POST /demo/api/ag-ui` — an
 *   AG-UI agent (demo/ag-ui-agent.ts): stateless back ends a `RemoteAgent` holds the conversation with.
 *   Both load on first use, so the Vite config that mounts them stays light.
 */
export function demoServer(): Plugin {
  const sessions = new Map<string, Session>();

  async function handleChat(req: IncomingMessage, res: ServerResponse, dialect: EncodeDialect): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: { message?: unknown; session_id?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: 'Body must be JSON: {"message": "..."}' }));
      return;
    }
    if (typeof body.message !== 'string' || body.message.trim() === '') {
      res.writeHead(422, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({ detail: [{ loc: ['body', 'message'], msg: 'Field required', type: 'missing' }] }),
      );
      return;
    }
    const sessionId = typeof body.session_id === 'string' && sessions.has(body.session_id) ? body.session_id : crypto.randomUUID();
    let session = sessions.get(sessionId);
    if (!session) sessions.set(sessionId, (session = new Session(DEMO_SYSTEM_PROMPT)));
    const llm = new LLM('scripted', { baseURL: `http://${req.headers.host}/demo/v1` });
    const agent = new Agent({ llm, session, tools: demoTools });
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    res.writeHead(200, { ...encodeStreamHeaders({ dialect }), 'Cache-Control': 'no-store', 'X-Session-Id': sessionId });
    for await (const line of agent.wire(body.message, { signal: abort.signal, dialect })) res.write(line);
    res.end();
  }

  /** The AI SDK route, fed the request as a Fetch `Request` and streaming its `Response` back. */
  async function handleAiSdk(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const { aiSdkRoute } = await import('./ai-sdk-route.js');
    const request = new Request('http://localhost/demo/api/ai-sdk', { method: 'POST', body: Buffer.concat(chunks), headers: { 'Content-Type': 'application/json' }, signal: abort.signal });
    const response = await aiSdkRoute(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  }

  const mount = (app: Connect.Server): void => {
    app.use('/demo', (req, res, next) => {
      if (req.method !== 'POST') return next();
      const url = new URL(req.url ?? '/', 'http://localhost');
      const dialect = url.searchParams.get('dialect') ?? 'pagent';
      const route =
        url.pathname === '/v1/chat/completions'
          ? handleScriptedCompletion(req, res)
          : url.pathname === '/api/chat' && (dialect === 'pagent' || dialect === 'ag-ui' || dialect === 'ai-sdk')
            ? handleChat(req, res, dialect)
            : url.pathname === '/api/ai-sdk'
              ? handleAiSdk(req, res)
              : url.pathname === '/api/ag-ui'
                ? import('./ag-ui-agent.js').then((m) => m.handleAgUi(req, res))
                : undefined;
      if (!route) return next();
      route.catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(err));
      });
    });
  };
  return {
    name: 'pagent-demo-server',
    configureServer(server) {
      mount(server.middlewares);
    },
    configurePreviewServer(server) {
      mount(server.middlewares);
    },
  };
}
