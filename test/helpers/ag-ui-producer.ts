/**
 * AG-UI streams written by the protocol's own producer: every event object is validated by
 * `@ag-ui/core`'s schema (a typo in a test fails here, not in our decoder) and framed by
 * `@ag-ui/encoder`'s `EventEncoder`, as an AG-UI server does.
 */
import { EventType, type BaseEvent } from '@ag-ui/core';
import { EventSchema } from '@ag-ui/core/schemas';
import { EventEncoder } from '@ag-ui/encoder';

export { EventType };

/** An AG-UI event as a plain object (`type` plus its fields). */
export type AgUiEvent = { type: `${EventType}` } & Record<string, unknown>;

/** Validates every event with `@ag-ui/core`'s schema and encodes the stream as the SSE body a server sends. */
export function agUiSse(events: AgUiEvent[]): string {
  const encoder = new EventEncoder();
  return events.map((event) => encoder.encodeSSE(EventSchema.parse(event) as BaseEvent)).join('');
}

/** The same events as one JSON document a line (AG-UI servers that stream JSON Lines). */
export function agUiJsonLines(events: AgUiEvent[]): string {
  return events.map((event) => JSON.stringify(EventSchema.parse(event)) + '\n').join('');
}

const T = 'thread-1';

/** Scenarios written as AG-UI servers emit them, each a list of events. */
export const agUiScenarios = {
  text: [
    { type: 'RUN_STARTED', threadId: T, runId: 'run-1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hello ' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'wörld 🌍' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'RUN_FINISHED', threadId: T, runId: 'run-1' },
  ],
  reasoning: [
    { type: 'RUN_STARTED', threadId: T, runId: 'run-1' },
    { type: 'REASONING_START', messageId: 'r1' },
    { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'Think ' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'first.' },
    { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
    { type: 'REASONING_END', messageId: 'r1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Answer.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'RUN_FINISHED', threadId: T, runId: 'run-1', outcome: { type: 'success' } },
  ],
  /** Two turns: chunked arguments, two parallel calls (one failing), results as text and as content parts. */
  tools: [
    { type: 'RUN_STARTED', threadId: T, runId: 'run-1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Let me check.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'TOOL_CALL_START', toolCallId: 'call-1', toolCallName: 'get_weather', parentMessageId: 'm1' },
    { type: 'TOOL_CALL_START', toolCallId: 'call-2', toolCallName: 'get_time', parentMessageId: 'm1' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: '{"city":' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call-2', delta: '{"tz":"Europe/Paris"}' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: ' "Paris"}' },
    { type: 'TOOL_CALL_END', toolCallId: 'call-2' },
    { type: 'TOOL_CALL_END', toolCallId: 'call-1' },
    { type: 'TOOL_CALL_RESULT', messageId: 'tr-2', toolCallId: 'call-2', content: 'get_time error: unknown zone', role: 'tool' },
    { type: 'TOOL_CALL_RESULT', messageId: 'tr-1', toolCallId: 'call-1', content: [{ type: 'text', text: '18 °C, ' }, { type: 'text', text: 'sunny' }] },
    { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'It is 18 °C.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
    { type: 'RUN_FINISHED', threadId: T, runId: 'run-1' },
  ],
  /** The chunk shorthand: id-less chunks continue the open message or call. */
  chunks: [
    { type: 'RUN_STARTED', threadId: T, runId: 'run-1' },
    { type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', delta: 'hm' },
    { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', role: 'assistant', delta: 'Looking' },
    { type: 'TEXT_MESSAGE_CHUNK', delta: ' it up.' },
    { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search', parentMessageId: 'm1', delta: '{"q":' },
    { type: 'TOOL_CALL_CHUNK', delta: '"ag-ui"}' },
    { type: 'TOOL_CALL_CHUNK', toolCallId: 'c2', toolCallName: 'search', delta: '{"q":"sse"}' },
    { type: 'TOOL_CALL_RESULT', messageId: 'tr-1', toolCallId: 'c1', content: 'found' },
    { type: 'TOOL_CALL_RESULT', messageId: 'tr-2', toolCallId: 'c2', content: 'also found' },
    { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'Done.' },
    { type: 'RUN_FINISHED', threadId: T, runId: 'run-1' },
  ],
  /** A failure mid-answer: RUN_ERROR ends the run. */
  error: [
    { type: 'RUN_STARTED', threadId: T, runId: 'run-1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Partial' },
    { type: 'RUN_ERROR', message: 'model overloaded', code: 'OVERLOADED' },
  ],
  cancelled: [
    { type: 'RUN_STARTED', threadId: T, runId: 'run-1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Stopped here' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'RUN_FINISHED', threadId: T, runId: 'run-1', outcome: { type: 'cancelled' } },
  ],
  interrupt: [
    { type: 'RUN_STARTED', threadId: T, runId: 'run-1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'May I delete it?' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    {
      type: 'RUN_FINISHED',
      threadId: T,
      runId: 'run-1',
      outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'confirmation', message: 'Delete file?' }] },
    },
  ],
  /** State, snapshots, steps, custom and raw events between the text: none of them changes the answer. */
  interleaved: [
    { type: 'RUN_STARTED', threadId: T, runId: 'run-1' },
    { type: 'STATE_SNAPSHOT', snapshot: { count: 0 } },
    { type: 'STEP_STARTED', stepName: 'plan' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'One' },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: 1 }] },
    { type: 'CUSTOM', name: 'progress', value: { pct: 50 } },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: ' two' },
    { type: 'RAW', event: { provider: 'x' } },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'STEP_FINISHED', stepName: 'plan' },
    { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'm1', role: 'assistant', content: 'One two' }] },
    { type: 'RUN_FINISHED', threadId: T, runId: 'run-1', result: { ok: true } },
  ],
  /** Two runs of one thread in one stream (e.g. a replay). */
  twoRuns: [
    { type: 'RUN_STARTED', threadId: T, runId: 'run-1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'First' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'RUN_FINISHED', threadId: T, runId: 'run-1' },
    { type: 'RUN_STARTED', threadId: T, runId: 'run-2' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'Second' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
    { type: 'RUN_FINISHED', threadId: T, runId: 'run-2' },
  ],
} satisfies Record<string, AgUiEvent[]>;
