/**
 * Dialects: the wire shapes we read, each normalised into the events of design §1 in one place.
 */
import type { WireDecodeError } from '../../errors.js';
import type { UnknownEvent, WireEvent } from '../events.js';
import { createAgUiDialect } from './ag-ui.js';
import { createAiSdkDialect } from './ai-sdk.js';
import { createPagentDialect } from './pagent.js';
import { createVictorDialect } from './victor.js';

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

/** The UI message parts of the AI SDK, by `type` (besides `data-*`). */
const AI_SDK_TYPES = new Set([
  'start',
  'finish',
  'abort',
  'start-step',
  'finish-step',
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-available',
  'tool-input-error',
  'tool-approval-request',
  'tool-output-available',
  'tool-output-error',
  'tool-output-denied',
  'source-url',
  'source-document',
  'file',
  'message-metadata',
]);

/**
 * Tells the dialect from one document: a JSON-RPC envelope (`jsonrpc` or `method`) is `pagent`;
 * `{"v": …, "event": …}` is `victor`; an upper-case `type` (`RUN_STARTED`, `TEXT_MESSAGE_CONTENT`, …) is
 * `ag-ui`; a UI message part `type` (`start`, `text-delta`, `data-*`, …, or `error` with `errorText`) is
 * `ai-sdk`; any other string `type` is Victor's legacy shape. Returns `undefined` for anything else,
 * invalid JSON included.
 */
export function detectDialect(text: string): DialectName | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const fields = doc as Record<string, unknown>;
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(doc, key);
  if (has('jsonrpc') || has('method')) return 'pagent';
  if (has('v') && has('event')) return 'victor';
  const type = fields['type'];
  if (typeof type !== 'string') return undefined;
  if (/^[A-Z][A-Z0-9_]*$/.test(type)) return 'ag-ui';
  if (AI_SDK_TYPES.has(type) || type.startsWith('data-') || (type === 'error' && has('errorText'))) return 'ai-sdk';
  return 'victor';
}

/** Creates a fresh decoder for one stream in the named dialect. */
export function createDialect(name: DialectName): DialectDecoder {
  switch (name) {
    case 'victor':
      return createVictorDialect();
    case 'ag-ui':
      return createAgUiDialect();
    case 'ai-sdk':
      return createAiSdkDialect();
    default:
      return createPagentDialect();
  }
}
