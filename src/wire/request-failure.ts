/**
 * Why a request failed, in words: a network failure (no response) or a non-2xx response. The code that
 * explains a failure (the reachability probe, the parsing of an error body) is loaded only when a request
 * fails, so a client whose requests succeed never downloads it.
 */

/**
 * The message of a request that failed before any response: what failed and why, then what the probe
 * found (`verdict`, from {@link probeVerdict}), or, when it could not tell, the general advice.
 */
export function networkFailureMessage(request: string, reason: string, verdict: string | undefined, when = ''): string {
  return `${request} failed (${when === '' ? '' : `${when}; `}${reason})${verdict ?? '. Check the address and that the server is running and reachable.'}`;
}

/**
 * What the reachability probe says about `url` (`probeVerdict` of ./network-probe.ts, loaded on first
 * use): nothing answers there, or something does and the browser withheld the response (CORS);
 * `undefined` when it cannot tell, also when its module cannot be loaded (the network that just failed
 * may be the page's own).
 */
export function probeVerdict(url: string, signal?: AbortSignal): Promise<string | undefined> {
  return import('./network-probe.js').then(
    (m) => m.probeVerdict(url, signal),
    () => undefined,
  );
}

/**
 * The readable message of a non-2xx response: `httpErrorMessage` of ./http-error.ts (loaded on first use)
 * over at most `maxBytes` of its body, never more than `HTTP_ERROR_BODY_MAX_BYTES`; `redact` runs over the
 * body before it is parsed and cut. When that module cannot be loaded, the body is cancelled and the
 * message is `HTTP <status> <status text>`.
 */
export async function httpFailureMessage(response: Response, maxBytes?: number, redact?: (text: string) => string): Promise<string> {
  let m: typeof import('./http-error.js');
  try {
    m = await import('./http-error.js');
  } catch {
    response.body?.cancel().catch(() => undefined);
    return statusLine(response);
  }
  const body = await m.readErrorBody(response, Math.min(maxBytes ?? Infinity, m.HTTP_ERROR_BODY_MAX_BYTES));
  return m.httpErrorMessage(response.status, response.statusText, redact ? redact(body) : body, response.headers.get('Content-Type'));
}

/** `HTTP <status>`, and the status text when the response has one. */
export const statusLine = (response: Response): string =>
  `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
