/**
 * The shape of a dialect writer: our events in, the protocol's documents out (framed by `encodeStream`).
 */
import type { WireEvent } from '../events.js';

/** Writes one stream of well-formed runs in one dialect. */
export interface DialectWriter {
  /** The protocol documents (JSON values) for one event, in order (maybe none). */
  write(event: WireEvent): unknown[];
  /** An SSE data payload that ends the whole stream (the AI SDK's `[DONE]`), if the protocol has one. */
  readonly done: string | undefined;
}
