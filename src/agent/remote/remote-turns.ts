/**
 * The turns of one `RemoteAgent` run: what the open turn holds, how it joins the conversation, and how
 * the run ends (finished, cancelled or failed) with its closing `TurnEnd` and one `RunEnd`. The responses
 * of a run's requests are folded into these turns by `RemoteAgent`'s loop.
 */
import type { PagentError } from '../../errors.js';
import type { ParamsOf, StopReason, ToolCall, WireEvent } from '../../wire/events.js';
import type { AssistantMessage, ChatMessage, ToolMessage } from '../messages.js';
import type { Conversation } from '../sessions/conversation.js';

/** The result given to a call the run was cancelled in. */
export const CANCELLED_TOOL_TEXT = 'error: cancelled before the tool finished';
/** The result given to a call the back end left without one, so the history stays valid. */
export const NO_RESULT_TEXT = 'error: the back end gave no result for this call';

/** One run in flight: its turns as the events number them, and the open turn's pieces. */
export interface RunState {
  turn: number;
  turnOpen: boolean;
  /** Added to a response's own turn numbers (each response counts its turns from 0). */
  offset: number;
  /** The next response's first turn continues the open one (the back end answers questions about its calls). */
  merge: boolean;
  /** The last `TurnEnd` of the response, held until it is known whether the run goes on. */
  held: ParamsOf<'TurnEnd'> | undefined;
  text: string;
  reasoning: string;
  calls: ToolCall[];
  results: Map<string, ToolMessage>;
  /** The last finished turn's text and reasoning (`RunEnd`'s). */
  lastText: string;
  lastReasoning: string;
  ended: boolean;
  /** The conversation the run's turns join. */
  readonly conversation: Conversation;
  /** Calls whose result failed (`ok: false`), kept by the agent across runs. */
  readonly failedCalls: Set<string>;
}

/** A run before its first event. */
export const newRunState = (conversation: Conversation, failedCalls: Set<string>): RunState => ({
  turn: 0,
  turnOpen: false,
  offset: 0,
  merge: false,
  held: undefined,
  text: '',
  reasoning: '',
  calls: [],
  results: new Map(),
  lastText: '',
  lastReasoning: '',
  ended: false,
  conversation,
  failedCalls,
});

/**
 * The open turn as messages: the assistant message (text, reasoning, calls), then the result of each
 * call — `missing` for a call without one, or, with `missing` undefined, only the results there are.
 */
export function turnMessages(run: RunState, missing: string | undefined): ChatMessage[] {
  const { text, reasoning, calls, results } = run;
  if (text === '' && reasoning === '' && calls.length === 0) return [];
  const assistant: AssistantMessage = { role: 'assistant', content: calls.length > 0 && text === '' ? null : text };
  if (calls.length > 0) assistant.tool_calls = calls;
  if (reasoning !== '') assistant.reasoning_content = reasoning;
  const out: ChatMessage[] = [assistant];
  for (const call of calls) {
    const result = results.get(call.id) ?? (missing === undefined ? undefined : { role: 'tool' as const, tool_call_id: call.id, content: missing });
    if (result) out.push(result);
  }
  return out;
}

/** Records a tool result of the open turn (its name filled in from the call when the stream had none). */
export function recordResult(run: RunState, params: ParamsOf<'ToolResult'>): WireEvent {
  const call = run.calls.find((c) => c.id === params.tool_call_id);
  const result = call && params.name === '' ? { ...params, name: call.function.name } : params;
  if (call) {
    run.results.set(call.id, { role: 'tool', tool_call_id: call.id, content: result.content });
    if (result.ok === false) run.failedCalls.add(call.id);
  }
  return { method: 'ToolResult', params: result };
}

/** What a response said of its own end: its `RunEnd`, and whether it carried a `RunError`. */
export interface ResponseEnd {
  end: ParamsOf<'RunEnd'> | undefined;
  failed: boolean;
}

/**
 * Folds one event of a response into the run and yields what the run shows: turns are numbered across
 * the run's requests, a response's `TurnEnd` is held until it is known whether the run goes on, and its
 * `RunBegin` and `RunEnd` are kept back (the run has one of each).
 */
export function* foldEvent(run: RunState, event: WireEvent, response: ResponseEnd): Generator<WireEvent, void, undefined> {
  if (run.held && event.method !== 'RunEnd') yield* releaseTurnEnd(run);
  switch (event.method) {
    case 'RunBegin':
      return;
    case 'TurnBegin':
      if (run.merge && event.params.turn === 0) {
        run.merge = false;
        return;
      }
      run.merge = false;
      run.turn = run.offset + event.params.turn;
      run.turnOpen = true;
      yield { method: 'TurnBegin', params: { turn: run.turn } };
      return;
    case 'TurnEnd':
      run.held = event.params;
      return;
    case 'RunEnd':
      response.end = event.params;
      return;
    case 'RunError':
      response.failed = true;
      yield event;
      return;
    case 'TextDelta':
      run.text += event.params.text;
      yield event;
      return;
    case 'ReasoningDelta':
      run.reasoning += event.params.text;
      yield event;
      return;
    case 'ToolCallBegin':
      run.calls.push({ id: event.params.tool_call_id, type: 'function', function: { name: event.params.name, arguments: event.params.arguments } });
      yield event;
      return;
    case 'ToolResult':
      yield recordResult(run, event.params);
      return;
    default:
      yield event;
  }
}

/** Ends the open turn, if any, with the `TurnEnd` the response held, when the response went on after it. */
export function* releaseTurnEnd(run: RunState): Generator<WireEvent, void, undefined> {
  const held = run.held!;
  run.held = undefined;
  yield* closeTurn(run, held.stopped, held.stop_reason ?? 'continuing');
}

/** Ends the open turn, if any, while the run goes on: it joins the conversation and its `TurnEnd` is yielded. */
export function* closeTurn(run: RunState, stopped: boolean, stopReason: StopReason): Generator<WireEvent, void, undefined> {
  if (!run.turnOpen) return;
  commitTurn(run, NO_RESULT_TEXT);
  run.turnOpen = false;
  yield { method: 'TurnEnd', params: { turn: run.turn, stopped, stop_reason: stopReason } };
}

/**
 * Adds the open turn to the conversation: the assistant message (text, reasoning, calls) and a result
 * for each call — `missing` for a call without one, so the history stays valid for the next request.
 */
export function commitTurn(run: RunState, missing: string): void {
  for (const message of turnMessages(run, missing)) run.conversation.add(message);
  run.lastText = run.text;
  run.lastReasoning = run.reasoning;
  run.text = '';
  run.reasoning = '';
  run.calls = [];
  run.results = new Map();
}

/** A `MESSAGES_SNAPSHOT` replaces the conversation when it differs from it (no turn may be open). */
export function applySnapshot(run: RunState, snapshot: ChatMessage[] | undefined): void {
  if (!snapshot || run.calls.length > 0 || run.text !== '' || run.reasoning !== '') return;
  if (JSON.stringify(snapshot) !== JSON.stringify(run.conversation.session.messages)) run.conversation.replace(snapshot);
}

/**
 * Ends the run with `stopReason` once the open turn joined the conversation (`missing`: the result of
 * its calls left without one) and the back end's last `MESSAGES_SNAPSHOT`, if any, was applied.
 */
export function* endFinished(run: RunState, stopReason: StopReason, snapshot: ChatMessage[] | undefined, missing = NO_RESULT_TEXT): Generator<WireEvent, void, undefined> {
  commitTurn(run, missing);
  applySnapshot(run, snapshot);
  run.conversation.save();
  if (run.turnOpen) {
    run.turnOpen = false;
    yield { method: 'TurnEnd', params: { turn: run.turn, stopped: true, stop_reason: stopReason } };
  }
  run.held = undefined;
  run.ended = true;
  yield { method: 'RunEnd', params: { content: run.lastText, tool_calls: [], reasoning_content: run.lastReasoning, usage: null, stop_reason: stopReason, turn: run.turn } };
}

/** Ends a cancelled run: the open turn is kept as it stood, its calls without a result marked cancelled. */
export function endCancelled(run: RunState): Generator<WireEvent, void, undefined> {
  return endFinished(run, 'cancelled', undefined, CANCELLED_TOOL_TEXT);
}

/** Ends a failed run (its `RunError` already yielded, unless `error` is given): the open turn is dropped. */
export function* endFailed(run: RunState, error?: PagentError): Generator<WireEvent, void, undefined> {
  if (error) yield { method: 'RunError', params: { message: error.message, code: error.code, where: error.where ?? 'remote' } };
  const content = run.text;
  const reasoning = run.reasoning;
  run.text = '';
  run.reasoning = '';
  run.calls = [];
  run.results = new Map();
  run.conversation.failed();
  if (run.turnOpen) {
    run.turnOpen = false;
    yield { method: 'TurnEnd', params: { turn: run.turn, stopped: true, stop_reason: 'error' } };
  }
  run.held = undefined;
  run.ended = true;
  yield { method: 'RunEnd', params: { content, tool_calls: [], reasoning_content: reasoning, usage: null, stop_reason: 'error', turn: run.turn } };
}
