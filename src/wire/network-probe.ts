/**
 * Telling an unreachable server from one that refuses this page (CORS). A browser reports both as the
 * same `TypeError: Failed to fetch`; a second, opaque request tells them apart. Loaded only when a request
 * has failed that way (see `probeReachableLazily`): a run that never fails never downloads it.
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
 * The end of a network failure's message, by what {@link probeReachable} found: nothing answers
 * (unreachable), or something answers but the browser withheld the response (CORS); `undefined` when it
 * cannot tell.
 */
export async function probeVerdict(url: string, signal?: AbortSignal): Promise<string | undefined> {
  const reachable = await probeReachable(url, signal);
  if (reachable === false) return ': nothing answered. Check the address and that the server is running.';
  if (reachable === true) {
    return ", though the server answers: the browser withheld the response (CORS). The server must allow this page's origin (Access-Control-Allow-Origin) and the Authorization and Content-Type headers.";
  }
  return undefined;
}
