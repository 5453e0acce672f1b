/**
 * The AI SDK UI message stream (`{"type": "text-delta", ...}` parts over SSE, ended by `[DONE]`), the
 * protocol of every `useChat` back end, normalised into pagent's events as docs/wire.md#ai-sdk-ui-message-stream specifies.
 */
import type { StopReason, TurnEnd, UnknownEvent, WireEvent } from '../events.js';
import type { DialectDecoder, WireDecodeErrorClass } from './index.js';
import { parseTyped, str, unknownOf } from './typed-document.js';

type Out = Array<WireEvent | UnknownEvent>;

/** Parts that only delimit a text, reasoning or tool input: they map to no event. */
const SILENT = new Set(['text-start', 'text-end', 'reasoning-start', 'reasoning-end', 'tool-input-delta']);

/** Parts mapped to events. */
const MAPPED = new Set([
  'start',
  'start-step',
  'finish-step',
  'finish',
  'abort',
  'error',
  'text-delta',
  'reasoning-delta',
  'tool-input-start',
  'tool-input-available',
  'tool-input-error',
  'tool-output-available',
  'tool-output-error',
  'tool-output-denied',
]);

/**
 * Creates a decoder for the AI SDK UI message stream, one part at a time. One response is one run.
 *
 * - `start` opens a run (`RunBegin{user_input: ""}`); a `start` inside an open run (streams merged on the
 *   server each send one) continues it. Content before any `start` (a server that sets `sendStart:
 *   false`) opens the run as in docs/wire.md#runs-and-the-termination-contract, and a later `start` joins it; after `finish` or `abort` only a
 *   `start` opens a run: other parts are unknown events.
 * - `start-step` → `TurnBegin` (turns count from 0); `finish-step` → `TurnEnd`, held until the next part
 *   tells whether the run goes on (`stopped: false, stop_reason: "continuing"` before the next
 *   `start-step`) or ends (`stopped: true` before `RunEnd`). Content outside a step opens a turn.
 * - `text-delta` → `TextDelta`, `reasoning-delta` → `ReasoningDelta` (empty deltas map to nothing).
 * - `tool-input-available` → `ToolCallBegin` with the `toolCallId` and the input JSON-stringified
 *   (`"{}"` when absent); streamed input (`tool-input-start`/`-delta`) shows nothing until then, and a
 *   result of a call that only had its `tool-input-start` comes without a `ToolCallBegin`.
 * - `tool-input-error` → `ToolCallBegin` (a string input is taken as the raw argument text) then
 *   `ToolResult{ok: false, content: errorText}`; the `tool-output-error` the SDK sends after it for the
 *   same call is not a second result.
 * - `tool-output-available` → `ToolResult{ok: true}` (non-string output JSON-stringified); preliminary
 *   outputs are not results. `tool-output-error` → `ToolResult{ok: false, content: errorText}`;
 *   `tool-output-denied` → `ToolResult{ok: false, content: "<name> error: denied by the user"}`.
 * - `error` → `RunError{code: "provider", message: errorText}`. It is not terminal (the SDK streams on
 *   after it): the decoder core holds it until the run closes, and a run cut after it (`[DONE]` without
 *   `finish`) ends with that error, not a truncated one.
 * - `abort` → `TurnEnd` (when a turn is open) + `RunEnd{stop_reason: "cancelled"}`.
 * - `finish` → `TurnEnd{stopped: true}` (when a turn is open) + `RunEnd` (the last turn's text and
 *   reasoning, no tool calls, `usage: null`). `stop_reason`: `"error"` when the run carried an `error`,
 *   else `"no_tool_calls"` for `finishReason` `stop` (or none), else the `finishReason` as sent.
 * - `data-*`, `source-*`, `file`, `message-metadata`, `tool-approval-request` and parts this version does
 *   not know are unknown events (params: the part without `type`); they neither open nor close a run.
 *
 * @throws {WireDecodeError} from `decode` for invalid JSON (`invalid-json`), a non-object or a part
 * without a string `type` (`not-an-event`), or a mistyped field (`invalid-params`).
 */
export function createAiSdkDialect(DecodeError: WireDecodeErrorClass): DialectDecoder {
  let open = false;
  /** A run ended in this stream and no `start` has come since: parts open no run. */
  let ended = false;
  let turnOpen = false;
  let turn = -1;
  /** The `TurnEnd` of a `finish-step`, waiting to learn whether the run goes on. */
  let heldTurnEnd: TurnEnd | undefined;
  let content = '';
  let reasoning = '';
  let failed = false;
  const names = new Map<string, string>();
  const begun = new Set<string>();
  const answered = new Set<string>();

  const reset = (): void => {
    open = false;
    turnOpen = false;
    turn = -1;
    heldTurnEnd = undefined;
    content = '';
    reasoning = '';
    failed = false;
    names.clear();
    begun.clear();
    answered.clear();
  };

  const openRun = (out: Out): void => {
    reset();
    open = true;
    ended = false;
    out.push({ method: 'RunBegin', params: { user_input: '' } });
  };

  /** A `finish-step` followed by more of the run: its turn went on. */
  const releaseTurnEnd = (out: Out): void => {
    if (!heldTurnEnd) return;
    out.push(heldTurnEnd);
    heldTurnEnd = undefined;
  };

  const beginTurn = (out: Out): void => {
    releaseTurnEnd(out);
    if (turnOpen) out.push({ method: 'TurnEnd', params: { turn, stopped: false, stop_reason: 'continuing' } });
    turn += 1;
    turnOpen = true;
    content = '';
    reasoning = '';
    out.push({ method: 'TurnBegin', params: { turn } });
  };

  /** Opens the run and a turn as needed before content. */
  const ensureTurn = (out: Out): void => {
    if (!open) openRun(out);
    if (!turnOpen) beginTurn(out);
  };

  const close = (out: Out, stopReason: StopReason): void => {
    if (heldTurnEnd) {
      out.push({ method: 'TurnEnd', params: { turn: heldTurnEnd.params.turn, stopped: true, stop_reason: stopReason } });
      heldTurnEnd = undefined;
    } else if (turnOpen) {
      out.push({ method: 'TurnEnd', params: { turn, stopped: true, stop_reason: stopReason } });
    }
    const params: WireEvent & { method: 'RunEnd' } = {
      method: 'RunEnd',
      params: { content, tool_calls: [], reasoning_content: reasoning, usage: null, stop_reason: stopReason },
    };
    if (turn >= 0) params.params.turn = turn;
    out.push(params);
    reset();
    ended = true;
  };

  const decode = (raw: string, lineNumber: number): Out => {
    const p = parseTyped(raw, lineNumber, 'UI message part', DecodeError);
    const { doc, type } = p;
    if (!MAPPED.has(type) && !SILENT.has(type)) return [unknownOf(p)];
    if (!open && ended && type !== 'start') return [unknownOf(p)];

    const out: Out = [];
    switch (type) {
      case 'start':
        if (!open) openRun(out);
        return out;
      case 'start-step':
        if (!open) openRun(out);
        beginTurn(out);
        return out;
      case 'finish-step':
        if (!open) openRun(out);
        releaseTurnEnd(out);
        if (turnOpen) {
          heldTurnEnd = { method: 'TurnEnd', params: { turn, stopped: false, stop_reason: 'continuing' } };
          turnOpen = false;
        }
        return out;
      case 'finish': {
        const reason = doc['finishReason'];
        if (!open) openRun(out);
        close(out, failed ? 'error' : typeof reason === 'string' && reason !== 'stop' ? reason : 'no_tool_calls');
        return out;
      }
      case 'abort':
        if (!open) openRun(out);
        close(out, failed ? 'error' : 'cancelled');
        return out;
      case 'error': {
        const message = str(p, 'errorText');
        if (!open) openRun(out);
        failed = true;
        out.push({ method: 'RunError', params: { message: message === '' ? 'The AI SDK stream reported an error' : message, code: 'provider' } });
        return out;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const delta = str(p, 'delta');
        if (delta === '') return out;
        ensureTurn(out);
        if (type === 'text-delta') {
          content += delta;
          out.push({ method: 'TextDelta', params: { text: delta } });
        } else {
          reasoning += delta;
          out.push({ method: 'ReasoningDelta', params: { text: delta } });
        }
        return out;
      }
      case 'tool-input-available':
      case 'tool-input-error': {
        const id = str(p, 'toolCallId');
        const name = str(p, 'toolName');
        const input = doc['input'];
        const errorText = type === 'tool-input-error' ? str(p, 'errorText') : undefined;
        ensureTurn(out);
        names.set(id, name);
        if (!begun.has(id)) {
          begun.add(id);
          const args = input === undefined ? '{}' : typeof input === 'string' && errorText !== undefined ? input : JSON.stringify(input);
          out.push({ method: 'ToolCallBegin', params: { tool_call_id: id, name, arguments: args } });
        }
        if (errorText !== undefined) result(out, id, errorText, false);
        return out;
      }
      case 'tool-output-available': {
        const id = str(p, 'toolCallId');
        if (doc['preliminary'] === true) return out;
        const output = doc['output'];
        result(out, id, typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null'), true);
        return out;
      }
      case 'tool-output-error':
        result(out, str(p, 'toolCallId'), str(p, 'errorText'), false);
        return out;
      case 'tool-output-denied': {
        const id = str(p, 'toolCallId');
        result(out, id, `${names.get(id) ?? 'tool'} error: denied by the user`, false);
        return out;
      }
      case 'tool-input-start': {
        // no event yet, but a result that follows without an input (a call begun elsewhere) gets its name
        const id = str(p, 'toolCallId');
        if (!names.has(id)) names.set(id, str(p, 'toolName'));
        return out;
      }
      default:
        return out;
    }
  };

  /** One `ToolResult` per call: a second result for an answered call is not delivered. */
  function result(out: Out, id: string, body: string, ok: boolean): void {
    if (answered.has(id)) return;
    ensureTurn(out);
    answered.add(id);
    out.push({ method: 'ToolResult', params: { tool_call_id: id, name: names.get(id) ?? '', content: body, ok } });
  }

  return { decode, reset };
}
