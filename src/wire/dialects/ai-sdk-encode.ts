/**
 * Writing the AI SDK UI message stream: our events as the parts a `useChat` front end reads. Kept apart
 * from the reader so a decoder never bundles it.
 */
import type { StopReason, WireEvent } from '../events.js';
import type { DialectWriter } from './writer.js';

const FINISH_REASONS = new Set(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']);

/** Our stop reason as the SDK's `finishReason`. */
function finishReason(reason: StopReason | undefined): string {
  if (reason === undefined || reason === 'no_tool_calls' || reason === 'empty_response') return 'stop';
  if (reason === 'max_turns') return 'tool-calls';
  return FINISH_REASONS.has(reason) ? reason : 'other';
}

/**
 * Creates an AI SDK UI message stream writer for one stream. It expects well-formed runs
 * (`encodeStream` makes them so).
 *
 * - `RunBegin` → `start` (with a message id per run, so a client keeps two runs apart); `TurnBegin` →
 *   `start-step`, `TurnEnd` → `finish-step` (a turn left open is finished at the next one or at the end).
 * - `TextDelta` → `text-start` once, then `text-delta`; `ReasoningDelta` → `reasoning-start` once, then
 *   `reasoning-delta`; an open part ends (`text-end`, `reasoning-end`) before anything else is written.
 * - `ToolCallBegin` → `tool-input-available` with the arguments parsed (`""` is `{}`). Arguments that are
 *   not JSON are written as streamed input (`tool-input-start` + `tool-input-delta`) and the call is
 *   completed at its result: a failed result → `tool-input-error{input: the raw text, errorText}`, a
 *   successful one → `tool-input-available{input: the raw text}` + `tool-output-available`.
 * - `ToolResult` → `tool-output-available{output: content}`, or `tool-output-error{errorText: content}`
 *   when `ok` is false; a result whose call this stream never began gets a `tool-input-start` first (the
 *   SDK refuses an output for an unknown call).
 * - `RunError` → `error{errorText}` where it comes (the SDK streams on after an error).
 * - `RunEnd` → `finish{finishReason}` (`no_tool_calls` → `stop`, `max_turns` → `tool-calls`, `error` →
 *   `error`, others as they are when the SDK knows them, else `other`), or `abort` for a cancelled run.
 * - The stream ends with `[DONE]` (over SSE).
 */
export function createAiSdkWriter(): DialectWriter {
  const prefix = Math.random().toString(36).slice(2, 10);
  let runs = 0;
  let parts = 0;
  let stepOpen = false;
  let textId: string | undefined;
  let reasoningId: string | undefined;
  /** Calls of the run, and the raw arguments of those whose arguments are not JSON. */
  const begun = new Set<string>();
  const raw = new Map<string, string>();

  const closeParts = (out: unknown[]): void => {
    if (textId !== undefined) out.push({ type: 'text-end', id: textId });
    if (reasoningId !== undefined) out.push({ type: 'reasoning-end', id: reasoningId });
    textId = reasoningId = undefined;
  };
  const ensureStep = (out: unknown[]): void => {
    if (stepOpen) return;
    stepOpen = true;
    out.push({ type: 'start-step' });
  };
  const finishStep = (out: unknown[]): void => {
    closeParts(out);
    if (!stepOpen) return;
    stepOpen = false;
    out.push({ type: 'finish-step' });
  };

  const write = (event: WireEvent): unknown[] => {
    const out: unknown[] = [];
    switch (event.method) {
      case 'RunBegin':
        stepOpen = false;
        textId = reasoningId = undefined;
        begun.clear();
        raw.clear();
        out.push({ type: 'start', messageId: `msg-${prefix}-${(runs += 1)}` });
        break;
      case 'TurnBegin':
        finishStep(out);
        ensureStep(out);
        break;
      case 'TextDelta':
        if (event.params.text === '') break;
        ensureStep(out);
        if (reasoningId !== undefined) closeParts(out);
        if (textId === undefined) out.push({ type: 'text-start', id: (textId = `text-${(parts += 1)}`) });
        out.push({ type: 'text-delta', id: textId, delta: event.params.text });
        break;
      case 'ReasoningDelta':
        if (event.params.text === '') break;
        ensureStep(out);
        if (textId !== undefined) closeParts(out);
        if (reasoningId === undefined) out.push({ type: 'reasoning-start', id: (reasoningId = `reasoning-${(parts += 1)}`) });
        out.push({ type: 'reasoning-delta', id: reasoningId, delta: event.params.text });
        break;
      case 'ToolCallBegin': {
        ensureStep(out);
        closeParts(out);
        const { tool_call_id: toolCallId, name: toolName, arguments: args } = event.params;
        begun.add(toolCallId);
        let input: unknown;
        try {
          input = args === '' ? {} : (JSON.parse(args) as unknown);
        } catch {
          raw.set(toolCallId, args);
          out.push({ type: 'tool-input-start', toolCallId, toolName }, { type: 'tool-input-delta', toolCallId, inputTextDelta: args });
          break;
        }
        out.push({ type: 'tool-input-available', toolCallId, toolName, input });
        break;
      }
      case 'ToolResult': {
        ensureStep(out);
        closeParts(out);
        const { tool_call_id: toolCallId, name: toolName, content, ok } = event.params;
        const rawInput = raw.get(toolCallId);
        if (rawInput !== undefined) {
          raw.delete(toolCallId);
          if (ok === false) {
            out.push({ type: 'tool-input-error', toolCallId, toolName, input: rawInput, errorText: content });
            break;
          }
          out.push({ type: 'tool-input-available', toolCallId, toolName, input: rawInput });
        } else if (!begun.has(toolCallId)) {
          begun.add(toolCallId);
          out.push({ type: 'tool-input-start', toolCallId, toolName });
        }
        out.push(ok === false ? { type: 'tool-output-error', toolCallId, errorText: content } : { type: 'tool-output-available', toolCallId, output: content });
        break;
      }
      case 'TurnEnd':
        finishStep(out);
        break;
      case 'RunError':
        closeParts(out);
        out.push({ type: 'error', errorText: event.params.message });
        break;
      case 'RunEnd':
        finishStep(out);
        if (event.params.stop_reason === 'cancelled') out.push({ type: 'abort' });
        else out.push({ type: 'finish', finishReason: finishReason(event.params.stop_reason) });
        break;
      case 'StepEnd':
        break;
    }
    return out;
  };

  return { write, done: '[DONE]' };
}
