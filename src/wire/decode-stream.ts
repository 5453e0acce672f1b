/**
 * The async-iterable adapter over the push decoder: reads a `ReadableStream`, owns abort and stall
 * detection, and yields the decoder's events.
 */
import { createWireDecoder, type WireDecoderOptions } from './decoder.js';
import { failedRunEvents, type UnknownEvent, type WireEvent } from './events.js';
import { errorMessage } from '../errors.js';

/** Options of {@link decodeWireStream}: the decoder's, plus cancellation and stall detection. */
export interface DecodeStreamOptions extends WireDecoderOptions {
  /** Aborting ends an open run with `RunEnd{stop_reason: "cancelled"}` (no `RunError`) and cancels the body. */
  signal?: AbortSignal | undefined;
  /**
   * A stall: no bytes for this long while a run is open gives `RunError{code: "timeout"}` +
   * `RunEnd{stop_reason: "error"}` and cancels the body. Never armed between runs. `0` turns it off
   * (agents may think or run tools for minutes).
   * @defaultValue 0
   */
  idleTimeoutMs?: number | undefined;
}

/** How the iterator reads a body: a `ReadableStream`'s default reader, or anything that reads like one. */
export interface ByteReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
}

/** A body the iterator reads: a `ReadableStream<Uint8Array>`, or anything with such a reader. */
export interface ByteStream {
  getReader(): ByteReader;
}

/**
 * A body error after which data already received was dropped: reported as a failed run even between
 * runs (a plain read error between runs adds nothing).
 */
export class DataLostError extends Error {
  override readonly name = 'DataLostError';
}

/** A {@link DataLostError}, told by its name (as `AbortError` is): only `decodeWebSocket` needs the class. */
const isDataLost = (error: unknown): boolean => (error as Error | undefined)?.name === 'DataLostError';

type Step =
  | { kind: 'chunk'; value: Uint8Array }
  | { kind: 'done' }
  | { kind: 'abort' }
  | { kind: 'idle' }
  | { kind: 'error'; error: unknown };

/**
 * Decodes a byte stream (a `fetch` body) into events as they arrive, with the run contract of
 * docs/wire.md#runs-and-the-termination-contract. Reading starts at the first `next()`; the body is read only as fast as the events are
 * consumed. Breaking out of `for await` cancels the body. Never throws for bad input: a read error
 * ends an open run with `RunError{code: "network"}` + `RunEnd` (and, when the stream had delivered
 * nothing at all, it is reported as such a run on its own); an abort ends it as cancelled.
 *
 * @example
 * const res = await fetch('/api/chat', { method: 'POST', body: JSON.stringify({ message: 'Hi' }) });
 * for await (const event of decodeWireStream(res.body!)) {
 *   if (event.method === 'TextDelta') output.append(event.params.text);
 * }
 */
export function decodeWireStream(
  body: ReadableStream<Uint8Array>,
  options: DecodeStreamOptions & { includeUnknown: true },
): AsyncIterable<WireEvent | UnknownEvent>;
export function decodeWireStream(
  body: ReadableStream<Uint8Array>,
  options?: DecodeStreamOptions & { includeUnknown?: false | undefined },
): AsyncIterable<WireEvent>;
export function decodeWireStream(
  body: ReadableStream<Uint8Array>,
  options?: DecodeStreamOptions,
): AsyncIterable<WireEvent | UnknownEvent>;
export function decodeWireStream(
  body: ReadableStream<Uint8Array>,
  options: DecodeStreamOptions = {},
): AsyncIterable<WireEvent | UnknownEvent> {
  return { [Symbol.asyncIterator]: () => createEventIterator(body, options) };
}

/** What `WireClient` adds around a stream's events. */
export interface EventIteratorHooks {
  /** Events to deliver after the stream's own, given how many were delivered. */
  tail?(delivered: number): Array<WireEvent | UnknownEvent>;
  /** Called once when iteration ends, whichever way. */
  close?(): void;
}

type Emitted = WireEvent | UnknownEvent;

/**
 * The iterator behind {@link decodeWireStream}, written out rather than as an async generator: each
 * chunk's events are queued at once and handed out one `next()` at a time with an already-settled
 * promise, so an event costs one promise, not a generator's suspension and resumption.
 */
export function createEventIterator(
  body: ByteStream,
  options: DecodeStreamOptions,
  hooks: EventIteratorHooks = {},
): AsyncIterator<Emitted> & AsyncIterable<Emitted> & { readonly runOpen: boolean } {
  const { signal, idleTimeoutMs = 0, ...decoderOptions } = options;
  let queue: Emitted[] = [];
  let head = 0;
  let delivered = 0;
  const decoder = createWireDecoder({ ...decoderOptions, onEvent: (event) => void queue.push(event) });
  let reader: ByteReader | undefined;
  /** The body ended or failed, or iteration was given up: only the queue is left. */
  let over = false;
  let finished = false;
  let filling: Promise<void> | undefined;

  let wakeAbort: (() => void) | undefined;
  const onAbort = (): void => wakeAbort?.();

  function read(): Promise<Step> {
    if (signal?.aborted) return Promise.resolve({ kind: 'abort' });
    return new Promise<Step>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (step: Step): void => {
        if (timer !== undefined) clearTimeout(timer);
        wakeAbort = undefined;
        resolve(step);
      };
      wakeAbort = () => settle({ kind: 'abort' });
      if (idleTimeoutMs > 0 && decoder.runOpen) timer = setTimeout(() => settle({ kind: 'idle' }), idleTimeoutMs);
      reader!.read().then(
        (result) => settle(result.done ? { kind: 'done' } : { kind: 'chunk', value: result.value }),
        (error: unknown) => settle({ kind: 'error', error }),
      );
    });
  }

  /** Stops reading: cancels the body unless it ended, releases it, and lets the hooks close. */
  function close(): void {
    if (over) return;
    over = true;
    signal?.removeEventListener('abort', onAbort);
    if (reader) {
      if (!finished) reader.cancel(signal?.aborted ? signal.reason : undefined).catch(() => {});
      try {
        reader.releaseLock();
      } catch {
        // older stream implementations refuse while a read is pending; the cancel above ends it anyway
      }
    }
    hooks.close?.();
  }

  /** Reads until some event is queued or the body is over. */
  async function fill(): Promise<void> {
    if (!reader) {
      reader = body.getReader();
      signal?.addEventListener('abort', onAbort, { once: true });
    }
    while (head === queue.length && !over) {
      const step = await read();
      if (over) return;
      if (step.kind === 'chunk') {
        decoder.feed(step.value);
        if (decoder.loading) await decoder.loading;
        continue;
      }
      if (step.kind === 'done') {
        finished = true;
        decoder.end();
      } else if (step.kind === 'abort') decoder.cancel();
      else if (step.kind === 'idle') decoder.fail('timeout', `No data for ${idleTimeoutMs} ms while a run was open`);
      else {
        const message = `Network error while reading the stream: ${errorMessage(step.error)}`;
        if (decoder.runOpen) decoder.fail('network', message);
        else if (delivered + queue.length - head === 0 || isDataLost(step.error)) queue.push(...failedRunEvents({ code: 'network', message }));
      }
      decoder.cancel();
      if (decoder.loading) await decoder.loading;
      stop();
    }
  }

  /** The body is over: the hooks' tail joins the queue, then reading stops. */
  function stop(): void {
    if (over) return;
    const tail = hooks.tail?.(delivered + queue.length - head);
    if (tail) queue.push(...tail);
    close();
  }

  const iterator: AsyncIterator<Emitted> & AsyncIterable<Emitted> & { readonly runOpen: boolean } = {
    next(): Promise<IteratorResult<Emitted, undefined>> {
      if (head < queue.length) {
        const value = queue[head++]!;
        if (head === queue.length) {
          queue = [];
          head = 0;
        }
        if (signal?.aborted && !over) {
          decoder.cancel();
          stop();
        }
        delivered++;
        return Promise.resolve({ value, done: false });
      }
      if (over) return Promise.resolve({ value: undefined, done: true });
      filling ??= fill().then(
        () => void (filling = undefined),
        (err: unknown) => {
          close();
          throw err;
        },
      );
      return filling.then(() => iterator.next());
    },
    return(): Promise<IteratorResult<Emitted, undefined>> {
      queue = [];
      head = 0;
      close();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
    /** A run is open in what was read so far (`WireClient` resumes a drop there). */
    get runOpen() {
      return decoder.runOpen;
    },
  };
  return iterator;
}
