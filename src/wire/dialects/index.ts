/**
 * Dialects: the wire shapes we read, each normalised into the events of docs/wire.md#events in one place
 * (docs/wire.md#dialects).
 */
import { WireDecodeError } from '../../errors.js';
import type { UnknownEvent, WireEvent } from '../events.js';
import { createAgUiDialect } from './ag-ui.js';
import { createAiSdkDialect } from './ai-sdk.js';
import { createPagentDialect } from './pagent.js';
import { createVictorDialect } from './victor.js';

export { detectDialect, loadDialect } from './registry.js';

/**
 * A family of wire shapes: `pagent` (JSON-RPC, pagent and pagentv4), `victor` (wire events v1),
 * `ag-ui` (AG-UI events) or `ai-sdk` (the AI SDK UI message stream).
 */
export type DialectName = 'pagent' | 'victor' | 'ag-ui' | 'ai-sdk';

/** Decodes the documents of one stream in one dialect. Stateful per run. */
export interface DialectDecoder {
  /**
   * Maps one document (an NDJSON line or one SSE data payload) to events, in order (maybe none).
   * Throws `WireDecodeError` for a bad document. Unknown events come back as `UnknownEvent`. An optional
   * field left out because it had the wrong type is reported to `onDropped` (the event is still returned).
   */
  decode(text: string, lineNumber: number, onDropped?: (err: WireDecodeError) => void): Array<WireEvent | UnknownEvent>;
  /** The core closed the open run itself (EOF, cancel, stall, network): drop per-run state. */
  reset(): void;
}

/**
 * The error class a reader throws, handed to its factory rather than imported: a reader loaded by
 * `import()` then shares no module with the decoder core, so a bundler gives the core no extra chunk for
 * `errors.ts` (about 0.15 kB min+gzip on every entry that decodes).
 */
export type WireDecodeErrorClass = typeof WireDecodeError;

/**
 * Creates a fresh decoder for one stream in the named dialect, every reader imported statically (the
 * decoder core loads them lazily instead, through `./registry.js`).
 */
export function createDialect(name: DialectName): DialectDecoder {
  switch (name) {
    case 'victor':
      return createVictorDialect(WireDecodeError);
    case 'ag-ui':
      return createAgUiDialect(WireDecodeError);
    case 'ai-sdk':
      return createAiSdkDialect(WireDecodeError);
    default:
      return createPagentDialect();
  }
}
