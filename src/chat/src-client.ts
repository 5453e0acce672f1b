/**
 * The client behind `<pagent-chat src>`: POSTs a JSON body and decodes the response stream, keeping the
 * server's `X-Session-Id`. Interim stand-in with the `WireClient` shape until that lands.
 */
import { decodeWireStream } from '../wire/decode-stream.js';
import type { UnknownEvent, WireEvent } from '../wire/events.js';

/** Options of {@link createSrcClient}. */
export interface SrcClientOptions {
  onLine?: (line: string) => void;
  onDecodeError?: (err: Error) => void;
}

/** A `WireClient`-shaped client for `src`. */
export interface SrcClient {
  stream(body?: unknown, options?: { signal?: AbortSignal }): AsyncIterable<WireEvent | UnknownEvent>;
  readonly sessionId: string | undefined;
}

/** Creates the client for one `src` URL. */
export function createSrcClient(url: string, options: SrcClientOptions): SrcClient {
  let sessionId: string | undefined;
  return {
    get sessionId() {
      return sessionId;
    },
    async *stream(body, { signal } = {}) {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson, text/event-stream' },
          body: JSON.stringify(body),
          signal: signal ?? null,
        });
      } catch (err) {
        if (signal?.aborted) return;
        yield { method: 'RunError', params: { message: `Request failed: POST ${url}: ${(err as Error).message}`, code: 'network' } };
        yield { method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error' } };
        return;
      }
      sessionId = res.headers.get('X-Session-Id') ?? sessionId;
      if (!res.ok || !res.body) {
        const text = (await res.text().catch(() => '')).slice(0, 500);
        yield { method: 'RunError', params: { message: text || `HTTP ${res.status}`, code: 'http', status: res.status } };
        yield { method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error' } };
        return;
      }
      yield* decodeWireStream(res.body, {
        signal,
        includeUnknown: true,
        ...(options.onLine ? { onLine: options.onLine } : {}),
        ...(options.onDecodeError ? { onDecodeError: options.onDecodeError } : {}),
      });
    },
  };
}
