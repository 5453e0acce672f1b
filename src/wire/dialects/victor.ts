/**
 * Victor "wire events v1" (`{"v": 1, "event": ...}` documents, over SSE `data:` lines or JSONL),
 * normalised into pagent's events as docs/wire.md#victor-wire-v1 specifies.
 */
import type { WireDecodeError } from '../../errors.js';
import type { ToolResult, UnknownEvent, WireEvent } from '../events.js';
import type { DialectDecoder, WireDecodeErrorClass } from './index.js';

type Doc = Record<string, unknown>;
type Out = Array<WireEvent | UnknownEvent>;

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (doc: Doc, key: string): boolean => Object.hasOwn(doc, key);

/**
 * Creates a decoder for Victor wire events v1, one document at a time.
 *
 * - A run opens with a synthetic `RunBegin{user_input: ""}` and `TurnBegin{turn: 0}` at its first event.
 * - `content` → `TextDelta`, `thinking` → `ReasoningDelta`.
 * - `tool_call` → `ToolCallBegin` with `arguments` as compact JSON (`"{}"` when absent; a string is taken
 *   as JSON text already) and `tool_call_id` = `call_id`, or `victor-<n>` where n counts the run's calls
 *   from 1. A `tool_result` without `call_id` takes the id of the oldest unanswered call to the same tool.
 * - `tool_result` → `ToolResult` (`ok` = `success`, non-string `result` JSON-stringified, `elapsed_ms`,
 *   `truncated` when sent; `null` reads as absent, and a mistyped one is left out and reported to
 *   `onDropped`, the result kept — docs/wire.md#bad-input). A result whose call was never seen keeps its own `call_id`, or gets
 *   `victor-unmatched-<k>` (k counts such results in the run from 1).
 * - The first `content`/`thinking`/`tool_call` after a `tool_result` closes the turn with
 *   `TurnEnd{stopped: false, stop_reason: "continuing"}` and opens the next one.
 * - `error` → `RunError{code: "provider"}` where it arrives; the run stays open (Victor ends it with
 *   `stream_end`), so text and tools sent after an error are still delivered. The decoder core holds the
 *   `RunError` and delivers it right before the run's closing `TurnEnd` (docs/wire.md#runs-and-the-termination-contract), or at EOF/stall/
 *   abort in place of a `truncated`/`timeout` one; a second `error` in the run joins its message to the
 *   first's.
 * - `stream_end` → `TurnEnd{stopped: true}` + `RunEnd` (content since the last tool result, the turn's
 *   reasoning, no tool calls, `usage: null`); `stop_reason` is `"error"` when the run carried an `error`,
 *   else `"no_tool_calls"`. A `stream_end` outside a run yields a whole empty run.
 * - Every other event (`member_*`, `usage`, …) comes back as an `UnknownEvent` whose params are the
 *   document without `v`/`event`; it neither opens nor closes a run.
 * - The legacy pre-v1 shape `{"type": <event>, ...}` (no `v`) is read the same way.
 *
 * @throws {WireDecodeError} from `decode` for invalid JSON (`invalid-json`), a non-object, a `v` other than
 * 1 or a document without an event name (`not-an-event`), or a mistyped required field or `call_id`
 * (`invalid-params`).
 */
export function createVictorDialect(DecodeError: WireDecodeErrorClass): DialectDecoder {
  let open = false;
  let turn = 0;
  let afterResult = false;
  let content = '';
  let reasoning = '';
  let calls = 0;
  let unmatched = 0;
  let failed = false;
  const pending = new Map<string, string[]>();

  const reset = (): void => {
    open = false;
    turn = 0;
    afterResult = false;
    content = '';
    reasoning = '';
    calls = 0;
    unmatched = 0;
    failed = false;
    pending.clear();
  };

  const ensureRun = (out: Out): void => {
    if (open) return;
    reset();
    open = true;
    out.push({ method: 'RunBegin', params: { user_input: '' } }, { method: 'TurnBegin', params: { turn: 0 } });
  };

  /** Opens the run if needed and starts a new turn when the model speaks again after tool results. */
  const beginModelOutput = (out: Out): void => {
    ensureRun(out);
    if (!afterResult) return;
    out.push(
      { method: 'TurnEnd', params: { turn, stopped: false, stop_reason: 'continuing' } },
      { method: 'TurnBegin', params: { turn: turn + 1 } },
    );
    turn += 1;
    afterResult = false;
    reasoning = '';
  };

  const decode = (text: string, lineNumber: number, onDropped?: (err: WireDecodeError) => void): Out => {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new DecodeError('invalid-json', `Invalid JSON: ${(err as Error).message}`, text, lineNumber, err);
    }
    if (!isObject(doc)) throw new DecodeError('not-an-event', 'Not a JSON object', text, lineNumber);

    const nameKey = has(doc, 'v') ? 'event' : 'type';
    if (nameKey === 'event' && doc['v'] !== 1) {
      throw new DecodeError('not-an-event', `Unsupported Victor wire version ${JSON.stringify(doc['v'])}`, text, lineNumber);
    }
    const event = doc[nameKey];
    if (typeof event !== 'string') {
      throw new DecodeError('not-an-event', `Victor document without a string "${nameKey}"`, text, lineNumber);
    }
    const invalid = (message: string): WireDecodeError =>
      new DecodeError('invalid-params', `${event}: ${message}`, text, lineNumber);
    const str = (key: string): string => {
      const value = doc[key];
      if (typeof value !== 'string') throw invalid(`"${key}" must be a string`);
      return value;
    };

    const out: Out = [];
    switch (event) {
      case 'content':
      case 'thinking': {
        const delta = str('content');
        beginModelOutput(out);
        if (event === 'content') {
          content += delta;
          out.push({ method: 'TextDelta', params: { text: delta } });
        } else {
          reasoning += delta;
          out.push({ method: 'ReasoningDelta', params: { text: delta } });
        }
        return out;
      }
      case 'tool_call': {
        const name = str('tool');
        const callId = optionalString(doc, 'call_id', invalid);
        const args = doc['arguments'];
        const argumentsText = args === undefined ? '{}' : typeof args === 'string' ? args : JSON.stringify(args);
        beginModelOutput(out);
        calls += 1;
        const id = callId ?? `victor-${calls}`;
        const queue = pending.get(name);
        if (queue) queue.push(id);
        else pending.set(name, [id]);
        out.push({ method: 'ToolCallBegin', params: { tool_call_id: id, name, arguments: argumentsText } });
        return out;
      }
      case 'tool_result': {
        const name = str('tool');
        const success = doc['success'];
        if (typeof success !== 'boolean') throw invalid('"success" must be a boolean');
        const callId = optionalString(doc, 'call_id', invalid);
        // optional fields: null is absent; a mistyped one is left out and reported (docs/wire.md#bad-input)
        const dropOptional = (key: string, type: 'number' | 'boolean'): unknown => {
          const value = doc[key];
          if (value === undefined || value === null) return undefined;
          if (typeof value === type && (type !== 'number' || Number.isFinite(value))) return value;
          onDropped?.(new DecodeError('invalid-params', `${event}: dropped "${key}": must be a ${type}`, text, lineNumber));
          return undefined;
        };
        const elapsed = dropOptional('elapsed_ms', 'number');
        const truncated = dropOptional('truncated', 'boolean');
        const result = doc['result'];
        ensureRun(out);
        const queue = pending.get(name);
        let id: string;
        if (callId !== undefined) {
          id = callId;
          const at = queue?.indexOf(callId) ?? -1;
          if (queue && at >= 0) queue.splice(at, 1);
        } else {
          id = queue?.shift() ?? `victor-unmatched-${(unmatched += 1)}`;
        }
        const params: ToolResult['params'] = {
          tool_call_id: id,
          name,
          content: typeof result === 'string' ? result : result === undefined ? '' : JSON.stringify(result),
          ok: success,
        };
        if (typeof elapsed === 'number') params.elapsed_ms = elapsed;
        if (typeof truncated === 'boolean') params.truncated = truncated;
        out.push({ method: 'ToolResult', params });
        content = '';
        afterResult = true;
        return out;
      }
      case 'error': {
        const message = doc['message'];
        ensureRun(out);
        failed = true;
        out.push({
          method: 'RunError',
          params: { message: typeof message === 'string' && message !== '' ? message : 'Victor reported an error', code: 'provider' },
        });
        return out;
      }
      case 'stream_end': {
        ensureRun(out);
        const stopReason = failed ? 'error' : 'no_tool_calls';
        out.push(
          { method: 'TurnEnd', params: { turn, stopped: true, stop_reason: stopReason } },
          {
            method: 'RunEnd',
            params: { content, tool_calls: [], reasoning_content: reasoning, usage: null, turn, stop_reason: stopReason },
          },
        );
        reset();
        return out;
      }
      default: {
        // fromEntries defines own properties, so a "__proto__" key stays an inert field.
        const params = Object.fromEntries(Object.entries(doc).filter(([key]) => key !== 'v' && key !== nameKey));
        out.push({ method: event, params, unknown: true });
        return out;
      }
    }
  };

  return { decode, reset };
}

function optionalString(doc: Doc, key: string, invalid: (message: string) => WireDecodeError): string | undefined {
  const value = doc[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`"${key}" must be a string`);
  return value;
}
