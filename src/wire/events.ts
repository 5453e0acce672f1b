/**
 * The event schema every layer shares: pagent's wire events as `{ method, params }`, with params in
 * snake_case exactly as on the wire. `WireEvent` is a discriminated union on `method`.
 */
import { WireDecodeError, type ErrorCode } from '../errors.js';

export type { ErrorCode } from '../errors.js';

/** A tool call in the OpenAI shape. `arguments` is JSON text and may be invalid. */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Token usage exactly as the provider sent it (often with nested details and extras). */
export type Usage = Record<string, unknown>;

/** Why a turn or run stopped. Open-ended: servers may send others. */
export type StopReason =
  | 'continuing'
  | 'no_tool_calls'
  | 'empty_response'
  | 'max_turns'
  | 'cancelled'
  | 'error'
  | (string & {});

/** The summary of one model call: its text, reasoning, tool calls and usage. */
export interface StepSummary {
  content: string;
  tool_calls: ToolCall[];
  reasoning_content: string;
  usage: Usage | null;
}

export interface RunBegin {
  method: 'RunBegin';
  params: { user_input: string };
}
export interface TurnBegin {
  method: 'TurnBegin';
  /** `turn` is 0-based. */
  params: { turn: number };
}
export interface TextDelta {
  method: 'TextDelta';
  params: { text: string };
}
export interface ReasoningDelta {
  method: 'ReasoningDelta';
  params: { text: string };
}
export interface StepEnd {
  method: 'StepEnd';
  params: StepSummary;
}
export interface ToolCallBegin {
  method: 'ToolCallBegin';
  params: { tool_call_id: string; name: string; arguments: string };
}
export interface ToolResult {
  method: 'ToolResult';
  params: {
    tool_call_id: string;
    name: string;
    content: string;
    /** Absent means true. */
    ok?: boolean;
    elapsed_ms?: number;
    truncated?: boolean;
  };
}
export interface TurnEnd {
  method: 'TurnEnd';
  params: { turn: number; stopped: boolean; stop_reason?: StopReason };
}
export interface RunEnd {
  method: 'RunEnd';
  /** `content` is the content of the run's last step. */
  params: StepSummary & { stop_reason?: StopReason; turn?: number };
}
export interface RunError {
  method: 'RunError';
  params: { message: string; code: ErrorCode; where?: string; status?: number };
}

/**
 * A new empty step summary: no text, no reasoning, no tool calls, `usage: null`. A fresh object on
 * every call, so a consumer that mutates an event's params never changes another event.
 */
export function emptyStep(): StepSummary {
  return { content: '', tool_calls: [], reasoning_content: '', usage: null };
}

/**
 * The three events of a run that failed before any event of its own arrived: `RunBegin` (with
 * `userInput`, empty when the input is unknown), `RunError` with the given params, and `RunEnd` with an
 * empty step and `stop_reason: "error"`. Fresh objects on every call.
 */
export function failedRunEvents(error: RunError['params'], userInput = ''): [RunBegin, RunError, RunEnd] {
  return [
    { method: 'RunBegin', params: { user_input: userInput } },
    { method: 'RunError', params: error },
    { method: 'RunEnd', params: { ...emptyStep(), stop_reason: 'error' } },
  ];
}

/** A decoded wire event. `switch (event.method)` narrows `params`. */
export type WireEvent =
  | RunBegin
  | TurnBegin
  | TextDelta
  | ReasoningDelta
  | StepEnd
  | ToolCallBegin
  | ToolResult
  | TurnEnd
  | RunEnd
  | RunError;

/** The method names of the known events. */
export type WireMethod = WireEvent['method'];
/** The event type of one method. */
export type EventOf<M extends WireMethod> = Extract<WireEvent, { method: M }>;
/** The params type of one method. */
export type ParamsOf<M extends WireMethod> = EventOf<M>['params'];

/**
 * An event whose method this version does not know, yielded only when `includeUnknown` is set.
 * A separate type, so that narrowing on `WireEvent['method']` stays exact.
 */
export interface UnknownEvent {
  method: string;
  params: Record<string, unknown>;
  unknown: true;
}

/** Every known method, in the order a run emits them. */
export const WIRE_METHODS: readonly WireMethod[] = [
  'RunBegin',
  'TurnBegin',
  'TextDelta',
  'ReasoningDelta',
  'StepEnd',
  'ToolCallBegin',
  'ToolResult',
  'TurnEnd',
  'RunEnd',
  'RunError',
];

/** True when `method` is one of the known event methods. */
export function isWireMethod(method: string): method is WireMethod {
  return schemaOf(method) !== undefined;
}

/** True for a known event (not an {@link UnknownEvent}). */
export function isWireEvent(event: WireEvent | UnknownEvent): event is WireEvent {
  return !('unknown' in event && event.unknown === true) && isWireMethod(event.method);
}

// ---- validation: one table, one walk over the fields ----------------------------------------------

type Params = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);
/** True when `key` is an own property of `p` (never one inherited, such as `__proto__`). */
export const has = (p: object, key: string): boolean => Object.hasOwn(p, key);

/**
 * Each method's fields as `name:type`, in the order they are checked. Types: `s` string, `n` finite
 * number, `b` boolean, `c` tool calls (OpenAI shape), `u` usage (object or null); an upper-case type
 * marks an optional field (docs/wire.md#bad-input: `null` is absent, a wrong type is dropped and reported).
 */
const STEP = 'content:s tool_calls:c reasoning_content:s usage:u';
const SCHEMA_TEXT: Record<WireMethod, string> = {
  RunBegin: 'user_input:s',
  TurnBegin: 'turn:n',
  TextDelta: 'text:s',
  ReasoningDelta: 'text:s',
  StepEnd: STEP,
  ToolCallBegin: 'tool_call_id:s name:s arguments:s',
  ToolResult: 'tool_call_id:s name:s content:s ok:B elapsed_ms:N truncated:B',
  TurnEnd: 'turn:n stopped:b stop_reason:S',
  // written out, not `STEP + …`: bundlers keep a concatenation (and so the whole table) even where unused
  RunEnd: 'content:s tool_calls:c reasoning_content:s usage:u stop_reason:S turn:N',
  RunError: 'message:s code:s where:S status:N',
};
/**
 * The table, split once per method on first use: `[name, type, name, type, …]`. It has no prototype, so
 * one lookup tells a known method (any name, `toString` or `__proto__` too, reads safely).
 */
const SCHEMAS: Record<string, string[] | undefined> = Object.create(null);

/** A method's fields as `[name, type, …]`, or `undefined` for an unknown method (never stored). */
function schemaOf(method: string): string[] | undefined {
  return SCHEMAS[method] ?? (has(SCHEMA_TEXT, method) ? (SCHEMAS[method] = SCHEMA_TEXT[method as WireMethod].split(/[ :]/)) : undefined);
}

/**
 * Why `value` does not fit `type` (lower-case), or `undefined` when it fits: `must be …` about the field,
 * or a whole quoted sentence about one of its items.
 */
function misfit(type: string, value: unknown): string | undefined {
  switch (type) {
    case 's':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'n':
      return typeof value !== 'number' ? 'must be a number' : Number.isFinite(value) ? undefined : 'must be a finite number';
    case 'b':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'u':
      return value === null || isObject(value) ? undefined : 'must be an object or null';
    default:
      return checkToolCalls(value);
  }
}

function checkToolCalls(calls: unknown): string | undefined {
  if (!Array.isArray(calls)) return 'must be an array';
  for (let i = 0; i < calls.length; i++) {
    const call: unknown = calls[i];
    const fn = isObject(call) ? call['function'] : undefined;
    if (
      !isObject(call) ||
      typeof call['id'] !== 'string' ||
      call['type'] !== 'function' ||
      !isObject(fn) ||
      typeof fn['name'] !== 'string' ||
      typeof fn['arguments'] !== 'string'
    ) {
      return `"tool_calls[${i}]" must be {id, type: "function", function: {name, arguments}}`;
    }
  }
  return undefined;
}

/**
 * Validates `params` for `method` and returns the event (`undefined` for an unknown method), without copying or reshaping:
 * extra keys stay, `__proto__` keys stay inert own properties. Each field of the method's schema is
 * read once. Optional fields are forgiving (docs/wire.md#bad-input): one that is `null` is left out as absent; one of
 * the wrong type is left out and reported to `onDropped` as a `WireDecodeError{reason: "invalid-params"}`
 * (the event is still returned). Only then are the params copied (shallowly), so the caller's object
 * is never changed.
 *
 * @throws {WireDecodeError} `reason: "invalid-params"` when a required field is missing or mistyped.
 */
export function validateEvent(
  method: string,
  params: unknown,
  line = '',
  lineNumber?: number,
  onDropped?: (err: WireDecodeError) => void,
): WireEvent | undefined {
  const schema = schemaOf(method);
  if (!schema) return undefined;
  if (!isObject(params)) throw invalidParams(method, 'params must be an object', line, lineNumber);
  let kept: Params | undefined;
  for (let i = 0; i < schema.length; i += 2) {
    const key = schema[i]!;
    const type = schema[i + 1]!;
    const value = params[key];
    if (type < 'a') {
      // optional (upper-case type)
      if (value === undefined) continue;
      const problem = value === null ? null : misfit(type.toLowerCase(), value);
      if (problem === undefined) continue;
      // A spread defines own properties, so a "__proto__" key stays an inert field in the copy too.
      kept ??= { ...params };
      delete kept[key];
      if (problem !== null) onDropped?.(invalidParams(method, `dropped "${key}": ${problem}`, line, lineNumber));
      continue;
    }
    if (value === undefined && !has(params, key)) throw invalidParams(method, `missing "${key}"`, line, lineNumber);
    const problem = misfit(type, value);
    if (problem !== undefined) throw invalidParams(method, problem[0] === '"' ? problem : `"${key}" ${problem}`, line, lineNumber);
  }
  return { method, params: kept ?? params } as WireEvent;
}

function invalidParams(method: string, message: string, line: string, lineNumber: number | undefined): WireDecodeError {
  return new WireDecodeError('invalid-params', `${method}: ${message}`, line, lineNumber);
}
