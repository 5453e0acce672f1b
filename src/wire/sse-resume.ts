/**
 * SSE resume: an event stream body that survives network drops. When the connection fails after the
 * server sent an `id`, the same request is made again with `Last-Event-ID`, and the new response's
 * messages continue the stream. Loaded by `WireClient` with its first SSE response.
 */
import type { WireClientOptions } from './client.js';
import type { ByteReader, ByteStream } from './decode-stream.js';
import { createSseCursor } from './sse-cursor.js';

/**
 * framing.ts's `DEFAULT_MAX_LINE_BYTES`: importing anything the decoder loads at once would move that
 * code into a chunk shared with this one, split off the decoder's own.
 */
const MAX_MESSAGE_BYTES = 16_777_216;
/** The wait before a reconnect when the server sent no `retry` field, in milliseconds. */
const DEFAULT_RECONNECT_DELAY_MS = 1_000;
/** The longest wait backoff grows to (a server's own `retry` may be longer). */
const MAX_BACKOFF_MS = 30_000;
/** `setTimeout` fires at once for longer delays. */
const MAX_TIMER_MS = 2_147_483_647;

/** A status worth asking again: the server is restarting or busy. */
const transient = (status: number): boolean => status >= 500 || status === 408 || status === 429;

// errorMessage() of errors.ts, written out: a value import of errors.ts from this lazy chunk would make bundlers
// split errors.ts into a chunk of its own that every page loads.
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Why a reconnect's response was refused: its status and the server's own error text (read by
 * ./http-error.ts, loaded on use). Not request-failure.ts's `httpFailureMessage`: see MAX_MESSAGE_BYTES.
 */
async function refusal(response: Response): Promise<string> {
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  try {
    const m = await import('./http-error.js');
    const body = await m.readErrorBody(response, m.HTTP_ERROR_BODY_MAX_BYTES);
    const message = m.httpErrorMessage(response.status, response.statusText, body, response.headers.get('Content-Type'));
    return message.startsWith('HTTP ') ? message : `${status}: ${message}`;
  } catch {
    response.body?.cancel().catch(() => undefined);
    return status;
  }
}

/**
 * Wraps an SSE response body so that a drop is resumed: `init` is the request as first made (method,
 * headers, body and the signal that cancels it), `runOpen` tells whether a run is open in what the
 * decoder has read so far. A drop is the body's read failing, or the body ending inside a message or
 * while a run is open; it is resumed when the server had set a last event id (otherwise the drop reaches
 * the reader as before). Each reconnect waits the server's `retry` (else `reconnectDelayMs`), doubling
 * for each further consecutive one (at most 30 s, or the `retry` when longer), then makes the same
 * request with `Last-Event-ID`. Up to `reconnects` consecutive reconnects are made; the count starts
 * again once a resumed response delivers a message with an id. A response that is not a 2xx event stream
 * ends the resume; a 5xx, 408 or 429 and a `fetch` that rejects are tried again while reconnects are
 * left. When resuming fails the read rejects with a message that says why and how many reconnects were
 * made. Cancelling the reader (an abort) ends a wait at once and makes no further request.
 *
 * The body it returns is read the way a `ReadableStream` is (one reader: `read`, `cancel`,
 * `releaseLock`), without a second stream's queue and promises per chunk.
 */
export function resumableSseBody(
  body: ReadableStream<Uint8Array>,
  url: string,
  init: RequestInit,
  options: Pick<WireClientOptions, 'fetch' | 'reconnects' | 'reconnectDelayMs' | 'onReconnect' | 'maxLineBytes'>,
  runOpen: () => boolean,
): ByteStream {
  const reconnects = options.reconnects ?? 3;
  const cursor = createSseCursor({ maxMessageBytes: options.maxLineBytes ?? MAX_MESSAGE_BYTES });
  let inner = body.getReader();
  /** Consecutive reconnects since the stream last made progress. */
  let attempts = 0;
  /** Cancelled, or its end was read: every read is done. */
  let over = false;
  /** The stream's end was handed on: the next read decides whether the run goes on elsewhere. */
  let ending = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, Math.min(ms, MAX_TIMER_MS));
    });

  /** Reconnects until a response continues the stream; throws when resuming fails. */
  async function resume(drop: string): Promise<void> {
    inner.releaseLock();
    const lastEventId = cursor.lastEventId;
    let failure = drop;
    while (!over && attempts < reconnects) {
      attempts++;
      const base = cursor.retry ?? options.reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS;
      const delayMs = Math.min(base * 2 ** (attempts - 1), Math.max(base, MAX_BACKOFF_MS));
      options.onReconnect?.({ attempt: attempts, delayMs, lastEventId, reason: failure });
      await wait(delayMs);
      if (over) return;
      const headers = new Headers(init.headers);
      headers.set('Last-Event-ID', lastEventId);
      let response: Response;
      try {
        response = await (options.fetch ?? globalThis.fetch).call(globalThis, url, { ...init, headers });
      } catch (err) {
        if (over) return;
        failure = `the request failed (${errorText(err)})`;
        continue;
      }
      if (over) {
        response.body?.cancel().catch(() => undefined);
        return;
      }
      const type = response.headers.get('Content-Type') ?? '';
      if (response.ok && response.status !== 204 && /^text\/event-stream\s*(;|$)/i.test(type)) {
        inner = (response.body ?? new Response('').body!).getReader();
        cursor.reconnect();
        return;
      }
      if (!response.ok) {
        failure = await refusal(response);
        if (transient(response.status)) continue;
      } else {
        response.body?.cancel().catch(() => undefined);
        failure = `HTTP ${response.status} is not an event stream (Content-Type: ${type || 'none'})`;
      }
      break;
    }
    if (over) return;
    const tried = `${attempts} reconnect${attempts === 1 ? '' : 's'}`;
    const request = `${init.method} ${url} with Last-Event-ID ${JSON.stringify(lastEventId)}`;
    throw new Error(`${drop}; resuming (${request}) failed after ${tried}: ${failure}`);
  }

  const done: ReadableStreamReadResult<Uint8Array> = { done: true, value: undefined };
  const reader: ByteReader = {
    async read() {
      for (;;) {
        if (over) return done;
        if (ending) {
          ending = false;
          if (!(cursor.resumable && runOpen())) {
            over = true;
            return done;
          }
          await resume('the stream ended while a run was open');
          continue;
        }
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await inner.read();
        } catch (err) {
          if (over) return done;
          if (!cursor.resumable) throw err;
          await resume(errorText(err));
          continue;
        }
        if (over) return done;
        if (step.done) {
          const end = cursor.end();
          if (end.cut && cursor.resumable) {
            await resume('the stream ended inside a message');
            continue;
          }
          if (!cursor.resumable) over = true;
          // else the decoder reads what is handed on here before the next read asks whether a run is open
          else ending = true;
          if (end.bytes.length > 0) return { done: false, value: end.bytes };
          continue;
        }
        const bytes = cursor.push(step.value);
        if (cursor.progressed) attempts = 0;
        if (bytes.length > 0) return { done: false, value: bytes };
      }
    },
    cancel(reason) {
      over = true;
      clearTimeout(timer);
      wake?.();
      return inner.cancel(reason).catch(() => undefined);
    },
    releaseLock() {},
  };
  return { getReader: () => reader };
}
