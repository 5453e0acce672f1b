/**
 * Telling an unreachable server from one that refuses this page (CORS). A browser reports both as the
 * same `TypeError: Failed to fetch`; a second, opaque request tells them apart.
 */

/** How long the probe may take before it counts as "cannot tell". */
const PROBE_TIMEOUT_MS = 5000;

/**
 * After a failed request in a browser: whether the server at `url` answers at all. Sends one `GET` with
 * `mode: "no-cors"` (no body, no custom header, no credentials, so no API key and no conversation): it
 * resolves when anything answers, even a server that refuses this page's origin, and rejects when nothing
 * does. `true`: reachable (so the failure was most likely CORS); `false`: unreachable; `undefined`: not in
 * a browser (no CORS there), or no answer either way in time.
 */
export async function probeReachable(url: string, signal?: AbortSignal): Promise<boolean | undefined> {
  if (typeof document === 'undefined' || typeof fetch !== 'function') return undefined;
  const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  const probeSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    await fetch(url, { method: 'GET', mode: 'no-cors', credentials: 'omit', cache: 'no-store', signal: probeSignal });
    return true;
  } catch {
    return probeSignal.aborted ? undefined : false;
  }
}

/**
 * The message of a request that failed before any response, by what the probe found: nothing answers
 * (`unreachable`), something answers but the browser withheld the response (`CORS`), or unknown.
 */
export function networkFailureMessage(request: string, reason: string, reachable: boolean | undefined, when = ''): string {
  const what = `${request} failed (${when === '' ? '' : `${when}; `}${reason})`;
  if (reachable === false) return `${what}: nothing answered. Check the address and that the server is running.`;
  if (reachable === true) {
    return `${what}, though the server answers: the browser withheld the response (CORS). The server must allow this page's origin (Access-Control-Allow-Origin) and the Authorization and Content-Type headers.`;
  }
  return `${what}. Check the address and that the server is running and reachable.`;
}
