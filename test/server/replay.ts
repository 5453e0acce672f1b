import type { RouteHandler } from './index.js';

/** Provider capture replays under /replay/* (the streams behind the pagent corpus). */
export const replayRoutes: RouteHandler = (_req, _res, url) => {
  if (!url.pathname.startsWith('/replay/')) return false;
  return false;
};
