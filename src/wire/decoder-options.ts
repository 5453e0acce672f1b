/**
 * The public types of the push decoder: its options (shared by `decodeWireStream` and `WireClient`)
 * and the small interface {@link createWireDecoder} returns.
 */
import type { WireDecodeError } from '../errors.js';
import type { createWireDecoder } from './decoder.js';
import type { DialectName } from './dialects/index.js';
import type { WireFormat } from './framing.js';

/** Options shared by {@link createWireDecoder}, `decodeWireStream` and `WireClient`. */
export interface WireDecoderOptions {
  /**
   * How the body is framed. `'auto'` looks at the first non-whitespace bytes: `{` or `[` is NDJSON,
   * `:` or an SSE field (`data:`, `event:`, `id:`, `retry:`) is SSE, anything else NDJSON.
   * @defaultValue 'auto'
   */
  format?: WireFormat | 'auto' | undefined;
  /**
   * The wire dialect. `'auto'` detects it from the first document that looks like one (a JSON-RPC
   * envelope is pagent, `{"v", "event"}` is Victor, an upper-case `type` is AG-UI, a UI message part
   * `type` such as `start` or `text-delta` is the AI SDK); documents before that decode as pagent.
   * @defaultValue 'auto'
   */
  dialect?: DialectName | 'auto' | undefined;
  /**
   * Longest line (NDJSON) or message (SSE) kept, in UTF-8 bytes; longer ones are dropped with a
   * `WireDecodeError{reason: "line-too-long"}` and the stream goes on.
   * @defaultValue 16 MiB
   */
  maxLineBytes?: number | undefined;
  /** Called with each raw document (an NDJSON line, an SSE message's data) before it is decoded. */
  onLine?: ((raw: string) => void) | undefined;
  /** Called for each document that could not be decoded; decoding goes on with the next one. */
  onDecodeError?: ((err: WireDecodeError) => void) | undefined;
  /**
   * Deliver events of unknown methods as `{method, params, unknown: true}` instead of skipping them.
   * @defaultValue false
   */
  includeUnknown?: boolean | undefined;
}

/** The sync push core returned by {@link createWireDecoder}. */
export interface WireDecoder {
  /** Feeds the next chunk of the body, cut anywhere. Events are delivered synchronously to `onEvent`. */
  feed(chunk: Uint8Array | string): void;
  /**
   * EOF: flushes a last line without a newline, then closes an open run with
   * `RunError{code: "truncated"}` (or the run's own held `RunError`) + `RunEnd{stop_reason: "error"}`. A body that held no decodable
   * event at all but some content gives one run `RunBegin` + `RunError{code: "decode"}` + `RunEnd`.
   */
  end(): void;
  /**
   * Abort: closes an open run with `RunEnd{stop_reason: "cancelled"}` and no `RunError`; drops the rest.
   * A run that already carried a server's `RunError` (held until the end) gets it delivered, then
   * `RunEnd{stop_reason: "error"}`: it had failed before the abort.
   */
  cancel(): void;
  /**
   * Closes an open run with `RunError{code}` (or the run's own held `RunError`) + `RunEnd{stop_reason:
   * "error"}`, and stops decoding. A no-op when no run is open.
   */
  fail(code: 'timeout' | 'network', message: string): void;
  /** True while a run is open (its `RunBegin` delivered, its `RunEnd` not yet). */
  readonly runOpen: boolean;
  /**
   * While the reader of a dialect met for the first time loads (see `loadDialect`): documents, `end()`,
   * `cancel()` and `fail()` wait for it, in order, and their events are delivered when it settles.
   * `undefined` when nothing waits (always, for pagent streams).
   */
  readonly loading: Promise<void> | undefined;
}
