/**
 * The timeline reducer: wire events → the view model `<pagent-chat>` renders. All display reshaping
 * (grouping deltas into blocks, pretty tool arguments, durations, usage totals, stopped/failed marks)
 * lives here, so the element only draws what it is given.
 *
 * Cost per event is O(1) in the length of the conversation: a delta appends one chunk to the block in
 * flight and replaces that one item; the item array is append-only and shared between successive
 * states (so only the newest state is valid — the reducer is deterministic and does no I/O, but it is
 * not persistent).
 */
import type { ChatMessage } from '../agent/messages.js';
import type { ChatAttachment } from './attachments/types.js';
import { splitParts } from './attachments/parts.js';
import { emptyStep, type ErrorCode, type StopReason, type UnknownEvent, type Usage, type WireEvent } from '../wire/events.js';
import { errorKind, type ErrorKind } from './error-kind.js';
import type { RemoteInterrupt } from '../agent/remote/protocol.js';

/** Streamed text kept as append-only chunks, so appending never copies what came before. */
export interface TextBlock {
  readonly chunks: string[];
  readonly length: number;
}

interface ItemBase {
  /** Stable key for keyed rendering. */
  readonly key: string;
  /** 1-based number of the run the item belongs to (0 for items outside any run). */
  readonly run: number;
}

/** A message the user sent (the run's `user_input`). */
export interface UserItem extends ItemBase {
  readonly kind: 'user';
  readonly text: string;
  /** Files sent with the message. */
  readonly attachments?: readonly ChatAttachment[] | undefined;
}

/** A block of reasoning: open while it streams. */
export interface ReasoningItem extends ItemBase {
  readonly kind: 'reasoning';
  readonly text: TextBlock;
  readonly streaming: boolean;
  /** Times the reader asked to see more of a text too long to draw at once. */
  readonly more?: number;
}

/** A block of answer text. `stopped` marks a partial answer of a cancelled run. */
export interface AnswerItem extends ItemBase {
  readonly kind: 'answer';
  readonly text: TextBlock;
  readonly streaming: boolean;
  readonly stopped: boolean;
  /** Times the reader asked to see more of a text too long to draw at once. */
  readonly more?: number;
}

/** How far a tool call got. */
export type ToolStatus = 'pending' | 'awaiting-approval' | 'ok' | 'failed' | 'denied' | 'cancelled';

/** One tool call and, once it came, its result. */
export interface ToolItem extends ItemBase {
  readonly kind: 'tool';
  readonly callId: string;
  readonly name: string;
  /** The arguments as sent (JSON text, maybe invalid). */
  readonly arguments: string;
  /** Indented JSON when `arguments` parsed (and are not too long to indent), else `undefined` (render the raw text). */
  readonly prettyArguments: string | undefined;
  readonly status: ToolStatus;
  readonly result: string | undefined;
  readonly elapsedMs: number | undefined;
  readonly truncated: boolean;
}

/** The boundary before a turn after the first. */
export interface TurnItem extends ItemBase {
  readonly kind: 'turn';
  readonly turn: number;
}

/** A failed run (`RunError`). `input` is the run's user input, for a retry. */
export interface ErrorItem extends ItemBase {
  readonly kind: 'error';
  readonly message: string;
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly where: string | undefined;
  /** What kind of failure it is: the card leads with one short sentence for it. */
  readonly failure: ErrorKind;
  readonly input: string | undefined;
  /**
   * True while this failure can be retried: it has an input, it is the latest run's, and it has not been
   * retried yet (a retry re-runs it once, in place).
   */
  readonly retryable: boolean;
}

/** Token counts read from a provider's `usage`, whichever names it used. */
export interface UsageSummary {
  readonly input: number | undefined;
  readonly output: number | undefined;
  readonly total: number | undefined;
}

/** The end of a run: why it stopped and the tokens it used. */
export interface RunEndItem extends ItemBase {
  readonly kind: 'run-end';
  readonly stopReason: StopReason | undefined;
  readonly cancelled: boolean;
  readonly failed: boolean;
  /** True when a cancelled run had no answer text to mark as stopped (so the end itself shows it). */
  readonly stoppedWithoutAnswer: boolean;
  readonly usage: UsageSummary | undefined;
}

/** How a question of the agent ended: still asked, answered, dismissed by the user, or cut by the run's end. */
export type QuestionStatus = 'asked' | 'answered' | 'dismissed' | 'cancelled';

/** A question the agent asked the user during a run (a remote back end's interrupt), and its answer. */
export interface QuestionItem extends ItemBase {
  readonly kind: 'question';
  readonly question: RemoteInterrupt;
  readonly status: QuestionStatus;
  /** The answer as sent, once answered. */
  readonly answer?: unknown;
}

/** One row of the timeline. */
export type TimelineItem = UserItem | ReasoningItem | AnswerItem | ToolItem | TurnItem | ErrorItem | RunEndItem | QuestionItem;

/** The view model. */
export interface TimelineState {
  /** The rows, oldest first. Append-only and shared with the previous state. */
  readonly items: TimelineItem[];
  /** True from a run's first event until its `RunEnd`. */
  readonly runOpen: boolean;
  /** Runs seen so far. */
  readonly run: number;
  /** Index of the answer / reasoning block in flight, or -1. */
  readonly answerIndex: number;
  readonly reasoningIndex: number;
  /** Index of the run's latest answer block (streaming or not), or -1. */
  readonly lastAnswerIndex: number;
  /** Tool call id → item index, for the run in flight (shared, like `items`). */
  readonly toolIndex: Map<string, number>;
  /** Tool calls waiting for a decision that have no card yet (approval asked before `ToolCallBegin`). */
  readonly awaitingApproval: Set<string>;
  /** The user input of the run in flight (or of a message sent and not yet answered). */
  readonly input: string | undefined;
  /** True when the last item is a user message sent locally whose run has not begun. */
  readonly sentPending: boolean;
  /** Answer text seen in the run in flight (so a `RunEnd` without deltas still shows its content). */
  readonly answeredInRun: boolean;
  /** Index of the error card that can still be retried, or -1 (a newer run makes it a record). */
  readonly retryIndex: number;
  /**
   * Deterministic count of the reducer's work: objects allocated, array slots written and chunks
   * appended. Tests compare it per event; it never depends on time.
   */
  readonly work: number;
}

/** An empty timeline. */
export function createTimeline(): TimelineState {
  return {
    items: [],
    runOpen: false,
    run: 0,
    answerIndex: -1,
    reasoningIndex: -1,
    lastAnswerIndex: -1,
    toolIndex: new Map(),
    awaitingApproval: new Set(),
    input: undefined,
    sentPending: false,
    answeredInRun: false,
    retryIndex: -1,
    work: 0,
  };
}

let keySeq = 0;
const nextKey = (prefix: string): string => `${prefix}${++keySeq}`;

const emptyBlock = (): TextBlock => ({ chunks: [], length: 0 });
const blockOf = (text: string): TextBlock => ({ chunks: text === '' ? [] : [text], length: text.length });

/** The whole text of a block (joins the chunks: O(length), for tests and finished blocks). */
export function blockText(block: TextBlock): string {
  return block.chunks.join('');
}

/**
 * The longest arguments text shown indented: parsing and indenting takes about as long as drawing, so
 * megabytes of arguments would block the page for the first lines of a card that draws only a slice.
 */
export const PRETTY_JSON_MAX = 100_000;

/** Indented JSON of `text` when it parses as JSON and has at most {@link PRETTY_JSON_MAX} characters, else `undefined`. */
export function prettyJson(text: string): string | undefined {
  if (text.length > PRETTY_JSON_MAX) return undefined;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Reads token counts from OpenAI (`prompt_tokens`…) or Anthropic-style (`input_tokens`…) usage. */
export function summariseUsage(usage: Usage | null | undefined): UsageSummary | undefined {
  if (!usage) return undefined;
  const input = num(usage['prompt_tokens']) ?? num(usage['input_tokens']);
  const output = num(usage['completion_tokens']) ?? num(usage['output_tokens']);
  const total = num(usage['total_tokens']) ?? (input !== undefined && output !== undefined ? input + output : undefined);
  if (input === undefined && output === undefined && total === undefined) return undefined;
  return { input, output, total };
}

// ---- helpers that write (each counts its work) ----------------------------------------------------

type Draft = { -readonly [K in keyof TimelineState]: TimelineState[K] };

function push(s: Draft, item: TimelineItem): number {
  s.items.push(item);
  s.work += 2;
  return s.items.length - 1;
}

function replace<T extends TimelineItem>(s: Draft, index: number, patch: Partial<T>): void {
  const old = s.items[index];
  if (!old) return;
  s.items[index] = { ...old, ...patch } as TimelineItem;
  s.work += 2;
}

function endBlocks(s: Draft): void {
  if (s.reasoningIndex >= 0) replace<ReasoningItem>(s, s.reasoningIndex, { streaming: false });
  if (s.answerIndex >= 0) replace<AnswerItem>(s, s.answerIndex, { streaming: false });
  s.reasoningIndex = -1;
  s.answerIndex = -1;
}

/** The latest error card can no longer be retried (a newer run began, or it was retried). */
function retireRetry(s: Draft): void {
  if (s.retryIndex >= 0) replace<ErrorItem>(s, s.retryIndex, { retryable: false });
  s.retryIndex = -1;
}

function beginRun(s: Draft, input: string): void {
  retireRetry(s);
  s.run += 1;
  s.runOpen = true;
  s.answeredInRun = false;
  s.lastAnswerIndex = -1;
  s.toolIndex = new Map();
  s.work += 1;
  if (s.sentPending) {
    s.sentPending = false;
    return;
  }
  s.input = input;
  if (input !== '') push(s, { kind: 'user', key: nextKey('u'), run: s.run, text: input });
}

function ensureRun(s: Draft): void {
  if (!s.runOpen) beginRun(s, '');
}

function appendText(s: Draft, kind: 'answer' | 'reasoning', text: string): void {
  const indexKey = kind === 'answer' ? 'answerIndex' : 'reasoningIndex';
  let index = s[indexKey];
  if (index < 0) {
    const block = emptyBlock();
    const item: AnswerItem | ReasoningItem =
      kind === 'answer'
        ? { kind, key: nextKey('a'), run: s.run, text: block, streaming: true, stopped: false }
        : { kind, key: nextKey('r'), run: s.run, text: block, streaming: true };
    index = push(s, item);
    s[indexKey] = index;
    if (kind === 'answer') s.lastAnswerIndex = index;
  }
  const item = s.items[index] as AnswerItem | ReasoningItem;
  item.text.chunks.push(text);
  // A new block object (sharing the chunk array) and a new item, so renderers see one changed row.
  replace(s, index, { text: { chunks: item.text.chunks, length: item.text.length + text.length } });
  s.work += 2;
}

function setTool(s: Draft, callId: string, patch: Partial<ToolItem>): boolean {
  const index = s.toolIndex.get(callId);
  if (index === undefined) return false;
  replace<ToolItem>(s, index, patch);
  return true;
}

function closeRun(s: Draft, params: WireEvent & { method: 'RunEnd' }): void {
  const { stop_reason: stopReason } = params.params;
  const cancelled = stopReason === 'cancelled';
  if (!s.answeredInRun && params.params.content !== '') {
    s.lastAnswerIndex = push(s, { kind: 'answer', key: nextKey('a'), run: s.run, text: blockOf(params.params.content), streaming: false, stopped: false });
  }
  endBlocks(s);
  if (cancelled && s.lastAnswerIndex >= 0) replace<AnswerItem>(s, s.lastAnswerIndex, { stopped: true });
  for (const index of s.toolIndex.values()) {
    const tool = s.items[index] as ToolItem;
    if (tool.status === 'pending' || tool.status === 'awaiting-approval') replace<ToolItem>(s, index, { status: 'cancelled' });
  }
  s.awaitingApproval = new Set();
  push(s, {
    kind: 'run-end',
    key: nextKey('e'),
    run: s.run,
    stopReason,
    cancelled,
    failed: stopReason === 'error',
    stoppedWithoutAnswer: cancelled && s.lastAnswerIndex < 0,
    usage: summariseUsage(params.params.usage),
  });
  s.runOpen = false;
}

/**
 * Applies one event. Unknown events leave the state as it is (the same object comes back).
 * Tolerant of streams that do not follow the termination contract: an event outside a run opens one,
 * a `RunEnd` without a run closes nothing but still marks the end.
 */
export function reduceTimeline(state: TimelineState, event: WireEvent | UnknownEvent): TimelineState {
  if ('unknown' in event && event.unknown === true) return state;
  const e = event as WireEvent;
  const s: Draft = { ...state, work: state.work + 1 };
  switch (e.method) {
    case 'RunBegin':
      if (s.runOpen) closeRun(s, { method: 'RunEnd', params: { ...emptyStep(), stop_reason: 'error' } });
      beginRun(s, e.params.user_input);
      break;
    case 'TurnBegin':
      ensureRun(s);
      endBlocks(s);
      if (e.params.turn > 0) push(s, { kind: 'turn', key: nextKey('t'), run: s.run, turn: e.params.turn });
      break;
    case 'TextDelta':
      ensureRun(s);
      if (e.params.text === '') break;
      if (s.reasoningIndex >= 0) {
        replace<ReasoningItem>(s, s.reasoningIndex, { streaming: false });
        s.reasoningIndex = -1;
      }
      s.answeredInRun = true;
      appendText(s, 'answer', e.params.text);
      break;
    case 'ReasoningDelta':
      ensureRun(s);
      if (e.params.text === '') break;
      if (s.answerIndex >= 0) {
        replace<AnswerItem>(s, s.answerIndex, { streaming: false });
        s.answerIndex = -1;
      }
      appendText(s, 'reasoning', e.params.text);
      break;
    case 'StepEnd': {
      ensureRun(s);
      const hadAnswer = s.answerIndex >= 0;
      const hadReasoning = s.reasoningIndex >= 0;
      endBlocks(s);
      if (!hadReasoning && e.params.reasoning_content !== '' && !hadAnswer) {
        push(s, { kind: 'reasoning', key: nextKey('r'), run: s.run, text: blockOf(e.params.reasoning_content), streaming: false });
      }
      if (!hadAnswer && e.params.content !== '') {
        s.answeredInRun = true;
        s.lastAnswerIndex = push(s, { kind: 'answer', key: nextKey('a'), run: s.run, text: blockOf(e.params.content), streaming: false, stopped: false });
      }
      break;
    }
    case 'ToolCallBegin': {
      ensureRun(s);
      endBlocks(s);
      const { tool_call_id: callId } = e.params;
      const awaiting = s.awaitingApproval.has(callId);
      const index = push(s, {
        kind: 'tool',
        key: nextKey('c'),
        run: s.run,
        callId,
        name: e.params.name,
        arguments: e.params.arguments,
        prettyArguments: prettyJson(e.params.arguments),
        status: awaiting ? 'awaiting-approval' : 'pending',
        result: undefined,
        elapsedMs: undefined,
        truncated: false,
      });
      s.toolIndex.set(callId, index);
      break;
    }
    case 'ToolResult': {
      ensureRun(s);
      const p = e.params;
      const patch: { -readonly [K in keyof ToolItem]?: ToolItem[K] } = {
        status: p.ok === false ? 'failed' : 'ok',
        result: p.content,
        elapsedMs: num(p.elapsed_ms),
        truncated: p.truncated === true,
      };
      const index = s.toolIndex.get(p.tool_call_id);
      if (index !== undefined && (s.items[index] as ToolItem).status === 'denied') patch.status = 'denied';
      if (!setTool(s, p.tool_call_id, patch)) {
        const at = push(s, {
          kind: 'tool', key: nextKey('c'), run: s.run, callId: p.tool_call_id, name: p.name,
          arguments: '', prettyArguments: undefined, status: 'ok', result: undefined, elapsedMs: undefined, truncated: false,
          ...patch,
        } as ToolItem);
        s.toolIndex.set(p.tool_call_id, at);
      }
      break;
    }
    case 'TurnEnd':
      endBlocks(s);
      break;
    case 'RunError': {
      ensureRun(s);
      endBlocks(s);
      const retryable = s.input !== undefined && s.input !== '';
      const index = push(s, {
        kind: 'error',
        key: nextKey('x'),
        run: s.run,
        message: e.params.message,
        code: e.params.code,
        status: num(e.params.status),
        where: e.params.where,
        failure: errorKind({ code: e.params.code, status: num(e.params.status), message: e.params.message }),
        input: s.input,
        retryable,
      });
      if (retryable) s.retryIndex = index;
      break;
    }
    case 'RunEnd':
      if (!s.runOpen) beginRun(s, '');
      closeRun(s, e);
      break;
  }
  return s;
}

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

/**
 * Builds a timeline from a stored conversation (OpenAI-shaped messages): user messages, answers,
 * reasoning, tool calls matched to their results by id. A tool call without a result is shown cancelled.
 * `lastStop`: the stop reason of the last run (`"interrupted"` for a turn a reload cut).
 */
export function timelineFromMessages(messages: readonly ChatMessage[], lastStop?: StopReason): TimelineState {
  let s: TimelineState = createTimeline();
  const events: WireEvent[] = [];
  /** The pending run already has a step or a tool event, so the next assistant message starts a turn. */
  let stepped = false;
  const flush = (stop?: StopReason): void => {
    stepped = false;
    if (events.length === 0) return;
    events.push({ method: 'RunEnd', params: { ...emptyStep(), ...(stop && { stop_reason: stop }) } });
    for (const event of events) s = reduceTimeline(s, event);
    events.length = 0;
  };
  let turn = 0;
  for (const m of messages) {
    if (m.role === 'user') {
      flush();
      turn = 0;
      let text = m.content;
      if (typeof text !== 'string') {
        const split = splitParts(text);
        text = split.text;
        s = addUserMessage(s, text, split.attachments);
      }
      events.push({ method: 'RunBegin', params: { user_input: text } }, { method: 'TurnBegin', params: { turn: 0 } });
    } else if (m.role === 'assistant') {
      if (events.length === 0) events.push({ method: 'RunBegin', params: { user_input: '' } }, { method: 'TurnBegin', params: { turn: 0 } });
      else if (stepped) {
        turn += 1;
        events.push({ method: 'TurnBegin', params: { turn } });
      }
      const calls = m.tool_calls ?? [];
      stepped = true;
      events.push({
        method: 'StepEnd',
        params: { content: m.content ?? '', tool_calls: calls, reasoning_content: m.reasoning_content ?? '', usage: null },
      });
      for (const call of calls) {
        events.push({ method: 'ToolCallBegin', params: { tool_call_id: call.id, name: call.function.name, arguments: call.function.arguments } });
      }
    } else if (m.role === 'tool') {
      stepped = true;
      events.push({ method: 'ToolResult', params: { tool_call_id: m.tool_call_id, name: '', content: m.content } });
    }
  }
  flush(lastStop);
  return s;
}
