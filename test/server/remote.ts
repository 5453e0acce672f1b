/**
 * Back ends a `RemoteAgent` holds a conversation with, built on each protocol's own packages, under
 * /remote/*:
 * - `POST /remote/ai-sdk`: an AI SDK chat route (test/server/remote-ai-sdk.ts), and
 *   `GET /remote/ai-sdk/<id>/stream`: its resume endpoint (the chat's stream in flight, or 204);
 * - `POST /remote/ag-ui`: an AG-UI agent (test/server/remote-ag-ui.ts);
 * - `GET /remote/log/<ai-sdk|ag-ui>?id=<conversation>`: the requests one conversation made, each with
 *   whether the back end's own validation accepted it;
 * - `GET /remote/stats`: requests and refused requests over every conversation, per back end.
 * The back ends load on first use, so the Vite config that mounts these routes stays light.
 */
import { CORS_HEADERS, readBody, sleep, type RouteHandler } from './index.js';

export const remoteRoutes: RouteHandler = async (req, res, url) => {
  if (!url.pathname.startsWith('/remote/')) return false;
  const route = url.pathname.slice('/remote/'.length);
  if (route === 'ai-sdk' && req.method === 'POST') {
    const { aiSdkRoute } = await import('./remote-ai-sdk.js');
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const request = new Request('http://127.0.0.1/remote/ai-sdk', { method: 'POST', body: await readBody(req), headers: { 'Content-Type': 'application/json' }, signal: abort.signal });
    const response = await aiSdkRoute(request);
    res.writeHead(response.status, { ...CORS_HEADERS, ...Object.fromEntries(response.headers) });
    if (!response.body) return void res.end(), true;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // the client left
    }
    res.end();
    return true;
  }
  const resume = /^ai-sdk\/([^/]+)\/stream$/.exec(route);
  if (resume && req.method === 'GET') {
    const { aiSdkResume } = await import('./remote-ai-sdk.js');
    const response = aiSdkResume(decodeURIComponent(resume[1]!));
    res.writeHead(response.status, { ...CORS_HEADERS, ...Object.fromEntries(response.headers) });
    if (!response.body) return void res.end(), true;
    let closed = false;
    res.on('close', () => (closed = true));
    const reader = response.body.getReader();
    while (!closed) {
      const { value, done } = await reader.read();
      if (done) break;
      res.write(value);
    }
    void reader.cancel().catch(() => undefined);
    res.end();
    return true;
  }
  if (route === 'ag-ui' && req.method === 'POST') {
    const { agUiAgent } = await import('./remote-ag-ui.js');
    const answer = agUiAgent(await readBody(req));
    const type = answer.status === 200 ? 'text/event-stream' : 'application/json';
    res.writeHead(answer.status, { ...CORS_HEADERS, 'Content-Type': type, 'Cache-Control': 'no-cache' });
    if (typeof answer.body === 'string') return void res.end(answer.body), true;
    let closed = false;
    res.on('close', () => (closed = true));
    for (const frame of answer.body) {
      if (closed) break;
      res.write(frame);
      await sleep(answer.delayMs ?? 0);
    }
    res.end();
    return true;
  }
  if (route.startsWith('log/')) {
    const id = url.searchParams.get('id') ?? '';
    const logs = route === 'log/ai-sdk' ? (await import('./remote-ai-sdk.js')).aiSdkLogs : (await import('./remote-ag-ui.js')).agUiLogs;
    res.writeHead(200, { ...CORS_HEADERS, 'Content-Type': 'application/json' }).end(JSON.stringify(logs.get(id) ?? []));
    return true;
  }
  if (route === 'stats') {
    const [{ aiSdkLogs }, { agUiLogs }] = await Promise.all([import('./remote-ai-sdk.js'), import('./remote-ag-ui.js')]);
    const count = (logs: Map<string, Array<{ valid: boolean }>>): { requests: number; refused: number } => {
      const all = [...logs.values()].flat();
      return { requests: all.length, refused: all.filter((l) => !l.valid).length };
    };
    res.writeHead(200, { ...CORS_HEADERS, 'Content-Type': 'application/json' }).end(JSON.stringify({ 'ai-sdk': count(aiSdkLogs), 'ag-ui': count(agUiLogs) }));
    return true;
  }
  return false;
};
