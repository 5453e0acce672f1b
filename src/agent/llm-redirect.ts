/**
 * What an `LLM` does with a redirect of its POST: `fetch` is told not to follow redirects, since one to
 * another origin would re-send the whole conversation there. A browser hides where a redirect goes (an
 * opaque redirect), so there every redirect is refused; where the target is visible (Node), a 307/308 on
 * the same origin is followed (at most 5 times) and anything else refused. The `LLM` loads this module by
 * `import()` on the first redirect it gets.
 */
// Types only: a value import of errors.ts (which the client's own chunk holds) would make bundlers split
// it into a chunk of its own that every page loads; the client hands the class in.
import type { PagentError } from '../errors.js';

/** What the client hands in. */
export interface RedirectContext {
  /** The endpoint the call posts to (`{baseURL}/chat/completions`). */
  url: string;
  /** The absolute API root: a redirect may not leave its origin. */
  root: URL;
  redact: (text: string) => string;
  PagentError: typeof PagentError;
}

/**
 * The URL to post to next for a redirect `response` to the POST to `from` (`hop`: redirects followed so
 * far), or the refusal.
 *
 * @throws {PagentError} `code: "redirect"` when the redirect is refused (never retried).
 */
export function redirectTarget(response: Response, from: string, hop: number, context: RedirectContext): string {
  const { status } = response;
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
        ? `it leads to another origin (${target.origin}), which would receive the whole conversation`
        : status !== 307 && status !== 308
          ? `HTTP ${status} would turn the POST into a GET`
          : hop >= 5
            ? 'too many redirects'
            : undefined;
  if (why === undefined && target) return target.href;
  throw new context.PagentError(
    context.redact(`POST ${context.url} answered with a redirect${status ? ` (HTTP ${status})` : ''} that was refused: ${why}. Set baseURL to the final address of the API.`),
    { code: 'redirect', where: 'llm', status: status || undefined },
  );
}
