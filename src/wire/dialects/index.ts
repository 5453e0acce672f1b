/**
 * Dialects: the wire shapes we read, each normalised into the events of design §1 in one place.
 */
import type { UnknownEvent, WireEvent } from '../events.js';
import { createPagentDialect } from './pagent.js';
import { createVictorDialect } from './victor.js';

/** A family of wire shapes: `pagent` (JSON-RPC, pagent and pagentv4) or `victor` (wire events v1). */
export type DialectName = 'pagent' | 'victor';

/** Decodes the documents of one stream in one dialect. Stateful per run. */
export interface DialectDecoder {
  /**
   * Maps one document (an NDJSON line or one SSE data payload) to events, in order (maybe none).
   * Throws `WireDecodeError` for a bad document. Unknown events come back as `UnknownEvent`.
   */
  decode(text: string, lineNumber: number): Array<WireEvent | UnknownEvent>;
  /** The core closed the open run itself (EOF, cancel, stall, network): drop per-run state. */
  reset(): void;
}

/**
 * Tells the dialect from one document: a JSON-RPC envelope (`jsonrpc` or `method`) is `pagent`;
 * `{"v": …, "event": …}` (or the legacy `{"type": …}` without `method`) is `victor`. Returns
 * `undefined` for anything else, invalid JSON included.
 */
export function detectDialect(text: string): DialectName | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(doc, key);
  if (has('jsonrpc') || has('method')) return 'pagent';
  if ((has('v') && has('event')) || typeof (doc as Record<string, unknown>)['type'] === 'string') return 'victor';
  return undefined;
}

/** Creates a fresh decoder for one stream in the named dialect. */
export function createDialect(name: DialectName): DialectDecoder {
  return name === 'victor' ? createVictorDialect() : createPagentDialect();
}
