import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RouteHandler } from './index.js';

/** Wire stream routes under /wire/* (corpus replays, error bodies, stalls). */
export const wireRoutes: RouteHandler = (_req, _res, url) => {
  if (!url.pathname.startsWith('/wire/')) return false;
  return false;
};

/** WebSocket upgrades under /wire/ws/*; returns false when the path is not a WebSocket route. */
export function wireUpgrade(_req: IncomingMessage, _socket: Duplex, _head: Buffer): boolean {
  return false;
}
