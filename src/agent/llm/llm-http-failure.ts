/**
 * What a non-2xx response of the model server means for an `LLM` call: the `HttpError` it fails with
 * (the provider's own message, redacted, and a hint for the usual mistakes) and, when the status is worth
 * retrying (429, 5xx), the delay the server asked for. The `LLM` loads this module by `import()` on its
 * first failed response: calls that succeed never download it.
 */
// The body reader is loaded with this module (it is loaded on use by the wire client too). errors.ts is
// imported for its types only: a value import of a module the client's own chunk holds would make bundlers
// split it into a chunk of its own that every page loads; the client hands the class in.
import type { HttpError } from '../../errors.js';
import { HTTP_ERROR_BODY_MAX_BYTES, httpErrorMessage, readErrorBody } from '../../wire/http-error.js';

/** A failed response: the error, and whether (and after how long) it may be retried. */
export interface HttpFailure {
  error: HttpError;
  retryable: boolean;
  /** The delay the response asks for (`retry-after-ms`, `Retry-After`), if any. */
  delayMs: number | undefined;
}

/** What the client hands in: its endpoint, its redactor and the error class. */
export interface HttpFailureContext {
  /** The endpoint, for the message (`POST <url>`). */
  url: string;
  redact: (text: string) => string;
  HttpError: typeof HttpError;
}

function statusHint(status: number): string {
  if (status === 401 || status === 403) return ' Check the API key.';
  if (status === 404) return ' Check the base URL and the model name.';
  return '';
}

/** The delay a response asks for (`retry-after-ms`, `Retry-After` in seconds or as an HTTP date), if any. */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Reads at most `maxBytes` (and never more than 64 KiB) of the failed response's body into its error: the
 * provider's message (`httpErrorMessage`). The body is redacted before it is parsed and cut, so a key cut
 * in half by the length limit cannot leak.
 */
export async function httpFailure(response: Response, maxBytes: number, context: HttpFailureContext): Promise<HttpFailure> {
  const { status } = response;
  const { redact } = context;
  const body = redact(await readErrorBody(response, Math.min(maxBytes, HTTP_ERROR_BODY_MAX_BYTES)));
  let detail = httpErrorMessage(status, response.statusText, body, response.headers.get('Content-Type'));
  // An HTML page or an empty body gives "HTTP <status> <status text>"; the prefix already says "HTTP <status>".
  if (detail.startsWith(`HTTP ${status} `)) detail = detail.slice('HTTP '.length);
  const stop = /[.!?…]$/.test(detail) ? '' : '.';
  const error = new context.HttpError(redact(`HTTP ${status} from POST ${context.url}: ${detail}${stop}${statusHint(status)}`), status, 'llm');
  const retryable = status === 429 || status >= 500;
  return { error, retryable, delayMs: retryable ? retryAfterMs(response.headers) : undefined };
}
