/**
 * The turns of one `Agent` run: what the run holds while the model streams and its tools run, how a
 * turn joins the conversation, and how a cut run ends — cancelled (its partial answer and half tool turn
 * kept, so the next request is valid) or failed (its turn dropped) — with one `RunEnd`.
 */
import { PagentError, errorMessage } from '../errors.js';
import { emptyStep, type ParamsOf, type StepSummary, type ToolCall, type WireEvent } from '../wire/events.js';
import type { AgentModelStep } from './agent-options.js';
import type { AssistantMessage, ToolMessage } from './messages.js';
import type { Conversation } from './sessions/conversation.js';

/** The result given to a call the run was cancelled in. */
const CANCELLED_TOOL_TEXT = 'error: cancelled before the tool finished';

/** A tool turn while its calls run: the assistant message and the results so far. */
export interface PendingTurn {
  assistant: AssistantMessage;
  calls: ToolCall[];
  results: Map<string, ToolMessage>;
}

/** One run in flight: its turn, what the model has streamed of it, and the tool turn not yet in the conversation. */
export interface RunState {
  turn: number;
  turnOpen: boolean;
  streaming: boolean;
  partialText: string;
  partialReasoning: string;
  lastStep: StepSummary | undefined;
  pending: PendingTurn | undefined;
  ended: boolean;
  /** The conversation the run's turns join. */
  readonly conversation: Conversation;
}

/** A run before its first event. */
export const newRunState = (conversation: Conversation): RunState => ({
  turn: 0,
  turnOpen: false,
  streaming: false,
  partialText: '',
  partialReasoning: '',
  lastStep: undefined,
  pending: undefined,
  ended: false,
  conversation,
});

/** The assistant message of a finished step. */
export function assistantMessage(step: AgentModelStep): AssistantMessage {
  const message: AssistantMessage = {
    role: 'assistant',
    content: step.tool_calls.length > 0 && step.content === '' ? null : step.content,
  };
  if (step.tool_calls.length > 0) message.tool_calls = step.tool_calls;
  if (step.reasoning_content !== '') message.reasoning_content = step.reasoning_content;
  if (step.reasoning_blocks) message.reasoning_blocks = step.reasoning_blocks;
  return message;
}

function toPagentError(err: unknown): PagentError {
  if (err instanceof PagentError) return err;
  const message = errorMessage(err);
  return new PagentError(message || 'The model request failed', { code: 'provider', where: 'llm', cause: err });
}

export function commitPending(run: RunState): void {
  const pending = run.pending;
  if (!pending) return;
  run.pending = undefined;
  const results = pending.calls.map(
    (call) => pending.results.get(call.id) ?? { role: 'tool' as const, tool_call_id: call.id, content: CANCELLED_TOOL_TEXT },
  );
  run.conversation.add(pending.assistant);
  for (const result of results) run.conversation.add(result);
}

/** A cut run keeps a valid session: the half tool turn is completed, a partial answer is kept. */
export function completeHalfTurn(run: RunState): void {
  if (run.pending) commitPending(run);
  else if (run.streaming && run.partialText !== '') {
    const message: AssistantMessage = { role: 'assistant', content: run.partialText };
    if (run.partialReasoning !== '') message.reasoning_content = run.partialReasoning;
    run.conversation.add(message);
  }
  run.streaming = false;
}

function cutSummary(run: RunState, streaming: boolean): StepSummary {
  if (streaming) return { content: run.partialText, tool_calls: [], reasoning_content: run.partialReasoning, usage: null };
  return run.lastStep ?? emptyStep();
}

export async function* endCancelled(run: RunState): AsyncGenerator<WireEvent, void, undefined> {
  const streaming = run.streaming;
  const summary = cutSummary(run, streaming);
  completeHalfTurn(run);
  run.conversation.save();
  if (run.turnOpen) {
    run.turnOpen = false;
    yield { method: 'TurnEnd', params: { turn: run.turn, stopped: true, stop_reason: 'cancelled' } };
  }
  run.ended = true;
  yield { method: 'RunEnd', params: { ...summary, stop_reason: 'cancelled', turn: run.turn } };
}

export async function* endFailed(run: RunState, err: unknown, redact: (text: string) => string): AsyncGenerator<WireEvent, void, undefined> {
  const summary = cutSummary(run, true);
  run.streaming = false;
  run.conversation.failed();
  const error = toPagentError(err);
  const params: ParamsOf<'RunError'> = { message: redact(error.message), code: error.code, where: error.where ?? 'llm' };
  if (error.status !== undefined) params.status = error.status;
  yield { method: 'RunError', params };
  run.turnOpen = false;
  yield { method: 'TurnEnd', params: { turn: run.turn, stopped: true, stop_reason: 'error' } };
  run.ended = true;
  yield { method: 'RunEnd', params: { ...summary, stop_reason: 'error', turn: run.turn } };
}
