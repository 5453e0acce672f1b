/**
 * What a client does with a redirect of its request: `fetch` is told not to follow redirects, since one to
 * another origin would re-send the request there — an `LLM`'s whole conversation, an MCP client's body and
 * headers (its token). A browser hides where a redirect goes (an opaque redirect), so there every redirect
 * is refused; where the target is visible (Node), a 307/308 on the same origin (any redirect of a GET) is
 * followed (at most 5 times) and anything else refused. The `LLM` and the MCP client load this module by
 * `import()` on the first redirect they get.
 */
// Types only: a value import of errors.ts (which the client's own chunk holds) would make bundlers split
// it into a chunk of its own that every page loads; the client hands the class in.
import type { PagentError } from '../../errors.js';

/** What the client hands in. */
export interface RedirectContext {
  /** The address the client asked (`{baseURL}/chat/completions`, the MCP server's URL). */
  url: string;
  /** The absolute root of that address: a redirect may not leave its origin. */
  root: URL;
  redact: (text: string) => string;
  PagentError: typeof PagentError;
  /** The request's method. @defaultValue "POST" */
  method?: string;
  /** The error's `where`. @defaultValue "llm" */
  where?: string;
  /** What the other origin would receive. @defaultValue "the whole conversation" */
  carries?: string;
  /** What to do instead. @defaultValue "Set baseURL to the final address of the API." */
  advice?: string;
}

/**
 * The URL to ask next for a redirect `response` to the request to `from` (`hop`: redirects followed so
 * far), or the refusal.
 *
 * @throws {PagentError} `code: "redirect"` when the redirect is refused (never retried).
 */
export function redirectTarget(response: Response, from: string, hop: number, context: RedirectContext): string {
  const { status } = response;
  const { method = 'POST', carries = 'the whole conversation', advice = 'Set baseURL to the final address of the API.' } = context;
  response.body?.cancel().catch(() => undefined);
  const location = response.headers.get('location');
  let target: URL | undefined;
  try {
    target = location ? new URL(location, new URL(from, context.root)) : undefined;
  } catch {
    target = undefined;
  }
  const why =
    target === undefined
      ? 'a browser does not show where a redirect leads, so it is not followed'
      : target.origin !== context.root.origin
        ? `it leads to another origin (${target.origin}), which would receive ${carries}`
        : status !== 307 && status !== 308 && method !== 'GET'
          ? `HTTP ${status} would turn the ${method} into a GET`
          : hop >= 5
            ? 'too many redirects'
            : undefined;
  if (why === undefined && target) return target.href;
  throw new context.PagentError(
    context.redact(`${method} ${context.url} answered with a redirect${status ? ` (HTTP ${status})` : ''} that was refused: ${why}. ${advice}`),
    { code: 'redirect', where: context.where ?? 'llm', status: status || undefined },
  );
}
