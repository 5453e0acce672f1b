import { describe, expect, it } from 'vitest';
import { WireDecodeError } from '../../../src/errors.js';
import { createAiSdkDialect } from '../../../src/wire/dialects/ai-sdk.js';
import type { UnknownEvent, WireEvent } from '../../../src/wire/events.js';
import { aiSdkResponse, aiSdkResponseWithData, aiSdkScenarios, type AiSdkScenario } from '../../helpers/ai-sdk-producer.js';
import { decodeEveryChunking } from './decode-helpers.js';

const RUN_BEGIN = { method: 'RunBegin', params: { user_input: '' } };
const turnBegin = (turn: number) => ({ method: 'TurnBegin', params: { turn } });
const text = (t: string) => ({ method: 'TextDelta', params: { text: t } });
const reasoning = (t: string) => ({ method: 'ReasoningDelta', params: { text: t } });
const continuing = (turn: number) => ({ method: 'TurnEnd', params: { turn, stopped: false, stop_reason: 'continuing' } });
const call = (id: string, name: string, args: string) => ({ method: 'ToolCallBegin', params: { tool_call_id: id, name, arguments: args } });
const result = (id: string, name: string, content: string, ok = true) => ({ method: 'ToolResult', params: { tool_call_id: id, name, content, ok } });
/** The closing TurnEnd and RunEnd of a run. */
const ending = (turn: number, stop_reason: string, content: string, reasoning_content = '') => [
  { method: 'TurnEnd', params: { turn, stopped: true, stop_reason } },
  { method: 'RunEnd', params: { content, tool_calls: [], reasoning_content, usage: null, stop_reason, turn } },
];

/** The SDK's own response body for the scenario, decoded with 'auto' at every chunking. */
async function decodeScenario(scenario: AiSdkScenario, includeUnknown = false): Promise<Array<WireEvent | UnknownEvent>> {
  const response = aiSdkResponse(scenario);
  expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
  return decodeEveryChunking(await response.text(), { includeUnknown }).events;
}

const INVALID_INPUT =
  'Invalid input for tool get_weather: JSON parsing failed: Text: {"city": 5.\n' +
  "Error message: Expected ',' or '}' after property value in JSON at position 10";

describe('AI SDK UI message streams from streamText(...).toUIMessageStreamResponse(), at any chunking', () => {
  it('text: start … finish is one run; start-step/finish-step are the turn', async () => {
    expect(await decodeScenario(aiSdkScenarios.text)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('Hello '),
      text('wörld 🌍'),
      ...ending(0, 'no_tool_calls', 'Hello wörld 🌍'),
    ]);
  });

  it('reasoning parts become ReasoningDelta', async () => {
    expect(await decodeScenario(aiSdkScenarios.reasoning)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      reasoning('Think '),
      reasoning('first.'),
      text('Answer.'),
      ...ending(0, 'no_tool_calls', 'Answer.', 'Think first.'),
    ]);
  });

  it('tool calls: streamed input, a failing tool, an invalid input (tool-input-error) and the next step', async () => {
    expect(await decodeScenario(aiSdkScenarios.tools)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('Let me check.'),
      call('call-1', 'get_weather', '{"city":"Paris"}'),
      call('call-2', 'fail', '{}'),
      // tool-input-error: the raw argument text and a failed result; the SDK's tool-output-error after it is not a second result
      call('call-3', 'get_weather', '{"city": 5'),
      result('call-3', 'get_weather', INVALID_INPUT, false),
      result('call-2', 'fail', 'disk on fire', false),
      result('call-1', 'get_weather', '{"city":"Paris","celsius":18,"sky":"sunny"}'),
      continuing(0),
      turnBegin(1),
      text('It is 18 °C.'),
      ...ending(1, 'no_tool_calls', 'It is 18 °C.'),
    ]);
  });

  it('multi-step: parallel calls, reasoning and a call, then the answer: three turns', async () => {
    expect(await decodeScenario(aiSdkScenarios.multiStep)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      call('a', 'clock', '{}'),
      call('b', 'get_weather', '{"city":"Oslo"}'),
      result('a', 'clock', '12:00'),
      result('b', 'get_weather', '{"city":"Oslo","celsius":18,"sky":"sunny"}'),
      continuing(0),
      turnBegin(1),
      reasoning('One more.'),
      call('c', 'clock', '{}'),
      result('c', 'clock', '12:00'),
      continuing(1),
      turnBegin(2),
      text('Noon in Oslo.'),
      ...ending(2, 'no_tool_calls', 'Noon in Oslo.'),
    ]);
  });

  it('an error mid-answer is not terminal: the text after it is kept and the run ends failed at finish', async () => {
    expect(await decodeScenario(aiSdkScenarios.errorMidAnswer)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('Partial'),
      text(' rest'),
      { method: 'RunError', params: { message: 'model overloaded', code: 'provider' } },
      ...ending(0, 'error', 'Partial rest'),
    ]);
  });

  it('a provider failure (error, [DONE], no finish) is one provider error, not a truncated run', async () => {
    expect(await decodeScenario(aiSdkScenarios.providerDown)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      call('a', 'clock', '{}'),
      result('a', 'clock', '12:00'),
      // the held TurnEnd of finish-step is not delivered: the core closes the run at EOF and invents none
      { method: 'RunError', params: { message: 'provider unavailable (503)', code: 'provider' } },
      { method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error', turn: 0 } },
    ]);
  });

  it('abort ends the run as cancelled, keeping the partial answer, without a RunError', async () => {
    expect(await decodeScenario(aiSdkScenarios.aborted)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('Stopped '),
      text('here'),
      ...ending(0, 'cancelled', 'Stopped here'),
    ]);
  });

  it('a stream cut while a tool input streams ends truncated with the partial answer', async () => {
    const body = await aiSdkResponse(aiSdkScenarios.tools).text();
    const events = decodeEveryChunking(body.slice(0, body.indexOf('data: {"type":"tool-input-available"'))).events;
    expect(events.slice(-2)).toEqual([
      { method: 'RunError', params: { message: 'The stream ended before the run did (no RunEnd)', code: 'truncated' } },
      { method: 'RunEnd', params: { content: 'Let me check.', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error', turn: 0 } },
    ]);
  });

  it('two responses in one stream are two runs, each from turn 0', async () => {
    const body = (await aiSdkResponse(aiSdkScenarios.text).text()) + (await aiSdkResponse(aiSdkScenarios.aborted).text());
    expect(decodeEveryChunking(body).events).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      text('Hello '),
      text('wörld 🌍'),
      ...ending(0, 'no_tool_calls', 'Hello wörld 🌍'),
      RUN_BEGIN,
      turnBegin(0),
      text('Stopped '),
      text('here'),
      ...ending(0, 'cancelled', 'Stopped here'),
    ]);
  });

  it('data parts (before start and after finish), sources and message metadata open no run and pass through with includeUnknown', async () => {
    const body = await aiSdkResponseWithData(aiSdkScenarios.sources).text();
    const run = [RUN_BEGIN, turnBegin(0), text('See the source.'), ...ending(0, 'no_tool_calls', 'See the source.')];
    expect(decodeEveryChunking(body).events).toEqual(run);
    const all = decodeEveryChunking(body, { includeUnknown: true }).events;
    expect(all.filter((e) => !('unknown' in e))).toEqual(run);
    expect(all.map((e) => e.method)).toEqual([
      'data-status',
      'RunBegin',
      'TurnBegin',
      'source-url',
      'TextDelta',
      'TurnEnd',
      'RunEnd',
      'data-status',
    ]);
    expect(all[0]).toEqual({ method: 'data-status', params: { id: 's1', data: { phase: 'searching' } }, unknown: true });
    expect(all[3]).toEqual({ method: 'source-url', params: { sourceId: 'src-1', url: 'https://example.com/', title: 'Example' }, unknown: true });
  });
});

describe('AI SDK dialect, parts outside what streamText sends', () => {
  const decodeAll = (docs: Array<Record<string, unknown>>) => {
    const dialect = createAiSdkDialect(WireDecodeError);
    return docs.flatMap((doc, i) => dialect.decode(JSON.stringify(doc), i + 1));
  };

  it('opens the run for content before start (sendStart: false) and lets the later start join it', () => {
    expect(
      decodeAll([
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'early' },
        { type: 'start' },
        { type: 'text-delta', id: 't', delta: ' on' },
        { type: 'finish' },
      ]),
    ).toEqual([RUN_BEGIN, turnBegin(0), text('early'), text(' on'), ...ending(0, 'no_tool_calls', 'early on')]);
  });

  it('ignores preliminary outputs, maps a denied output to a failed result and keeps finish reasons other than stop', () => {
    expect(
      decodeAll([
        { type: 'start' },
        { type: 'tool-input-available', toolCallId: 'x', toolName: 'rm', input: { path: '/' } },
        { type: 'tool-output-available', toolCallId: 'x', output: 'working…', preliminary: true },
        { type: 'tool-output-denied', toolCallId: 'x' },
        { type: 'tool-output-available', toolCallId: 'x', output: 'too late' },
        { type: 'finish', finishReason: 'length' },
      ]),
    ).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      call('x', 'rm', '{"path":"/"}'),
      result('x', 'rm', 'rm error: denied by the user', false),
      ...ending(0, 'length', ''),
    ]);
  });

  it('a part after finish opens no run; a start does', () => {
    const events = decodeAll([
      { type: 'start' },
      { type: 'finish' },
      { type: 'error', errorText: 'late' },
      { type: 'text-delta', id: 't', delta: 'stray' },
      { type: 'start' },
      { type: 'abort' },
    ]);
    expect(events.map((e) => ('unknown' in e ? `unknown:${e.method}` : e.method))).toEqual([
      'RunBegin',
      'RunEnd',
      'unknown:error',
      'unknown:text-delta',
      'RunBegin',
      'RunEnd',
    ]);
    expect(events.at(-1)).toEqual({ method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'cancelled' } });
  });

  it('rejects bad parts with typed errors', () => {
    const dialect = createAiSdkDialect(WireDecodeError);
    const reason = (text: string): string | undefined => {
      try {
        dialect.decode(text, 1);
      } catch (err) {
        return (err as { reason?: string }).reason;
      }
      return undefined;
    };
    expect(reason('data: {"type":"start"}')).toBe('invalid-json');
    expect(reason('"start"')).toBe('not-an-event');
    expect(reason('{"delta": "x"}')).toBe('not-an-event');
    expect(reason('{"type": "text-delta", "id": "t", "delta": 1}')).toBe('invalid-params');
    expect(reason('{"type": "tool-input-available", "toolCallId": "c", "input": {}}')).toBe('invalid-params');
    expect(reason('{"type": "error"}')).toBe('invalid-params');
  });
});
