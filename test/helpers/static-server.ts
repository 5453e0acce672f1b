/**
 * A plain static file server for pages the e2e tests open as a user would: no Vite, no transforms, no
 * import map. Serves files under `root`, answers extra routes first, and adds `htmlHeaders` (a CSP, say)
 * to every HTML page.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

/** Answers a request itself and returns true, or returns false to let the file server answer. */
export type StaticRoute = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;

export interface StaticServerOptions {
  /** Folder served at `/`. */
  root: string;
  routes?: StaticRoute[];
  /** Added to every `.html` response. */
  htmlHeaders?: Record<string, string>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
};

/** Starts the server on a free loopback port. */
export async function startStaticServer(options: StaticServerOptions): Promise<{ url: string; close: () => Promise<void> }> {
  const root = normalize(options.root);
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      for (const route of options.routes ?? []) if (await route(req, res, url)) return;
      // browsers ask for one on every page; a 404 would show up as a console error
      if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (path !== root && !path.startsWith(root + sep)) return void res.writeHead(403).end();
      if ((await stat(path).catch(() => undefined))?.isDirectory()) path = join(path, 'index.html');
      const body = await readFile(path).catch(() => undefined);
      if (!body) return void res.writeHead(404).end('not found');
      const type = TYPES[extname(path)] ?? 'application/octet-stream';
      res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store', ...(type.startsWith('text/html') ? options.htmlHeaders : {}) });
      res.end(body);
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
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
