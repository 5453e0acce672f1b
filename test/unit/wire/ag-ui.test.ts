import { describe, expect, it } from 'vitest';
import { WireDecodeError } from '../../../src/errors.js';
import { createAgUiDialect } from '../../../src/wire/dialects/ag-ui.js';
import type { UnknownEvent, WireEvent } from '../../../src/wire/events.js';
import { agUiJsonLines, agUiScenarios, agUiSse, type AgUiEvent } from '../../helpers/ag-ui-producer.js';
import { decodeEveryChunking } from './decode-helpers.js';

const RUN_BEGIN = { method: 'RunBegin', params: { user_input: '' } };
const turnBegin = (turn: number) => ({ method: 'TurnBegin', params: { turn } });
const text = (t: string) => ({ method: 'TextDelta', params: { text: t } });
const reasoning = (t: string) => ({ method: 'ReasoningDelta', params: { text: t } });
const continuing = (turn: number) => ({ method: 'TurnEnd', params: { turn, stopped: false, stop_reason: 'continuing' } });
/** The closing TurnEnd and RunEnd of a run. */
const ending = (turn: number, stop_reason: string, content: string, reasoning_content = '') => [
  { method: 'TurnEnd', params: { turn, stopped: true, stop_reason } },
  { method: 'RunEnd', params: { content, tool_calls: [], reasoning_content, usage: null, turn, stop_reason } },
];

/** An AG-UI producer's SSE body for the scenario, decoded with dialect detection at every chunking. */
const decodeScenario = (events: AgUiEvent[], includeUnknown = false): Array<WireEvent | UnknownEvent> =>
  decodeEveryChunking(agUiSse(events), { includeUnknown }).events;

describe('AG-UI streams from @ag-ui/encoder, detected by auto, at any chunking', () => {
  it('text: RUN_STARTED … RUN_FINISHED is one run of one turn', () => {
    expect(decodeScenario(agUiScenarios.text)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('Hello '),
      text('wörld 🌍'),
      ...ending(0, 'no_tool_calls', 'Hello wörld 🌍'),
    ]);
  });

  it('reasoning messages become ReasoningDelta and the RunEnd carries them', () => {
    expect(decodeScenario(agUiScenarios.reasoning)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      reasoning('Think '),
      reasoning('first.'),
      text('Answer.'),
      ...ending(0, 'no_tool_calls', 'Answer.', 'Think first.'),
    ]);
  });

  it('tool calls: one ToolCallBegin at END with the joined arguments, parallel calls apart, results flattened, text after results is the next turn', () => {
    expect(decodeScenario(agUiScenarios.tools)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('Let me check.'),
      { method: 'ToolCallBegin', params: { tool_call_id: 'call-2', name: 'get_time', arguments: '{"tz":"Europe/Paris"}' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'call-1', name: 'get_weather', arguments: '{"city": "Paris"}' } },
      { method: 'ToolResult', params: { tool_call_id: 'call-2', name: 'get_time', content: 'get_time error: unknown zone', ok: true } },
      { method: 'ToolResult', params: { tool_call_id: 'call-1', name: 'get_weather', content: '18 °C, sunny', ok: true } },
      continuing(0),
      turnBegin(1),
      text('It is 18 °C.'),
      ...ending(1, 'no_tool_calls', 'It is 18 °C.'),
    ]);
  });

  it('chunks: an id-less chunk continues the open message or call; a new id or another event ends it', () => {
    expect(decodeScenario(agUiScenarios.chunks)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      reasoning('hm'),
      text('Looking'),
      text(' it up.'),
      { method: 'ToolCallBegin', params: { tool_call_id: 'c1', name: 'search', arguments: '{"q":"ag-ui"}' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'c2', name: 'search', arguments: '{"q":"sse"}' } },
      { method: 'ToolResult', params: { tool_call_id: 'c1', name: 'search', content: 'found', ok: true } },
      { method: 'ToolResult', params: { tool_call_id: 'c2', name: 'search', content: 'also found', ok: true } },
      continuing(0),
      turnBegin(1),
      text('Done.'),
      ...ending(1, 'no_tool_calls', 'Done.'),
    ]);
  });

  it('RUN_ERROR mid-answer is one provider RunError, then the closing TurnEnd and RunEnd', () => {
    expect(decodeScenario(agUiScenarios.error)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('Partial'),
      { method: 'RunError', params: { message: 'model overloaded', code: 'provider' } },
      ...ending(0, 'error', 'Partial'),
    ]);
  });

  it('outcome cancelled ends the run as cancelled, without a RunError', () => {
    expect(decodeScenario(agUiScenarios.cancelled)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('Stopped here'),
      ...ending(0, 'cancelled', 'Stopped here'),
    ]);
  });

  it('outcome interrupt ends the run normally with stop_reason "interrupted"; the interrupts reach includeUnknown', () => {
    expect(decodeScenario(agUiScenarios.interrupt)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('May I delete it?'),
      ...ending(0, 'interrupted', 'May I delete it?'),
    ]);
    const withUnknown = decodeScenario(agUiScenarios.interrupt, true);
    expect(withUnknown.filter((e) => 'unknown' in e)).toEqual([
      {
        method: 'RUN_FINISHED',
        params: {
          threadId: 'thread-1',
          runId: 'run-1',
          outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'confirmation', message: 'Delete file?' }] },
        },
        unknown: true,
      },
    ]);
    expect(withUnknown.at(-1)?.method).toBe('RunEnd');
  });

  it('state, steps, custom, raw and snapshots change nothing, and pass through with includeUnknown', () => {
    const run = [RUN_BEGIN, turnBegin(0), text('One'), text(' two'), ...ending(0, 'no_tool_calls', 'One two')];
    expect(decodeScenario(agUiScenarios.interleaved)).toEqual(run);
    const all = decodeScenario(agUiScenarios.interleaved, true);
    expect(all.filter((e) => !('unknown' in e))).toEqual(run);
    expect(all.map((e) => e.method)).toEqual([
      'RunBegin',
      'TurnBegin',
      'STATE_SNAPSHOT',
      'STEP_STARTED',
      'TextDelta',
      'STATE_DELTA',
      'CUSTOM',
      'TextDelta',
      'RAW',
      'STEP_FINISHED',
      'MESSAGES_SNAPSHOT',
      'RUN_FINISHED',
      'TurnEnd',
      'RunEnd',
    ]);
    expect(all[2]).toEqual({ method: 'STATE_SNAPSHOT', params: { snapshot: { count: 0 } }, unknown: true });
  });

  it('two runs in one stream are two runs, each from turn 0', () => {
    expect(decodeScenario(agUiScenarios.twoRuns)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('First'),
      ...ending(0, 'no_tool_calls', 'First'),
      RUN_BEGIN,
      turnBegin(0),
      text('Second'),
      ...ending(0, 'no_tool_calls', 'Second'),
    ]);
  });

  it('a stream cut before the tool results ends truncated with the partial answer', () => {
    const body = agUiSse(agUiScenarios.tools);
    const events = decodeEveryChunking(body.slice(0, body.indexOf('data: {"type":"TOOL_CALL_RESULT"'))).events;
    expect(events.slice(-3)).toEqual([
      { method: 'ToolCallBegin', params: { tool_call_id: 'call-1', name: 'get_weather', arguments: '{"city": "Paris"}' } },
      { method: 'RunError', params: { message: 'The stream ended before the run did (no RunEnd)', code: 'truncated' } },
      { method: 'RunEnd', params: { content: 'Let me check.', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error', turn: 0 } },
    ]);
  });

  it('a RUN_STARTED while a run is open closes that run as truncated first', () => {
    const events = decodeScenario([...agUiScenarios.error.slice(0, 3), ...agUiScenarios.text]);
    expect(events.map((e) => e.method)).toEqual([
      'RunBegin',
      'TurnBegin',
      'TextDelta',
      'RunError',
      'RunEnd',
      'RunBegin',
      'TurnBegin',
      'TextDelta',
      'TextDelta',
      'TurnEnd',
      'RunEnd',
    ]);
    expect(events[3]).toEqual({ method: 'RunError', params: { message: 'A new run began before this one ended', code: 'truncated' } });
  });

  it('reads the same events from JSON Lines as from SSE', () => {
    expect(decodeEveryChunking(agUiJsonLines(agUiScenarios.tools)).events).toEqual(decodeScenario(agUiScenarios.tools));
  });
});

describe('AG-UI dialect, documents outside the schema', () => {
  const decodeAll = (docs: Array<Record<string, unknown>>) => {
    const dialect = createAgUiDialect(WireDecodeError);
    return docs.flatMap((doc, i) => dialect.decode(JSON.stringify(doc), i + 1));
  };

  it('opens a run for events before RUN_STARTED and reads the pre-1.0 THINKING_* events as reasoning', () => {
    expect(
      decodeAll([
        { type: 'THINKING_START' },
        { type: 'THINKING_TEXT_MESSAGE_START' },
        { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'ponder' },
        { type: 'THINKING_TEXT_MESSAGE_END' },
        { type: 'THINKING_END' },
      ]),
    ).toEqual([RUN_BEGIN, turnBegin(0), reasoning('ponder')]);
  });

  it('keeps text of messages whose role is not assistant out of the answer', () => {
    const events = decodeAll([
      { type: 'TEXT_MESSAGE_START', messageId: 'u1', role: 'user' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'u1', delta: 'echo of the question' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'd1', role: 'developer', delta: 'note' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a1', delta: 'answer' },
    ]);
    expect(events.filter((e) => !('unknown' in e))).toEqual([RUN_BEGIN, turnBegin(0), text('answer')]);
    expect(events.filter((e) => 'unknown' in e).map((e) => e.method)).toEqual(['TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CHUNK']);
  });

  it('keeps a call of the turn\'s message in the turn when it begins after an earlier result; other output after a result is the next turn', () => {
    const events = decodeAll([
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Both.' },
      { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 'x', parentMessageId: 'm1' },
      { type: 'TOOL_CALL_END', toolCallId: 'a' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'a', content: '1' },
      { type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: 'x', parentMessageId: 'm1' },
      { type: 'TOOL_CALL_END', toolCallId: 'b' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r2', toolCallId: 'b', content: '2' },
      { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'x', parentMessageId: 'm2' },
      { type: 'TOOL_CALL_END', toolCallId: 'c' },
    ]);
    expect(events.map((e) => (e.method === 'TurnBegin' || e.method === 'TurnEnd' ? `${e.method}:${e.params.turn}` : e.method))).toEqual([
      'RunBegin',
      'TurnBegin:0',
      'TextDelta',
      'ToolCallBegin',
      'ToolResult',
      'ToolCallBegin',
      'ToolResult',
      'TurnEnd:0',
      'TurnBegin:1',
      'ToolCallBegin',
    ]);
  });

  it('begins a call still open when its result arrives, and names a result of an unseen call ""', () => {
    expect(
      decodeAll([
        { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'ls' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' },
        { type: 'TOOL_CALL_RESULT', messageId: 'r', toolCallId: 'c1', content: 'a.txt' },
        { type: 'TOOL_CALL_RESULT', messageId: 'r2', toolCallId: 'c9', content: 'orphan' },
      ]),
    ).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'ToolCallBegin', params: { tool_call_id: 'c1', name: 'ls', arguments: '{}' } },
      { method: 'ToolResult', params: { tool_call_id: 'c1', name: 'ls', content: 'a.txt', ok: true } },
      { method: 'ToolResult', params: { tool_call_id: 'c9', name: '', content: 'orphan', ok: true } },
    ]);
  });

  it('rejects bad documents with typed errors and emits nothing for them', () => {
    const dialect = createAgUiDialect(WireDecodeError);
    const reason = (text: string): string | undefined => {
      try {
        dialect.decode(text, 3);
      } catch (err) {
        return (err as { reason?: string }).reason;
      }
      return undefined;
    };
    expect(reason('{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m"')).toBe('invalid-json');
    expect(reason('[1]')).toBe('not-an-event');
    expect(reason('{"delta": "x"}')).toBe('not-an-event');
    expect(reason('{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": 5}')).toBe('invalid-params');
    expect(reason('{"type": "TOOL_CALL_CHUNK", "delta": "{}"}')).toBe('invalid-params');
    expect(reason('{"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": 5}')).toBe('invalid-params');
    expect(dialect.decode('{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "ok"}', 4)[0]).toEqual(RUN_BEGIN);
  });

  it('keeps "__proto__" keys of unknown events inert', () => {
    const [event] = createAgUiDialect(WireDecodeError).decode('{"type": "CUSTOM", "name": "x", "value": 1, "__proto__": {"polluted": true}}', 1);
    expect(Object.getPrototypeOf(event?.params)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
