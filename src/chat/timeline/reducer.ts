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
import { emptyStep, type UnknownEvent, type WireEvent } from '../../wire/events.js';
import { errorKind } from '../error-kind.js';
import { num, prettyJson, summariseUsage } from './display-values.js';
import { blockOf, emptyBlock, endBlocks, nextKey, push, replace, retireRetry, setTool, type Draft } from './draft.js';
import type { AnswerItem, ReasoningItem, TimelineState, ToolItem } from './items.js';

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
