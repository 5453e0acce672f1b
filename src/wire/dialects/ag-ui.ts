/**
 * AG-UI (`{"type": "RUN_STARTED", ...}` events, usually over SSE `data:` lines), normalised into pagent's
 * events as docs/wire.md#ag-ui specifies.
 */
import type { StopReason, UnknownEvent, WireEvent } from '../events.js';
import type { DialectDecoder, WireDecodeErrorClass } from './index.js';
import { invalid, isObject, optStr, parseTyped, str, unknownOf } from './typed-document.js';

type Out = Array<WireEvent | UnknownEvent>;

/** A stream being assembled from `*_CHUNK` events: at most one per owner (the run, or one subagent). */
type Lane = { kind: 'text' | 'reasoning'; id: string } | { kind: 'tool'; id: string };

/** A tool call between its start and its end. */
interface PendingCall {
  name: string;
  args: string[];
  parent: string | undefined;
}

/**
 * Events that do not close a chunk lane (the same list as `@ag-ui/client`'s chunk expansion): every
 * other event ends the chunked message or call of its owner first.
 */
const LANE_NEUTRAL = new Set(['RAW', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA', 'REASONING_ENCRYPTED_VALUE', 'SUBAGENT_STARTED']);

/** Structural events with nothing to show: they map to no event at all. */
const SILENT = new Set([
  'TEXT_MESSAGE_END',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_END',
  'REASONING_END',
  'THINKING_START',
  'THINKING_END',
  'THINKING_TEXT_MESSAGE_START',
  'THINKING_TEXT_MESSAGE_END',
]);

/**
 * Creates a decoder for AG-UI events, one document at a time.
 *
 * - `RUN_STARTED` opens a run: `RunBegin{user_input: ""}` + `TurnBegin{turn: 0}`; any other mapped event
 *   outside a run opens one the same way.
 * - `TEXT_MESSAGE_CONTENT` / `TEXT_MESSAGE_CHUNK` → `TextDelta` (messages whose `role` is not
 *   `assistant` are unknown events); `REASONING_MESSAGE_CONTENT` / `REASONING_MESSAGE_CHUNK` and the
 *   older `THINKING_TEXT_MESSAGE_CONTENT` → `ReasoningDelta`. Empty deltas map to nothing.
 * - `TOOL_CALL_START` … `TOOL_CALL_ARGS` … `TOOL_CALL_END` → one `ToolCallBegin` at the end, with the
 *   joined arguments (`""` when none came) and the protocol's `toolCallId`. A call still open when its
 *   result or the run's end arrives is begun then.
 * - `*_CHUNK` events follow `@ag-ui/client`: a chunk without an id continues the open message or call of
 *   its owner (`subagentRunId`); a chunk with another id, and any other event of that owner (except
 *   `RAW`, `ACTIVITY_*`, `REASONING_ENCRYPTED_VALUE`, `SUBAGENT_STARTED`), ends it first. A chunked
 *   call's `ToolCallBegin` comes when it ends. The first chunk of a call needs `toolCallId` and
 *   `toolCallName`.
 * - `TOOL_CALL_RESULT` → `ToolResult{ok: true}` (AG-UI has no failure flag), `name` from its call (`""`
 *   when the call was never seen), content parts flattened to their text.
 * - The first text, reasoning or tool call after a tool result closes the turn
 *   (`TurnEnd{stopped: false, stop_reason: "continuing"}`) and opens the next one — except a tool call
 *   whose `parentMessageId` is an assistant message of the current turn (its text, or the parent of an
 *   earlier call): servers that run calls one by one begin the next call of the same message after the
 *   previous result.
 * - `RUN_FINISHED` → `TurnEnd{stopped: true}` + `RunEnd` (text since the last tool result, the turn's
 *   reasoning, no tool calls, `usage: null`). `stop_reason`: `"cancelled"` for outcome `cancelled`,
 *   `"interrupted"` for outcome `interrupt`, else `"no_tool_calls"`. A `RUN_FINISHED` that carries a
 *   `result` or interrupts is also delivered as an unknown event first, so a page can resume.
 * - `RUN_ERROR` → `RunError{code: "provider", message}` + `TurnEnd{stopped: true}` + `RunEnd`, both
 *   with `stop_reason: "error"`.
 * - `STEP_*` are framework steps, not turns: they are unknown events, as are `STATE_*`,
 *   `MESSAGES_SNAPSHOT`, `ACTIVITY_*`, `CUSTOM`, `RAW`, `SUBAGENT_*`, `REASONING_ENCRYPTED_VALUE` and
 *   any type this version does not know (params: the document without `type`). Unknown events neither
 *   open nor close a run.
 *
 * @throws {WireDecodeError} from `decode` for invalid JSON (`invalid-json`), a non-object or a document
 * without a string `type` (`not-an-event`), or a mistyped field (`invalid-params`).
 */
export function createAgUiDialect(DecodeError: WireDecodeErrorClass): DialectDecoder {
  let open = false;
  let turn = 0;
  let afterResult = false;
  let content = '';
  let reasoning = '';
  /** Messages whose role is not `assistant`: their text is not the answer. */
  const foreign = new Set<string>();
  const pending = new Map<string, PendingCall>();
  const names = new Map<string, string>();
  const lanes = new Map<string | undefined, Lane>();
  /** The assistant messages of the turn: a call whose `parentMessageId` names one stays in the turn. */
  const turnMessages = new Set<string>();

  const reset = (): void => {
    open = false;
    turn = 0;
    afterResult = false;
    content = '';
    reasoning = '';
    foreign.clear();
    pending.clear();
    names.clear();
    lanes.clear();
    turnMessages.clear();
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
    turnMessages.clear();
  };

  const text = (out: Out, delta: string, messageId: string): void => {
    if (delta === '') return;
    beginModelOutput(out);
    turnMessages.add(messageId);
    content += delta;
    out.push({ method: 'TextDelta', params: { text: delta } });
  };

  const think = (out: Out, delta: string): void => {
    if (delta === '') return;
    beginModelOutput(out);
    reasoning += delta;
    out.push({ method: 'ReasoningDelta', params: { text: delta } });
  };

  /** Ends a pending call: its `ToolCallBegin`, with the arguments joined. */
  const beginCall = (out: Out, id: string): void => {
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    // a call of the turn's assistant message (parallel calls begun one by one, between results) stays in the turn
    if (call.parent !== undefined && turnMessages.has(call.parent)) ensureRun(out);
    else beginModelOutput(out);
    if (call.parent !== undefined) turnMessages.add(call.parent);
    names.set(id, call.name);
    out.push({ method: 'ToolCallBegin', params: { tool_call_id: id, name: call.name, arguments: call.args.join('') } });
  };

  const closeLane = (out: Out, owner: string | undefined): void => {
    const lane = lanes.get(owner);
    if (!lane) return;
    lanes.delete(owner);
    if (lane.kind === 'tool') beginCall(out, lane.id);
  };

  const closeAll = (out: Out): void => {
    for (const owner of [...lanes.keys()]) closeLane(out, owner);
    for (const id of [...pending.keys()]) beginCall(out, id);
  };

  const end = (out: Out, stopReason: StopReason, error?: string): void => {
    ensureRun(out);
    if (error !== undefined) out.push({ method: 'RunError', params: { message: error, code: 'provider' } });
    out.push(
      { method: 'TurnEnd', params: { turn, stopped: true, stop_reason: stopReason } },
      {
        method: 'RunEnd',
        params: { content, tool_calls: [], reasoning_content: reasoning, usage: null, turn, stop_reason: stopReason },
      },
    );
    reset();
  };

  const decode = (raw: string, lineNumber: number): Out => {
    const p = parseTyped(raw, lineNumber, 'AG-UI event', DecodeError);
    const { doc, type } = p;
    const out: Out = [];
    const owner = optStr(p, 'subagentRunId');
    if (type === 'RUN_STARTED' || type === 'RUN_FINISHED' || type === 'RUN_ERROR') {
      if (type !== 'RUN_STARTED') closeAll(out);
    } else if (!LANE_NEUTRAL.has(type) && !type.endsWith('_CHUNK')) {
      closeLane(out, owner);
    }

    switch (type) {
      case 'RUN_STARTED':
        reset();
        open = true;
        out.push({ method: 'RunBegin', params: { user_input: '' } }, { method: 'TurnBegin', params: { turn: 0 } });
        return out;
      case 'RUN_FINISHED': {
        const outcome = doc['outcome'];
        const kind = isObject(outcome) ? outcome['type'] : undefined;
        if (kind === 'interrupt' || (doc['result'] !== undefined && doc['result'] !== null)) {
          ensureRun(out);
          out.push(unknownOf(p));
        }
        end(out, kind === 'cancelled' ? 'cancelled' : kind === 'interrupt' ? 'interrupted' : 'no_tool_calls');
        return out;
      }
      case 'RUN_ERROR': {
        const message = optStr(p, 'message');
        end(out, 'error', message === undefined || message === '' ? 'The AG-UI agent reported an error' : message);
        return out;
      }
      case 'TEXT_MESSAGE_START': {
        const id = str(p, 'messageId');
        const role = optStr(p, 'role');
        if (role !== undefined && role !== 'assistant') foreign.add(id);
        return out;
      }
      case 'TEXT_MESSAGE_CONTENT': {
        const id = str(p, 'messageId');
        const delta = str(p, 'delta');
        if (foreign.has(id)) out.push(unknownOf(p));
        else text(out, delta, id);
        return out;
      }
      case 'TEXT_MESSAGE_CHUNK':
      case 'REASONING_MESSAGE_CHUNK': {
        const kind = type === 'TEXT_MESSAGE_CHUNK' ? 'text' : 'reasoning';
        const id = optStr(p, 'messageId');
        const delta = optStr(p, 'delta') ?? '';
        const lane = lanes.get(owner);
        if (!(lane?.kind === kind && (id === undefined || id === lane.id))) {
          closeLane(out, owner);
          const role = kind === 'text' ? optStr(p, 'role') : undefined;
          const laneId = id ?? `${kind}-${lineNumber}`;
          if (role !== undefined && role !== 'assistant') foreign.add(laneId);
          lanes.set(owner, { kind, id: laneId });
        }
        const laneId = lanes.get(owner)!.id;
        if (foreign.has(laneId)) out.push(unknownOf(p));
        else if (kind === 'text') text(out, delta, laneId);
        else think(out, delta);
        return out;
      }
      case 'REASONING_MESSAGE_CONTENT':
      case 'THINKING_TEXT_MESSAGE_CONTENT':
        think(out, str(p, 'delta'));
        return out;
      case 'TOOL_CALL_START': {
        const id = str(p, 'toolCallId');
        pending.set(id, { name: str(p, 'toolCallName'), args: [], parent: optStr(p, 'parentMessageId') });
        return out;
      }
      case 'TOOL_CALL_ARGS': {
        const id = str(p, 'toolCallId');
        const delta = str(p, 'delta');
        pending.get(id)?.args.push(delta);
        return out;
      }
      case 'TOOL_CALL_END':
        beginCall(out, str(p, 'toolCallId'));
        return out;
      case 'TOOL_CALL_CHUNK': {
        const id = optStr(p, 'toolCallId');
        const delta = optStr(p, 'delta');
        const lane = lanes.get(owner);
        if (!(lane?.kind === 'tool' && (id === undefined || id === lane.id))) {
          if (id === undefined) throw invalid(p, 'the first chunk of a tool call needs "toolCallId"');
          const name = optStr(p, 'toolCallName');
          if (name === undefined) throw invalid(p, 'the first chunk of a tool call needs "toolCallName"');
          const parent = optStr(p, 'parentMessageId');
          closeLane(out, owner);
          pending.set(id, { name, args: [], parent });
          lanes.set(owner, { kind: 'tool', id });
        }
        if (delta !== undefined) pending.get(lanes.get(owner)!.id)?.args.push(delta);
        return out;
      }
      case 'TOOL_CALL_RESULT': {
        const id = str(p, 'toolCallId');
        const result = doc['content'];
        let body: string;
        if (typeof result === 'string') body = result;
        else if (Array.isArray(result)) {
          body = result.map((part: unknown) => (isObject(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : '')).join('');
        } else throw invalid(p, '"content" must be a string or an array of content parts');
        beginCall(out, id);
        ensureRun(out);
        out.push({ method: 'ToolResult', params: { tool_call_id: id, name: names.get(id) ?? '', content: body, ok: true } });
        content = '';
        afterResult = true;
        return out;
      }
      default:
        if (SILENT.has(type)) return out;
        out.push(unknownOf(p));
        return out;
    }
  };

  return { decode, reset };
}
