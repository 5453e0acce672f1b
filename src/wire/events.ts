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
 * The three events of a run that failed before any event of its own arrived: `RunBegin{user_input: ""}`,
 * `RunError` with the given params, and `RunEnd` with an empty step and `stop_reason: "error"`.
 * Fresh objects on every call.
 */
export function failedRunEvents(error: RunError['params']): [RunBegin, RunError, RunEnd] {
  return [
    { method: 'RunBegin', params: { user_input: '' } },
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

const KNOWN = new Set<string>(WIRE_METHODS);

/** True when `method` is one of the known event methods. */
export function isWireMethod(method: string): method is WireMethod {
  return KNOWN.has(method);
}

/** True for a known event (not an {@link UnknownEvent}). */
export function isWireEvent(event: WireEvent | UnknownEvent): event is WireEvent {
  return !('unknown' in event && event.unknown === true) && KNOWN.has(event.method);
}

// ---- validation: one place, small guards -------------------------------------------------------

type Params = Record<string, unknown>;

const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (p: Params, key: string): boolean => Object.prototype.hasOwnProperty.call(p, key);

class ParamsError extends Error {}

function req(p: Params, key: string, type: 'string' | 'number' | 'boolean'): void {
  if (!has(p, key)) throw new ParamsError(`missing "${key}"`);
  if (typeof p[key] !== type) throw new ParamsError(`"${key}" must be a ${type}`);
  if (type === 'number' && !Number.isFinite(p[key])) throw new ParamsError(`"${key}" must be a finite number`);
}

/** An optional field to leave out of the event: `null` (absent) or of the wrong type (`problem` set). */
interface Dropped {
  key: string;
  problem: string | undefined;
}

/**
 * Design §1: an optional field that is `null` is absent; one of the wrong type is dropped (and reported),
 * the event kept. Either way it is recorded in `dropped`.
 */
function opt(p: Params, key: string, type: 'string' | 'number' | 'boolean', dropped: Dropped[]): void {
  if (!has(p, key) || p[key] === undefined) return;
  if (p[key] === null) {
    dropped.push({ key, problem: undefined });
    return;
  }
  try {
    req(p, key, type);
  } catch (err) {
    if (!(err instanceof ParamsError)) throw err;
    dropped.push({ key, problem: err.message.replace(/^"[^"]*" /, '') });
  }
}

function checkToolCalls(p: Params): void {
  if (!has(p, 'tool_calls')) throw new ParamsError('missing "tool_calls"');
  const calls = p['tool_calls'];
  if (!Array.isArray(calls)) throw new ParamsError('"tool_calls" must be an array');
  calls.forEach((call: unknown, i) => {
    const fn = isObject(call) ? call['function'] : undefined;
    if (
      !isObject(call) ||
      typeof call['id'] !== 'string' ||
      call['type'] !== 'function' ||
      !isObject(fn) ||
      typeof fn['name'] !== 'string' ||
      typeof fn['arguments'] !== 'string'
    ) {
      throw new ParamsError(`"tool_calls[${i}]" must be {id, type: "function", function: {name, arguments}}`);
    }
  });
}

function checkStep(p: Params): void {
  req(p, 'content', 'string');
  checkToolCalls(p);
  req(p, 'reasoning_content', 'string');
  if (!has(p, 'usage')) throw new ParamsError('missing "usage"');
  if (p['usage'] !== null && !isObject(p['usage'])) throw new ParamsError('"usage" must be an object or null');
}

/**
 * Throws a ParamsError when a required field of `params` does not fit `method`'s schema; optional fields
 * to leave out (null or mistyped) go to `dropped`.
 */
function checkParams(method: WireMethod, p: Params, dropped: Dropped[]): void {
  switch (method) {
    case 'RunBegin':
      return req(p, 'user_input', 'string');
    case 'TurnBegin':
      return req(p, 'turn', 'number');
    case 'TextDelta':
    case 'ReasoningDelta':
      return req(p, 'text', 'string');
    case 'StepEnd':
      return checkStep(p);
    case 'ToolCallBegin':
      req(p, 'tool_call_id', 'string');
      req(p, 'name', 'string');
      return req(p, 'arguments', 'string');
    case 'ToolResult':
      req(p, 'tool_call_id', 'string');
      req(p, 'name', 'string');
      req(p, 'content', 'string');
      opt(p, 'ok', 'boolean', dropped);
      opt(p, 'elapsed_ms', 'number', dropped);
      return opt(p, 'truncated', 'boolean', dropped);
    case 'TurnEnd':
      req(p, 'turn', 'number');
      req(p, 'stopped', 'boolean');
      return opt(p, 'stop_reason', 'string', dropped);
    case 'RunEnd':
      checkStep(p);
      opt(p, 'stop_reason', 'string', dropped);
      return opt(p, 'turn', 'number', dropped);
    case 'RunError':
      req(p, 'message', 'string');
      req(p, 'code', 'string');
      opt(p, 'where', 'string', dropped);
      return opt(p, 'status', 'number', dropped);
  }
}

/**
 * Validates `params` for a known `method` and returns the event, without copying or reshaping:
 * extra keys stay, `__proto__` keys stay inert own properties. Optional fields are forgiving (design §1):
 * one that is `null` is left out as absent; one of the wrong type is left out and reported to `onDropped`
 * as a `WireDecodeError{reason: "invalid-params"}` (the event is still returned). Only then are the
 * params copied (shallowly), so the caller's object is never changed.
 *
 * @throws {WireDecodeError} `reason: "invalid-params"` when a required field is missing or mistyped.
 */
export function validateEvent(
  method: WireMethod,
  params: unknown,
  line = '',
  lineNumber?: number,
  onDropped?: (err: WireDecodeError) => void,
): WireEvent {
  if (!isObject(params)) {
    throw new WireDecodeError('invalid-params', `${method}: params must be an object`, line, lineNumber);
  }
  const dropped: Dropped[] = [];
  try {
    checkParams(method, params, dropped);
  } catch (err) {
    if (err instanceof ParamsError) {
      throw new WireDecodeError('invalid-params', `${method}: ${err.message}`, line, lineNumber);
    }
    throw err;
  }
  if (dropped.length === 0) return { method, params } as WireEvent;
  // A spread defines own properties, so a "__proto__" key stays an inert field in the copy too.
  const kept: Params = { ...params };
  for (const { key, problem } of dropped) {
    delete kept[key];
    if (problem !== undefined) {
      onDropped?.(new WireDecodeError('invalid-params', `${method}: dropped "${key}": ${problem}`, line, lineNumber));
    }
  }
  return { method, params: kept } as WireEvent;
}
