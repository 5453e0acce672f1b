import type { RouteHandler } from './index.js';

/** Scripted OpenAI-compatible model routes under /llm/* (e.g. /llm/<script>/v1/chat/completions). */
export const llmRoutes: RouteHandler = (_req, _res, url) => {
  if (!url.pathname.startsWith('/llm/')) return false;
  return false;
};
