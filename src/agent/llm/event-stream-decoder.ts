/**
 * The server-sent-events side of reading a model's streamed answer, shared by every model API: framing
 * (eventsource-parser), UTF-8 split anywhere, a cap on the size of one message, `data: [DONE]`, `event:
 * error` messages and payloads that are not JSON. What the messages mean is a {@link StreamReader}'s: one
 * per API (Chat Completions chunks, Responses events, Anthropic Messages events).
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { PagentError } from '../../errors.js';
import { utf8Length } from '../../wire/framing.js';
import type { AssembledStep, AssemblerDelta } from './chunk-assembler.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Builds the message of a provider error that arrives inside a 200 body (an error chunk mid-stream, an
 * `event: error` message, a non-streamed error object): `{error: {message}}`, `{message}`, or a string.
 * Non-2xx bodies go through `httpErrorMessage` (src/wire/http-error.ts) instead.
 */
export function providerErrorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isObj(error)) {
    const inner = isObj(error['error']) || typeof error['error'] === 'string' ? error['error'] : error;
    if (typeof inner === 'string') return inner;
    if (isObj(inner)) {
      const message = inner['message'];
      if (typeof message === 'string' && message !== '') {
        const code = inner['code'];
        return typeof code === 'string' || typeof code === 'number' ? `${message} (code ${code})` : message;
      }
      if (message !== undefined && message !== null) return JSON.stringify(message);
      const detail = inner['detail'];
      if (typeof detail === 'string') return detail;
      if (detail !== undefined) return JSON.stringify(detail);
    }
  }
  return JSON.stringify(error) ?? 'unknown provider error';
}

/** How a streamed answer ended: after `data: [DONE]`, after the API's own last event, or cut short. */
export type CompletionEnd = 'done' | 'finished' | 'truncated';

/**
 * What one model API's stream messages mean. Pure: no I/O, no timers. A Chat Completions chunk assembler
 * is one as it is (it reads the messages without an `event:` name or named `message`, as the defaults say).
 */
export interface StreamReader {
  /**
   * Whether messages with this `event:` name (`undefined` when the message has none) are read at all.
   * @defaultValue those without a name or named `message`
   */
  reads?(event: string | undefined): boolean;
  /**
   * Applies one message's parsed JSON payload and returns the deltas it carried, in order (maybe none).
   * Throws a `PagentError` with code `"provider"` when the payload is the API's error event.
   */
  push(payload: unknown, event: string | undefined): AssemblerDelta[];
  /**
   * The provider's message in the payload of an `event: error` message (parsed JSON, or its text).
   * @defaultValue {@link providerErrorMessage}
   */
  errorMessage?(payload: unknown): string;
  /** Ends the answer: the deltas still held back (maybe none). */
  end(): AssemblerDelta[];
  /** The step as assembled so far. */
  result(): AssembledStep;
  /** Whether the API's own end of an answer (a `finish_reason`, `response.completed`, `message_stop`…) came. */
  readonly finished: boolean;
}

/** A push decoder for a whole `text/event-stream` answer body. */
export interface StreamDecoder {
  /**
   * Feeds bytes or text, split anywhere (inside UTF-8 sequences, CRLF pairs or JSON strings), and returns
   * the deltas completed by this piece. Throws a `PagentError` with code `"provider"` for an `event: error`
   * message, an error event of the API or a data payload that is not JSON (deltas that came before it in
   * the same piece are returned first; the next `feed` or `end` throws).
   */
  feed(chunk: Uint8Array | string): AssemblerDelta[];
  /**
   * Ends the body and says how it ended: `"done"` after `data: [DONE]`; `"finished"` without `[DONE]` but
   * after the API's own end of an answer; `"truncated"` when neither came (the body was cut). Returns the
   * deltas of a last message that had no blank line after it and those the reader held back.
   */
  end(): { deltas: AssemblerDelta[]; how: CompletionEnd };
  /** The step as assembled so far. */
  result(): AssembledStep;
  /** Whether `data: [DONE]` was seen (later messages are ignored). */
  readonly done: boolean;
  /** SSE messages seen so far (comments excluded): 0 at the end means the body was not an event stream. */
  readonly messages: number;
}

/** The default {@link EventStreamDecoderOptions.maxEventBytes}: 16 MiB, as the wire decoder's `maxLineBytes`. */
export const DEFAULT_MAX_EVENT_BYTES = 16_777_216; // a literal (16 MiB): bundlers drop it where unused

/** Options of {@link createEventStreamDecoder}. */
export interface EventStreamDecoderOptions {
  /**
   * The largest SSE message accepted, so a broken or hostile server that never ends a line or a message
   * cannot make the decoder buffer without bound. A message's data over this many UTF-8 bytes fails the
   * stream with a `PagentError` of code `"provider"`; a message still arriving fails as soon as the text
   * buffered for it (partial line plus earlier `data:` lines) passes this many characters, so memory stays
   * bounded even when it never ends. @defaultValue 16 MiB ({@link DEFAULT_MAX_EVENT_BYTES})
   */
  maxEventBytes?: number | undefined;
}

/**
 * Creates a push decoder that frames an SSE body into messages and hands them to `reader`. SSE comments,
 * `id:` and `retry:` fields are ignored; `data:` with or without the space, LF, CRLF and CR line endings
 * are read as the SSE spec says (eventsource-parser). Messages the reader does not read (by their
 * `event:` name) and empty data payloads are skipped; `data: [DONE]` ends the answer (later messages are
 * ignored); an `event: error` message fails it with the reader's {@link StreamReader.errorMessage}.
 */
export function createEventStreamDecoder(reader: StreamReader, options: EventStreamDecoderOptions = {}): StreamDecoder {
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const utf8 = new TextDecoder();
  let done = false;
  let pending: AssemblerDelta[] = [];
  let failure: PagentError | undefined;
  let messages = 0;

  const onData = (event: string | undefined, data: string): void => {
    if (done || failure) return;
    messages++;
    if (event === 'error') {
      let parsed: unknown = data;
      try {
        parsed = JSON.parse(data);
      } catch {
        // a plain-text error payload is its own message
      }
      const message = reader.errorMessage ? reader.errorMessage(parsed) : providerErrorMessage(parsed);
      failure = new PagentError(`Provider error in the stream: ${data.trim() === '' ? 'event: error without details' : message}`, {
        code: 'provider',
        where: 'llm',
      });
      return;
    }
    if (reader.reads ? !reader.reads(event) : event !== undefined && event !== 'message') return;
    const trimmed = data.trim();
    if (trimmed === '') return;
    if (trimmed === '[DONE]') {
      done = true;
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(trimmed);
    } catch (cause) {
      failure = new PagentError(`Provider sent a stream message that is not JSON: ${trimmed.slice(0, 200)}`, {
        code: 'provider',
        where: 'llm',
        cause,
      });
      return;
    }
    try {
      for (const d of reader.push(payload, event)) pending.push(d);
    } catch (err) {
      failure = err instanceof PagentError ? err : new PagentError(String(err), { code: 'provider', where: 'llm', cause: err });
    }
  };

  const tooLarge = (): PagentError =>
    new PagentError(
      `The provider sent a stream message over ${maxEventBytes} bytes (maxEventBytes) without ending it; the stream was abandoned`,
      { code: 'provider', where: 'llm' },
    );
  // A character takes at least one UTF-8 byte, so only data long enough to be over the limit gets encoded.
  const parser: EventSourceParser = createParser({
    maxBufferSize: maxEventBytes,
    onEvent: (m) => {
      if (!done && !failure && m.data.length * 3 > maxEventBytes && utf8Length(m.data) > maxEventBytes) failure = tooLarge();
      else onData(m.event, m.data);
    },
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded' && !done && !failure) failure = tooLarge();
    },
  });

  // Deltas that came before a failure are delivered first; the failure is thrown by the next call.
  const drain = (): AssemblerDelta[] => {
    if (failure && pending.length === 0) throw failure;
    const out = pending;
    pending = [];
    return out;
  };

  return {
    feed(chunk) {
      const text = typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true });
      if (text !== '' && !done && !failure) parser.feed(text);
      return drain();
    },
    end() {
      const tail = utf8.decode();
      if (!done && !failure) {
        // A last message without its blank line still counts: end the line and the message.
        parser.feed(`${tail}\n\n`);
      }
      if (!failure) for (const d of reader.end()) pending.push(d);
      const deltas = drain();
      return { deltas, how: done ? 'done' : reader.finished ? 'finished' : 'truncated' };
    },
    result: () => reader.result(),
    get done() {
      return done;
    },
    get messages() {
      return messages;
    },
  };
}
