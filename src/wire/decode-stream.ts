/**
 * The async-iterable adapter over the push decoder: reads a `ReadableStream`, owns abort and stall
 * detection, and yields the decoder's events.
 */
import { createWireDecoder, type WireDecoderOptions } from './decoder.js';
import { failedRunEvents, type UnknownEvent, type WireEvent } from './events.js';

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

/**
 * A body error after which data already received was dropped: reported as a failed run even between
 * runs (a plain read error between runs adds nothing).
 */
export class DataLostError extends Error {
  override readonly name = 'DataLostError';
}

type Step =
  | { kind: 'chunk'; value: Uint8Array }
  | { kind: 'done' }
  | { kind: 'abort' }
  | { kind: 'idle' }
  | { kind: 'error'; error: unknown };

/**
 * Decodes a byte stream (a `fetch` body) into events as they arrive, with the run contract of
 * design §1. Reading starts at the first `next()`; the body is read only as fast as the events are
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
  return { [Symbol.asyncIterator]: () => iterate(body, options)[Symbol.asyncIterator]() };
}

async function* iterate(
  body: ReadableStream<Uint8Array>,
  options: DecodeStreamOptions,
): AsyncGenerator<WireEvent | UnknownEvent, void, undefined> {
  const { signal, idleTimeoutMs = 0, ...decoderOptions } = options;
  const queue: Array<WireEvent | UnknownEvent> = [];
  let delivered = 0;
  const decoder = createWireDecoder({ ...decoderOptions, onEvent: (event) => void queue.push(event) });
  const reader = body.getReader();
  let finished = false;

  let wakeAbort: (() => void) | undefined;
  const onAbort = (): void => wakeAbort?.();
  signal?.addEventListener('abort', onAbort, { once: true });

  function next(): Promise<Step> {
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
      reader.read().then(
        (result) => settle(result.done ? { kind: 'done' } : { kind: 'chunk', value: result.value }),
        (error: unknown) => settle({ kind: 'error', error }),
      );
    });
  }

  try {
    for (;;) {
      const step = await next();
      if (step.kind === 'chunk') decoder.feed(step.value);
      else {
        if (step.kind === 'done') {
          finished = true;
          decoder.end();
        } else if (step.kind === 'abort') decoder.cancel();
        else if (step.kind === 'idle') decoder.fail('timeout', `No data for ${idleTimeoutMs} ms while a run was open`);
        else {
          const message = `Network error while reading the stream: ${errorText(step.error)}`;
          if (decoder.runOpen) decoder.fail('network', message);
          else if (delivered + queue.length === 0 || step.error instanceof DataLostError) queue.push(...failedRunEvents({ code: 'network', message }));
        }
        decoder.cancel();
        yield* queue.splice(0);
        return;
      }
      while (queue.length > 0) {
        for (const event of queue.splice(0)) {
          if (signal?.aborted) decoder.cancel();
          delivered++;
          yield event;
        }
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) reader.cancel(signal?.aborted ? signal.reason : undefined).catch(() => {});
    try {
      reader.releaseLock();
    } catch {
      // older stream implementations refuse while a read is pending; the cancel above ends it anyway
    }
  }
}


function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
