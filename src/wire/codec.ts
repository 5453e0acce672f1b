/**
 * Encode and decode one pagent wire line: a JSON-RPC 2.0 notification
 * `{"jsonrpc": "2.0", "method": <event class>, "params": {...}}`.
 */
import { WireDecodeError } from '../errors.js';
import { emptyStep, has, isObject, validateEvent, type ToolCall, type UnknownEvent, type WireEvent } from './events.js';

/** A JSON-RPC 2.0 notification carrying one event, as pagent writes it. */
export interface RpcNotification {
  jsonrpc: '2.0';
  method: string;
  params: Record<string, unknown>;
}

/**
 * Parses one line as a JSON-RPC notification envelope, without looking at the method.
 *
 * @throws {WireDecodeError} `invalid-json` or `not-an-event`.
 */
export function parseRpcLine(line: string, lineNumber?: number): RpcNotification {
  return checkEnvelope(parseJsonLine(line, lineNumber), line, lineNumber);
}

/**
 * Parses one line as JSON, whatever it holds.
 *
 * @throws {WireDecodeError} `invalid-json`.
 */
export function parseJsonLine(line: string, lineNumber?: number): unknown {
  try {
    return JSON.parse(line);
  } catch (err) {
    throw new WireDecodeError('invalid-json', `Invalid JSON: ${(err as Error).message}`, line, lineNumber, err);
  }
}

/**
 * The params of a parsed line that is a well-formed `TextDelta` notification, the commonest line of the
 * wire, which then needs no other check; `undefined` for anything else (read in full by
 * {@link checkEnvelope} and {@link rpcParamsToEvent}, which report what is wrong). JSON has no
 * `undefined`, so an `id` read as `undefined` is not an own one.
 */
export function plainTextDelta(message: unknown): { text: string } | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { jsonrpc, method, id, params } = message as Record<string, unknown>;
  if (method !== 'TextDelta' || jsonrpc !== '2.0' || id !== undefined || !isObject(params)) return undefined;
  return typeof params['text'] === 'string' ? (params as { text: string }) : undefined;
}

/** A `TextDelta` line up to its text's value, as pagent writes it (Python's `json.dumps`). */
const PAGENT_DELTA = '{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": ';
/** The same without spaces, as `JSON.stringify` (and so {@link encodeEventLine}) writes it. */
const COMPACT_DELTA = PAGENT_DELTA.replaceAll(' ', '');

/**
 * The params of a `TextDelta` line spelled as pagent or `JSON.stringify` spell it (docs/wire.md#pagent-and-pagentv4),
 * read by parsing the text's value alone; `undefined` for any other line, which is then read in full.
 * Such a line is a prefix, one JSON string, then `}}`: when the part between parses as a string, the whole
 * line parses to exactly `{jsonrpc: "2.0", method: "TextDelta", params: {text}}` and nothing else needs
 * checking. A value with a quote inside (escaped) is left to the full reading rather than tried and thrown.
 */
export function canonicalTextDelta(line: string): { text: string } | undefined {
  // one character first, where the caller inlines it: the `}` closing params, which turns most other
  // lines away (another key order ends `"}`) for 2 % of their decode time rather than 4 %
  return line.charCodeAt(line.length - 2) === 0x7d ? readCanonicalDelta(line) : undefined;
}

/** {@link canonicalTextDelta} past its first check. */
function readCanonicalDelta(line: string): { text: string } | undefined {
  if (!line.endsWith('"}}')) return undefined;
  const prefix = line.startsWith(PAGENT_DELTA) ? PAGENT_DELTA : line.startsWith(COMPACT_DELTA) ? COMPACT_DELTA : undefined;
  if (prefix === undefined || line.indexOf('"', prefix.length + 1) !== line.length - 3) return undefined;
  let text: unknown;
  try {
    text = JSON.parse(line.slice(prefix.length, -2));
  } catch {
    return undefined;
  }
  return typeof text === 'string' ? { text } : undefined;
}

/** Checks a parsed line is a JSON-RPC 2.0 notification with object params. */
export function checkEnvelope(message: unknown, line: string, lineNumber?: number): RpcNotification {
  if (!isObject(message)) throw new WireDecodeError('not-an-event', 'Not a JSON object', line, lineNumber);
  if (message['jsonrpc'] !== '2.0') {
    throw new WireDecodeError('not-an-event', 'Not a JSON-RPC 2.0 message: "jsonrpc" must be "2.0"', line, lineNumber);
  }
  // an own `id` (an inherited one does not count), read first as a plain field: fast, and JSON has no undefined
  if (message['id'] !== undefined && has(message, 'id')) {
    throw new WireDecodeError('not-an-event', 'A JSON-RPC request or response (has "id"), not a notification', line, lineNumber);
  }
  if (typeof message['method'] !== 'string') {
    throw new WireDecodeError('not-an-event', '"method" must be a string', line, lineNumber);
  }
  if (!isObject(message['params'])) {
    throw new WireDecodeError('invalid-params', `${message['method']}: params must be an object`, line, lineNumber);
  }
  return message as unknown as RpcNotification;
}

/** pagentv4's flat tool call `{type, id, name, arguments}` → the OpenAI shape; OpenAI-shaped calls pass. */
function toOpenAIToolCall(call: unknown): unknown {
  if (!isObject(call) || isObject(call['function'])) return call;
  return { id: call['id'], type: 'function', function: { name: call['name'], arguments: call['arguments'] } };
}

/**
 * Maps a notification to an event, statelessly, reading pagentv4's events too:
 * `TurnResult` → `StepEnd` (flat tool calls → OpenAI shape) and a `RunEnd{turn, stop_reason}` without
 * `content` → `RunEnd` with empty `content`/`tool_calls`/`reasoning_content` and `usage: null`
 * (streams fill these from the run's last `StepEnd`). Returns `undefined` for an unknown method.
 * Optional fields that are `null` or mistyped are left out (see `validateEvent`); the mistyped ones are
 * reported to `onDropped`.
 *
 * @throws {WireDecodeError} `invalid-params` when the params do not fit the method.
 */
export function rpcParamsToEvent(
  method: string,
  params: Record<string, unknown>,
  line = '',
  lineNumber?: number,
  onDropped?: (err: WireDecodeError) => void,
): WireEvent | undefined {
  if (method === 'TurnResult') {
    const calls = params['tool_calls'];
    const normalised = { ...params, tool_calls: Array.isArray(calls) ? calls.map(toOpenAIToolCall) : calls };
    return validateEvent('StepEnd', normalised, line, lineNumber, onDropped);
  }
  if (isShortRunEnd(method, params)) {
    return validateEvent('RunEnd', { ...emptyStep(), ...params }, line, lineNumber, onDropped);
  }
  return validateEvent(method, params, line, lineNumber, onDropped);
}

/**
 * Whether a notification is pagentv4's short `RunEnd{turn, stop_reason}`, which carries no step
 * summary (no `content` field): its step fields are filled in (empty, or from the run's last step).
 */
export function isShortRunEnd(method: string, params: Record<string, unknown>): boolean {
  return method === 'RunEnd' && !has(params, 'content');
}

/**
 * Decodes one wire line strictly, like pagent's own decoder. Optional fields are forgiving (docs/wire.md#bad-input):
 * `null` reads as absent and a mistyped optional field is left out of the event.
 *
 * @throws {WireDecodeError} for invalid JSON, a non-object, `jsonrpc` ≠ "2.0", an `id`, non-object
 * `params`, an unknown method, or a missing / wrongly typed required field.
 * @example
 * decodeEventLine('{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": "Hi"}}');
 * // → { method: 'TextDelta', params: { text: 'Hi' } }
 */
export function decodeEventLine(line: string): WireEvent {
  const { method, params } = parseRpcLine(line);
  const event = rpcParamsToEvent(method, params, line);
  if (!event) throw new WireDecodeError('unknown-method', `Unknown method "${method}"`, line);
  return event;
}

/** An event as a JSON-RPC 2.0 notification (pagent's `event_to_rpc`). */
export function eventToRpc(event: WireEvent | UnknownEvent): RpcNotification {
  return { jsonrpc: '2.0', method: event.method, params: event.params as Record<string, unknown> };
}

/**
 * A JSON-RPC notification (already parsed) as an event (pagent's `rpc_to_event`); strict like
 * {@link decodeEventLine}.
 *
 * @throws {WireDecodeError}
 */
export function rpcToEvent(message: unknown): WireEvent {
  const line = safeStringify(message);
  const { method, params } = checkEnvelope(message, line);
  const event = rpcParamsToEvent(method, params, line);
  if (!event) throw new WireDecodeError('unknown-method', `Unknown method "${method}"`, line);
  return event;
}

/** Encodes an event as one compact JSON line ending in `\n`. */
export function encodeEventLine(event: WireEvent | UnknownEvent): string {
  return JSON.stringify(eventToRpc(event)) + '\n';
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export type { ToolCall };
