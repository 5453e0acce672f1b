/**
 * Writing AG-UI: our events as the AG-UI events an AG-UI client (`@ag-ui/client`'s `HttpAgent`,
 * CopilotKit) reads. Kept apart from the reader so a decoder never bundles it.
 */
import type { WireEvent } from '../events.js';
import type { DialectWriter } from './writer.js';

/**
 * Creates an AG-UI writer for one stream. It expects well-formed runs (`encodeStream` makes them so).
 *
 * - `RunBegin` → `RUN_STARTED{threadId, runId}` (one thread per stream, a run id per run).
 * - `TextDelta` → `TEXT_MESSAGE_START` (role `assistant`) once, then `TEXT_MESSAGE_CONTENT`;
 *   `ReasoningDelta` → `REASONING_START` + `REASONING_MESSAGE_START` once, then
 *   `REASONING_MESSAGE_CONTENT`. An open message ends (`*_END`) before anything else is written.
 *   Empty deltas are not written.
 * - `ToolCallBegin` → `TOOL_CALL_START` (the call id kept; `parentMessageId` = the turn's text message,
 *   so a client rebuilds one assistant message with its tool calls), `TOOL_CALL_ARGS` with the whole
 *   arguments, `TOOL_CALL_END`.
 * - `ToolResult` → `TOOL_CALL_RESULT` (role `tool`). AG-UI has no failure flag: a failed result is
 *   written like any other, with its text.
 * - `RunEnd` → `RUN_FINISHED`, with outcome `cancelled` for a cancelled run; a failed run (a `RunError`
 *   or `stop_reason: "error"`) ends with `RUN_ERROR{message, code}` instead, since AG-UI allows nothing
 *   after it.
 * - `TurnBegin`, `TurnEnd` and `StepEnd` only end open messages: AG-UI's steps are the framework's.
 */
export function createAgUiWriter(): DialectWriter {
  const prefix = Math.random().toString(36).slice(2, 10);
  const threadId = `thread-${prefix}`;
  let runs = 0;
  let ids = 0;
  let runId = '';
  let textId: string | undefined;
  let reasoningId: string | undefined;
  /** The assistant message the turn's tool calls belong to. */
  let parentId: string | undefined;
  let error: { message: string; code: string } | undefined;

  const newId = (kind: string): string => `${kind}-${prefix}-${(ids += 1)}`;

  const closeText = (out: unknown[]): void => {
    if (textId === undefined) return;
    out.push({ type: 'TEXT_MESSAGE_END', messageId: textId });
    textId = undefined;
  };
  const closeReasoning = (out: unknown[]): void => {
    if (reasoningId === undefined) return;
    out.push({ type: 'REASONING_MESSAGE_END', messageId: reasoningId }, { type: 'REASONING_END', messageId: reasoningId });
    reasoningId = undefined;
  };
  const closeOpen = (out: unknown[]): void => {
    closeText(out);
    closeReasoning(out);
  };

  const write = (event: WireEvent): unknown[] => {
    const out: unknown[] = [];
    switch (event.method) {
      case 'RunBegin':
        runId = `run-${prefix}-${(runs += 1)}`;
        textId = reasoningId = parentId = undefined;
        error = undefined;
        out.push({ type: 'RUN_STARTED', threadId, runId });
        break;
      case 'TurnBegin':
        closeOpen(out);
        parentId = undefined;
        break;
      case 'TextDelta':
        if (event.params.text === '') break;
        closeReasoning(out);
        if (textId === undefined) {
          textId = parentId = newId('msg');
          out.push({ type: 'TEXT_MESSAGE_START', messageId: textId, role: 'assistant' });
        }
        out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: textId, delta: event.params.text });
        break;
      case 'ReasoningDelta':
        if (event.params.text === '') break;
        closeText(out);
        if (reasoningId === undefined) {
          reasoningId = newId('reasoning');
          out.push({ type: 'REASONING_START', messageId: reasoningId }, { type: 'REASONING_MESSAGE_START', messageId: reasoningId, role: 'reasoning' });
        }
        out.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: reasoningId, delta: event.params.text });
        break;
      case 'ToolCallBegin': {
        closeOpen(out);
        const { tool_call_id: toolCallId, name, arguments: args } = event.params;
        out.push({ type: 'TOOL_CALL_START', toolCallId, toolCallName: name, parentMessageId: (parentId ??= newId('msg')) });
        if (args !== '') out.push({ type: 'TOOL_CALL_ARGS', toolCallId, delta: args });
        out.push({ type: 'TOOL_CALL_END', toolCallId });
        break;
      }
      case 'ToolResult':
        closeOpen(out);
        out.push({ type: 'TOOL_CALL_RESULT', messageId: newId('result'), toolCallId: event.params.tool_call_id, content: event.params.content, role: 'tool' });
        break;
      case 'RunError':
        if (!error) error = { message: event.params.message, code: event.params.code };
        else error.message += `; ${event.params.message}`;
        break;
      case 'RunEnd': {
        closeOpen(out);
        const reason = event.params.stop_reason;
        if (error || reason === 'error') out.push({ type: 'RUN_ERROR', message: error?.message ?? 'The run failed', ...(error ? { code: error.code } : {}) });
        else if (reason === 'cancelled') out.push({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'cancelled' } });
        else out.push({ type: 'RUN_FINISHED', threadId, runId });
        break;
      }
      case 'TurnEnd':
      case 'StepEnd':
        closeOpen(out);
        break;
    }
    return out;
  };

  return { write, done: undefined };
}
