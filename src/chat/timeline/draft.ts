/**
 * The writes the reducer and the timeline commands share: a mutable draft of the next state, and helpers
 * that change it, each counting its work (`TimelineState.work`) so tests can compare cost per event.
 */
import type { AnswerItem, ErrorItem, ReasoningItem, TextBlock, TimelineItem, TimelineState, ToolItem } from './items.js';

let keySeq = 0;
/** A fresh key for a row (`prefix` names its kind: `u`ser, `a`nswer, `r`easoning, …). */
export const nextKey = (prefix: string): string => `${prefix}${++keySeq}`;

/** An empty text block. */
export const emptyBlock = (): TextBlock => ({ chunks: [], length: 0 });
/** A finished text block holding `text`. */
export const blockOf = (text: string): TextBlock => ({ chunks: text === '' ? [] : [text], length: text.length });

/** The next state while it is written. */
export type Draft = { -readonly [K in keyof TimelineState]: TimelineState[K] };

/** Appends a row; returns its index. */
export function push(s: Draft, item: TimelineItem): number {
  s.items.push(item);
  s.work += 2;
  return s.items.length - 1;
}

/** Replaces the row at `index` with a copy carrying `patch` (one changed row for keyed rendering). */
export function replace<T extends TimelineItem>(s: Draft, index: number, patch: Partial<T>): void {
  const old = s.items[index];
  if (!old) return;
  s.items[index] = { ...old, ...patch } as TimelineItem;
  s.work += 2;
}

/** Ends the answer and reasoning blocks in flight. */
export function endBlocks(s: Draft): void {
  if (s.reasoningIndex >= 0) replace<ReasoningItem>(s, s.reasoningIndex, { streaming: false });
  if (s.answerIndex >= 0) replace<AnswerItem>(s, s.answerIndex, { streaming: false });
  s.reasoningIndex = -1;
  s.answerIndex = -1;
}

/** The latest error card can no longer be retried (a newer run began, or it was retried). */
export function retireRetry(s: Draft): void {
  if (s.retryIndex >= 0) replace<ErrorItem>(s, s.retryIndex, { retryable: false });
  s.retryIndex = -1;
}

/** Patches the card of the tool call `callId` of the run in flight; false when it has none. */
export function setTool(s: Draft, callId: string, patch: Partial<ToolItem>): boolean {
  const index = s.toolIndex.get(callId);
  if (index === undefined) return false;
  replace<ToolItem>(s, index, patch);
  return true;
}
