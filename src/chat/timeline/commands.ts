/**
 * The timeline's commands: what the element and its features change besides events — a message sent, a
 * steer, a notice, a retry, an approval, a question, "Show more". Each returns the next state (the same
 * object when nothing changes) and counts its work as the reducer does.
 */
import type { ChatAttachment } from '../attachments/types.js';
import type { ErrorCode } from '../../wire/events.js';
import { errorKind } from '../error-kind.js';
import type { RemoteInterrupt } from '../../agent/remote/protocol.js';
import { endBlocks, nextKey, push, replace, retireRetry, setTool, type Draft } from './draft.js';
import { blockText, type AnswerItem, type QuestionItem, type QuestionStatus, type ReasoningItem, type TimelineState, type ToolStatus } from './items.js';

/**
 * Adds a message the user just sent, before its run begins. The run's `RunBegin` then adopts it
 * instead of adding the same text again.
 */
export function addUserMessage(state: TimelineState, text: string, attachments?: readonly ChatAttachment[]): TimelineState {
  const s: Draft = { ...state, work: state.work + 1, sentPending: true, input: text };
  push(s, { kind: 'user', key: nextKey('u'), run: s.run + 1, text, attachments });
  return s;
}

/**
 * Adds a message the user sent into the run in flight (`Agent.steer`), at the point of the run where the
 * agent sent it: the answer or reasoning block in flight ends, and later text starts a new one below it.
 */
export function addSteerMessage(state: TimelineState, text: string): TimelineState {
  const s: Draft = { ...state, work: state.work + 1 };
  endBlocks(s);
  push(s, { kind: 'user', key: nextKey('u'), run: s.runOpen ? s.run : s.run + 1, text });
  return s;
}

/**
 * Adds an error card that belongs to no run (e.g. a stored conversation that could not be opened): the
 * same card as a `RunError`'s, without a retry.
 */
export function addNotice(state: TimelineState, error: { code: ErrorCode; message: string; where?: string | undefined }): TimelineState {
  const s: Draft = { ...state, work: state.work + 1 };
  push(s, {
    kind: 'error',
    key: nextKey('x'),
    run: 0,
    message: error.message,
    code: error.code,
    status: undefined,
    where: error.where,
    failure: errorKind({ code: error.code, status: undefined, message: error.message }),
    input: undefined,
    retryable: false,
  });
  return s;
}

/**
 * Prepares the retry of a failed run, in place: its error card keeps its text but loses its Retry, and the
 * next run adopts the failed run's input without showing the user's message again. Returns the state
 * unchanged (the same object) when that card cannot be retried (already retried, or not the latest run).
 */
export function retryRun(state: TimelineState, errorKey: string): TimelineState {
  const item = state.retryIndex >= 0 ? state.items[state.retryIndex] : undefined;
  if (item?.kind !== 'error' || item.key !== errorKey || !item.retryable || state.runOpen) return state;
  const s: Draft = { ...state, work: state.work + 1, sentPending: true, input: item.input };
  retireRetry(s);
  return s;
}

/**
 * Prepares the retry of the last run when the user stopped it, in place, as {@link retryRun} does for a
 * failed one: the next run adopts its input. Returns the state unchanged when the last row is not a
 * stopped run's end (it was retried already, or a newer run followed).
 */
export function retryStopped(state: TimelineState): TimelineState {
  const last = state.items.at(-1);
  if (last?.kind !== 'run-end' || !last.cancelled || state.runOpen || !state.input) return state;
  return { ...state, work: state.work + 1, sentPending: true };
}

/**
 * Marks a tool call as waiting for the user's approval (or, with `decision`, records it: approved goes
 * back to pending, denied stays denied even if a result follows).
 */
export function setApproval(state: TimelineState, callId: string, decision?: boolean): TimelineState {
  const s: Draft = { ...state, work: state.work + 1 };
  const status: ToolStatus = decision === undefined ? 'awaiting-approval' : decision ? 'pending' : 'denied';
  if (!setTool(s, callId, { status })) {
    s.awaitingApproval = new Set(s.awaitingApproval);
    if (decision === undefined) s.awaitingApproval.add(callId);
    else s.awaitingApproval.delete(callId);
  }
  return s;
}

/**
 * Adds a question of the agent to the run in flight, asked: the answer or reasoning block in flight ends,
 * so what the agent says after it starts below it.
 */
export function addQuestion(state: TimelineState, question: RemoteInterrupt): TimelineState {
  const s: Draft = { ...state, work: state.work + 1 };
  endBlocks(s);
  push(s, { kind: 'question', key: nextKey('q'), run: s.run, question, status: 'asked' });
  return s;
}

/**
 * Records how the question `key` ended. Returns the state unchanged when the timeline no longer shows it
 * (another conversation was opened meanwhile).
 */
export function settleQuestion(state: TimelineState, key: string, status: QuestionStatus, answer?: unknown): TimelineState {
  const index = state.items.findLastIndex((item) => item.key === key);
  if (index < 0) return state;
  const s: Draft = { ...state, work: state.work + 1 };
  replace<QuestionItem>(s, index, { status, answer });
  return s;
}

/** Counts one more "Show more" on the answer or reasoning block `key` (an unknown key changes nothing). */
export function showMore(state: TimelineState, key: string): TimelineState {
  const index = state.items.findIndex((i) => i.key === key);
  const item = state.items[index];
  if (item?.kind !== 'answer' && item?.kind !== 'reasoning') return state;
  const s: Draft = { ...state, items: [...state.items], work: state.work + 1 };
  replace<AnswerItem | ReasoningItem>(s, index, { more: (item.more ?? 0) + 1 });
  return s;
}

/** The partial answer of the run in flight (for a synthetic cancelled `RunEnd`). */
export function currentAnswer(state: TimelineState): string {
  const item = state.answerIndex >= 0 ? state.items[state.answerIndex] : undefined;
  return item?.kind === 'answer' ? blockText(item.text) : '';
}
