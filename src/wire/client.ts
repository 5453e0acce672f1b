/**
 * `WireClient`: fetches a server's agent stream (NDJSON or SSE; pagent, Victor, AG-UI or the AI SDK's UI
 * message stream) and yields typed events,
 * with runs that always end (docs/wire.md#runs-and-the-termination-contract) whatever the server or the network does.
 */
import { createEventIterator, type ByteStream, type DecodeStreamOptions, type EventIteratorHooks } from './decode-stream.js';
import type { DialectName } from './dialects/index.js';
import { failedRunEvents, type UnknownEvent, type WireEvent } from './events.js';
import type { WireFormat } from './framing.js';
import { httpFailureMessage, networkFailureMessage, probeVerdict, statusLine } from './request-failure.js';
import { errorMessage } from '../errors.js';

/** Options of {@link WireClient}. */
export interface WireClientOptions {
  /**
   * The HTTP method.
   * @defaultValue `'POST'` when `stream()` gets a body, else `'GET'`
   */
  method?: string | undefined;
  /** Headers sent with every request (per-call headers of `stream()` override them). */
  headers?: HeadersInit | undefined;
  /**
   * The `fetch` to use (a wrapper that adds auth, a test double, …).
   * @defaultValue `globalThis.fetch`
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * How the body is framed. `'auto'` reads the response's `Content-Type` (`text/event-stream` → SSE;
   * NDJSON, JSON Lines or JSON text sequences → NDJSON) and sniffs the first bytes otherwise.
   * @defaultValue 'auto'
   */
  format?: WireFormat | 'auto' | undefined;
  /**
   * The wire dialect; `'auto'` detects it from the first document, or takes `'ai-sdk'` when the response
   * carries the AI SDK's `x-vercel-ai-ui-message-stream` header.
   * @defaultValue 'auto'
   */
  dialect?: DialectName | 'auto' | undefined;
  /**
   * A stall: no bytes for this long while a run is open ends the run with `RunError{code: "timeout"}` +
   * `RunEnd{stop_reason: "error"}` and aborts the request. Never armed before the response or between
   * runs. `0` turns it off.
   * @defaultValue 0
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Longest line (NDJSON) or SSE message kept, in UTF-8 bytes; longer ones go to `onDecodeError`.
   * @defaultValue 16 MiB
   */
  maxLineBytes?: number | undefined;
  /** Called with each raw document (an NDJSON line, an SSE message's data), e.g. for a wire log. */
  onLine?: DecodeStreamOptions['onLine'];
  /** Called for each document that could not be decoded; the stream goes on. */
  onDecodeError?: DecodeStreamOptions['onDecodeError'];
  /**
   * Also yield events of unknown methods, as `{method, params, unknown: true}`.
   * @defaultValue false
   */
  includeUnknown?: boolean | undefined;
  /**
   * Reconnects after a network drop (the body's read failing, or the body ending inside a message or
   * while a run is open), for SSE responses (`Content-Type: text/event-stream`, or `format: 'sse'`) whose
   * server sent `id` fields: the same request (method, headers, body) is made again with `Last-Event-ID`
   * set to the id of the last message received, after the server's `retry` (else `reconnectDelayMs`),
   * doubling for each further consecutive attempt (at most 30 s unless `retry` asks for more), and the
   * new response's events continue the run: no second `RunBegin`, no duplicates, no gap. At most this
   * many consecutive reconnects; the count starts again once a resumed response delivers a message with
   * an id. A 5xx, 408, 429 or a failed `fetch` is tried again; another status or a body that is not SSE
   * ends the resume. A server that sends the stream again from its first id, or the `Last-Event-ID`
   * message again, adds no duplicate: those messages are left out. Without ids, with NDJSON and with `0`,
   * a drop ends the run with `RunError{code: "network"}` as always; so does a resume that fails, its
   * message naming how many reconnects were made. The wait counts as silence for `idleTimeoutMs`. The
   * server must treat a request with `Last-Event-ID` as "continue after this id" (docs/guides/wire-client.md shows one).
   * @defaultValue 3
   */
  reconnects?: number | undefined;
  /**
   * The wait before the first reconnect when the server sent no `retry` field, in milliseconds (the SSE
   * spec leaves it to the client; browsers' `EventSource` waits 3–5 s).
   * @defaultValue 1000
   */
  reconnectDelayMs?: number | undefined;
  /** Called before each reconnect's wait (e.g. to show "reconnecting in 2 s"). */
  onReconnect?: ((info: WireReconnectInfo) => void) | undefined;
}

/** What {@link WireClientOptions.onReconnect} is told before a reconnect. */
export interface WireReconnectInfo {
  /** 1 for the first reconnect after a drop (or after the stream last made progress), then 2, … */
  attempt: number;
  /** How long the client waits before making the request. */
  delayMs: number;
  /** The `Last-Event-ID` the request carries. */
  lastEventId: string;
  /** Why: the drop, or how the previous reconnect failed. */
  reason: string;
}

/** Per-call options of {@link WireClient.stream}. */
export interface WireStreamOptions {
  /** Aborting cancels the request; an open run ends with `RunEnd{stop_reason: "cancelled"}`. */
  signal?: AbortSignal | undefined;
  /** Headers for this request only, over the client's. */
  headers?: HeadersInit | undefined;
}

/** The events a client yields: known events, plus unknown ones when `includeUnknown` is `true`. */
export type WireClientEvent<IncludeUnknown extends boolean> = IncludeUnknown extends true
  ? WireEvent | UnknownEvent
  : WireEvent;

/** The media type of a `Content-Type` header: lower-cased, without parameters; `''` when absent. */
const mediaType = (contentType: string | null): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

const NDJSON_TYPES = /^(application|text)\/(x-)?(ndjson|jsonl|jsonlines|json-lines|json-seq)$/;

/**
 * The framing a media type (see `mediaType`) announces: `text/event-stream` → `'sse'`;
 * `application/x-ndjson`, `application/jsonl`, `application/json-seq` and their kin → `'ndjson'`; anything
 * else (none, `text/plain`, `application/json`, `text/html`, …) → `'auto'` (sniffed from the first bytes).
 */
export function formatFromMediaType(type: string): WireFormat | 'auto' {
  if (type === 'text/event-stream') return 'sse';
  if (NDJSON_TYPES.test(type)) return 'ndjson';
  return 'auto';
}

/**
 * A client for a server's agent event stream: each {@link WireClient.stream} call makes one request and
 * yields its events as they arrive.
 *
 * Every failure still ends in well-formed runs (docs/wire.md#runs-and-the-termination-contract), so consumers only handle events:
 * - a non-2xx response → `RunBegin{user_input: ""}`, `RunError{code: "http", status, message}` with the
 *   server's own error text (plain text, `{"detail"}`, FastAPI 422 lists, `{"error": {"message"}}`, …),
 *   `RunEnd{stop_reason: "error"}`;
 * - `fetch` rejecting (server down, CORS refused, DNS) → `RunBegin`, `RunError{code: "network"}` naming
 *   the URL, `RunEnd{stop_reason: "error"}`; in a browser the message says which it was (nothing answers,
 *   or the server answers but refuses this page: CORS), from one body-less `no-cors` GET to the URL;
 * - the body failing, ending or stalling mid-run → `RunError{code: "network" | "truncated" | "timeout"}`
 *   + `RunEnd{stop_reason: "error"}`; an SSE stream whose server sent `id` fields is resumed first
 *   (see {@link WireClientOptions.reconnects}); a body with no decodable event at all (an HTML page served with
 *   200) → one run with `RunError{code: "decode"}`, and so is a 2xx response with no event at all (an empty
 *   body, a 204, only whitespace, only SSE comments), whose message says the response was empty;
 * - aborting `signal` or breaking out of `for await` cancels the request (the server sees the connection
 *   close); an open run ends with `RunEnd{stop_reason: "cancelled"}`. An abort before the response yields
 *   nothing.
 *
 * @example
 * const client = new WireClient('/api/chat');
 * for await (const event of client.stream({ message: 'Hi' })) {
 *   if (event.method === 'TextDelta') output.append(event.params.text);
 * }
 */
export class WireClient<IncludeUnknown extends boolean = false> {
  /** The URL every request goes to. */
  readonly url: string;
  /**
   * The `X-Session-Id` of the last response that carried one (servers that keep the conversation,
   * such as Victor's `POST /chat/stream`); `undefined` until then.
   */
  sessionId: string | undefined = undefined;
  private readonly options: WireClientOptions;

  constructor(url: string | URL, options?: WireClientOptions & { includeUnknown?: IncludeUnknown }) {
    this.url = String(url);
    this.options = { ...options };
  }

  /**
   * Makes one request and yields its events. With a `body` the request is a POST (unless `method` says
   * otherwise) with the body as JSON; without one it is a GET. Never throws: every failure arrives as
   * events (see the class documentation).
   */
  stream(body?: unknown, options: WireStreamOptions = {}): AsyncIterable<WireClientEvent<IncludeUnknown>> {
    return { [Symbol.asyncIterator]: () => this.open(body, options) };
  }

  /**
   * The request's iterator: the response's own events come straight from the stream's iterator (no
   * second layer per event); a request that fails before a body yields the events of a failed run.
   */
  private open(body: unknown, call: WireStreamOptions): AsyncIterator<WireClientEvent<IncludeUnknown>> {
    type Event = WireClientEvent<IncludeUnknown>;
    let inner: (AsyncIterator<Event> & { readonly runOpen: boolean }) | undefined;
    let events: Event[] = [];
    let starting: Promise<void> | undefined;
    let over = false;
    const request = new AbortController();
    const outer = call.signal;
    const abortRequest = (): void => request.abort(outer?.reason);
    // Ends the request when the consumer broke out early or the decoder gave up (stall, bad body).
    const close = (): void => {
      over = true;
      outer?.removeEventListener('abort', abortRequest);
      request.abort();
    };
    const done = (): Promise<IteratorResult<Event, undefined>> => Promise.resolve({ value: undefined, done: true });
    const iterator: AsyncIterator<Event, undefined> = {
      next: () => {
        if (inner) return inner.next();
        if (events.length > 0) return Promise.resolve({ value: events.shift()!, done: false });
        if (over) return done();
        starting ??= this.start(body, call.headers, outer, request, abortRequest, () => inner!.runOpen).then(
          (result) => {
            if (Array.isArray(result)) {
              events = result as Event[];
              close();
            } else inner = createEventIterator(result.body, result.options, { ...result.hooks, close }) as typeof inner;
          },
          (err: unknown) => {
            close();
            throw err;
          },
        );
        return starting!.then(() => iterator.next());
      },
      return: () => {
        events = [];
        if (inner) return inner.return!() as Promise<IteratorResult<Event, undefined>>;
        close();
        return done();
      },
    };
    return iterator;
  }

  /**
   * Makes the request: the body to decode with its options and hooks, or the events of a run that
   * failed before any body (none when aborted first).
   */
  private async start(
    body: unknown,
    callHeaders: HeadersInit | undefined,
    outer: AbortSignal | undefined,
    request: AbortController,
    abortRequest: () => void,
    runOpen: () => boolean,
  ): Promise<WireEvent[] | { body: ByteStream; options: DecodeStreamOptions; hooks: EventIteratorHooks }> {
    const options = this.options;
    const method = (options.method ?? (body === undefined ? 'GET' : 'POST')).toUpperCase();
    const headers = new Headers(options.headers);
    for (const [name, value] of new Headers(callHeaders)) headers.set(name, value);
    if (!headers.has('Accept')) headers.set('Accept', 'text/event-stream, application/x-ndjson');
    const init: RequestInit = { method, headers };
    if (body !== undefined) {
      if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
      init.body = JSON.stringify(body);
    }

    // Our own controller, so that breaking out of the loop can cancel the request too.
    if (outer?.aborted) return [];
    outer?.addEventListener('abort', abortRequest, { once: true });
    init.signal = request.signal;

    let response: Response;
    try {
      const fetchFn = options.fetch ?? globalThis.fetch;
      response = await fetchFn.call(globalThis, this.url, init);
    } catch (err) {
      if (request.signal.aborted) return [];
      // A browser says "Failed to fetch" for an unreachable server and for CORS alike: ask which it was.
      // (only with the page's own fetch: an injected one may route requests elsewhere)
      const verdict = options.fetch ? undefined : await probeVerdict(this.url, request.signal);
      if (request.signal.aborted) return [];
      return failedRunEvents({ code: 'network', message: networkFailureMessage(`${method} ${this.url}`, errorMessage(err), verdict) });
    }
    const sessionId = response.headers.get('X-Session-Id');
    if (sessionId) this.sessionId = sessionId;

    if (!response.ok) {
      const message = await httpFailureMessage(response);
      if (request.signal.aborted) return [];
      return failedRunEvents({ code: 'http', status: response.status, message });
    }

    // From here on the decoder owns cancellation: it ends an open run as cancelled on abort.
    outer?.removeEventListener('abort', abortRequest);
    const type = mediaType(response.headers.get('Content-Type'));
    const format = (options.format ?? 'auto') === 'auto' ? formatFromMediaType(type) : options.format;
    // docs/wire.md#runs-and-the-termination-contract: a request is a request for a run, so a 2xx body without any document is a failed run.
    let documents = 0;
    const onLine = options.onLine;
    // the client's options (the decoder reads its own among them), with what this response settled
    const decoderOptions: DecodeStreamOptions = {
      ...options,
      format,
      dialect:
        (options.dialect ?? 'auto') === 'auto' && response.headers.has('x-vercel-ai-ui-message-stream') ? 'ai-sdk' : options.dialect,
      onLine: (raw) => {
        documents++;
        onLine?.(raw);
      },
      signal: outer,
    };
    let stream: ReadableStream<Uint8Array> = response.body ?? new Response('').body!;
    if (type === 'application/json-seq') {
      // without its module the separators stay, and each record is reported as a bad line
      stream = await import('./json-seq.js').then((m) => stream.pipeThrough(m.stripRecordSeparators()), () => stream);
    }
    const tail = (delivered: number): WireEvent[] => {
      if (delivered > 0 || documents > 0 || outer?.aborted) return [];
      return failedRunEvents({
        code: 'decode',
        message: `The response was empty: ${method} ${this.url} answered ${statusLine(response)} with no event in its body`,
      });
    };
    return {
      body:
        format === 'sse' && options.reconnects !== 0
          ? // without its module (the network that failed may be the page's own), drops are not resumed
            await import('./sse-resume.js').then((m) => m.resumableSseBody(stream, this.url, init, options, runOpen), () => stream)
          : stream,
      options: decoderOptions,
      hooks: { tail },
    };
  }
}
