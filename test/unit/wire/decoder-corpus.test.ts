import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../../src/index.js';
import { decodeChunks, eventsOfLines, expectEverySplit, rpc, utf8 } from './decode-helpers.js';

const fixtures = new URL('../../fixtures/', import.meta.url);
/** Decoding a capture under every split is thousands of decodes: room for a busy machine. */
const SPLITS_TIMEOUT = 60_000;
const read = (path: string): Buffer => readFileSync(new URL(path, fixtures));
const ndjsonIn = (dir: string): string[] =>
  readdirSync(new URL(`${dir}/`, fixtures)).filter((f) => f.endsWith('.ndjson')).sort();

/** Drops what pagent and pagentv4 legitimately differ in: usage, stop_reason, and RunEnd's turn. */
function project(events: WireEvent[]): unknown[] {
  return events.map((e) => {
    const params: Record<string, unknown> = { ...e.params };
    if (e.method === 'StepEnd' || e.method === 'RunEnd') delete params['usage'];
    if (e.method === 'TurnEnd' || e.method === 'RunEnd') delete params['stop_reason'];
    if (e.method === 'RunEnd') delete params['turn'];
    return { method: e.method, params };
  });
}

const pagentFiles = ndjsonIn('pagent');
const v4Files = ndjsonIn('pagentv4');

/** Usage as the pagent v4 captures write it (OpenAI's detail fields, all zero). */
const usage = (completion: number, prompt: number) => ({
  completion_tokens: completion,
  prompt_tokens: prompt,
  total_tokens: completion + prompt,
  completion_tokens_details: {
    accepted_prediction_tokens: 0,
    audio_tokens: 0,
    reasoning_tokens: 0,
    rejected_prediction_tokens: 0,
  },
  prompt_tokens_details: { audio_tokens: 0, cached_tokens: 0 },
});

describe('the pagent corpus through the push decoder', () => {
  it('has the seven pagent captures and four pagentv4 captures', () => {
    expect(pagentFiles).toHaveLength(7);
    expect(v4Files).toEqual(['max_turns.ndjson', 'reasoning.ndjson', 'text.ndjson', 'tool_stream.ndjson']);
  });

  for (const file of pagentFiles) {
    it(`decodes pagent/${file} to the events its lines spell, however the bytes are cut`, () => {
      const bytes = read(`pagent/${file}`);
      expectEverySplit(bytes, eventsOfLines(bytes.toString('utf8')));
    }, SPLITS_TIMEOUT);
  }

  for (const file of ['unicode.ndjson', 'tool_stream.ndjson']) {
    it(`decodes pagent/${file} served as SSE with CRLF, however the bytes are cut`, () => {
      const text = read(`pagent/${file}`).toString('utf8');
      const sse = text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => `event: message\r\ndata: ${l}\r\n\r\n`)
        .join('');
      expectEverySplit(utf8(`: stream\r\n\r\n${sse}data: [DONE]\r\n\r\n`), eventsOfLines(text));
    }, SPLITS_TIMEOUT);
  }

  for (const file of v4Files.filter((f) => f !== 'max_turns.ndjson')) {
    it(`decodes pagentv4/${file} to its pagent twin's events, except usage, stop_reason and turn`, () => {
      const twin = eventsOfLines(read(`pagent/${file}`).toString('utf8'));
      expectEverySplit(read(`pagentv4/${file}`), project(twin), (out) => project(out.events as WireEvent[]));
    }, SPLITS_TIMEOUT);
  }

  it('fills a pagentv4 RunEnd from the run\'s last TurnResult (text)', () => {
    const out = decodeChunks([read('pagentv4/text.ndjson')]);
    expect(out.events.at(-1)).toEqual({
      method: 'RunEnd',
      params: {
        content: 'The answer is 4.',
        tool_calls: [],
        reasoning_content: '',
        usage: usage(7, 50),
        turn: 0,
        stop_reason: 'no_tool_calls',
      },
    });
  });

  it('decodes pagentv4/max_turns to the hand-written events: a third turn without the second TurnEnd', () => {
    const call = (n: number) => ({
      id: `call_loop_${n}`,
      type: 'function',
      function: { name: 'get_weather', arguments: `{"city":"City${n}"}` },
    });
    const result = (n: number) => ({
      method: 'ToolResult',
      params: {
        tool_call_id: `call_loop_${n}`,
        name: 'get_weather',
        content: `{"city": "City${n}", "temp": 15, "unit": "celsius"}`,
        ok: true,
      },
    });
    const begin = (n: number) => ({
      method: 'ToolCallBegin',
      params: { tool_call_id: `call_loop_${n}`, name: 'get_weather', arguments: `{"city":"City${n}"}` },
    });
    const text = (n: number) => `Turn ${n}: looking up. `;
    const expected = [
      { method: 'RunBegin', params: { user_input: 'Keep looking up weather' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TextDelta', params: { text: text(0) } },
      { method: 'StepEnd', params: { content: text(0), tool_calls: [call(0)], reasoning_content: '', usage: usage(7, 50) } },
      begin(0),
      result(0),
      { method: 'TurnEnd', params: { turn: 0, stopped: false, stop_reason: 'continuing' } },
      { method: 'TurnBegin', params: { turn: 1 } },
      { method: 'TextDelta', params: { text: text(1) } },
      { method: 'StepEnd', params: { content: text(1), tool_calls: [call(1)], reasoning_content: '', usage: usage(8, 80) } },
      begin(1),
      result(1),
      { method: 'TurnBegin', params: { turn: 2 } },
      { method: 'TextDelta', params: { text: text(2) } },
      { method: 'StepEnd', params: { content: text(2), tool_calls: [call(2)], reasoning_content: '', usage: usage(9, 110) } },
      { method: 'TurnEnd', params: { turn: 2, stopped: true, stop_reason: 'max_turns' } },
      {
        method: 'RunEnd',
        params: {
          content: text(2),
          tool_calls: [call(2)],
          reasoning_content: '',
          usage: usage(9, 110),
          turn: 2,
          stop_reason: 'max_turns',
        },
      },
    ];
    expectEverySplit(read('pagentv4/max_turns.ndjson'), expected);
  }, SPLITS_TIMEOUT);
});

describe('synthetic pagentv4 runs', () => {
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

  it('turns parallel flat tool calls into OpenAI-shaped calls and fills RunEnd from the last TurnResult', () => {
    const lines = [
      rpc('RunBegin', { user_input: 'Weather in Tokyo and 2+40?' }),
      rpc('TurnBegin', { turn: 0 }),
      rpc('TurnResult', {
        content: '',
        tool_calls: [
          { type: 'function', id: 'w1', name: 'get_weather', arguments: '{"city": "Tokyo"}' },
          { type: 'function', id: 'a1', name: 'add', arguments: '{"a": 2, "b": 40}' },
        ],
        reasoning_content: '',
        usage,
      }),
      rpc('ToolCallBegin', { tool_call_id: 'w1', name: 'get_weather', arguments: '{"city": "Tokyo"}' }),
      rpc('ToolCallBegin', { tool_call_id: 'a1', name: 'add', arguments: '{"a": 2, "b": 40}' }),
      rpc('ToolResult', { tool_call_id: 'a1', name: 'add', content: '42', ok: true }),
      rpc('ToolResult', { tool_call_id: 'w1', name: 'get_weather', content: '{"temp": 21}', ok: true }),
      rpc('TurnEnd', { turn: 0, stopped: false, stop_reason: 'continuing' }),
      rpc('TurnBegin', { turn: 1 }),
      rpc('TextDelta', { text: 'Tokyo 21, sum 42.' }),
      rpc('TurnResult', { content: 'Tokyo 21, sum 42.', tool_calls: [], reasoning_content: '', usage }),
      rpc('TurnEnd', { turn: 1, stopped: true, stop_reason: 'no_tool_calls' }),
      rpc('RunEnd', { turn: 1, stop_reason: 'no_tool_calls' }),
    ];
    const out = decodeChunks([lines.join('\n') + '\n']);
    expect(out.errors).toEqual([]);
    expect(out.events[2]).toEqual({
      method: 'StepEnd',
      params: {
        content: '',
        tool_calls: [
          { id: 'w1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Tokyo"}' } },
          { id: 'a1', type: 'function', function: { name: 'add', arguments: '{"a": 2, "b": 40}' } },
        ],
        reasoning_content: '',
        usage,
      },
    });
    expect(out.events.map((e) => e.method)).toEqual([
      'RunBegin', 'TurnBegin', 'StepEnd', 'ToolCallBegin', 'ToolCallBegin', 'ToolResult', 'ToolResult',
      'TurnEnd', 'TurnBegin', 'TextDelta', 'StepEnd', 'TurnEnd', 'RunEnd',
    ]);
    expect(out.events.at(-1)).toEqual({
      method: 'RunEnd',
      params: { content: 'Tokyo 21, sum 42.', tool_calls: [], reasoning_content: '', usage, turn: 1, stop_reason: 'no_tool_calls' },
    });
  });

  it('passes a failed tool through as ToolResult ok:false and ends with the last step\'s summary', () => {
    const lines = [
      rpc('RunBegin', { user_input: 'Run the explode tool' }),
      rpc('TurnBegin', { turn: 0 }),
      rpc('TurnResult', {
        content: '',
        tool_calls: [{ type: 'function', id: 'x1', name: 'explode', arguments: '{"reason": "disk full"}' }],
        reasoning_content: '',
        usage,
      }),
      rpc('ToolCallBegin', { tool_call_id: 'x1', name: 'explode', arguments: '{"reason": "disk full"}' }),
      rpc('ToolResult', { tool_call_id: 'x1', name: 'explode', content: 'explode error: boom: disk full', ok: false }),
      rpc('TurnEnd', { turn: 0, stopped: false, stop_reason: 'continuing' }),
      rpc('TurnBegin', { turn: 1 }),
      rpc('TextDelta', { text: 'The tool failed.' }),
      rpc('TurnResult', { content: 'The tool failed.', tool_calls: [], reasoning_content: '', usage: null }),
      rpc('TurnEnd', { turn: 1, stopped: true, stop_reason: 'no_tool_calls' }),
      rpc('RunEnd', { turn: 1, stop_reason: 'no_tool_calls' }),
    ];
    const out = decodeChunks([lines.join('\r\n')]);
    expect(out.errors).toEqual([]);
    expect(out.events[4]).toEqual({
      method: 'ToolResult',
      params: { tool_call_id: 'x1', name: 'explode', content: 'explode error: boom: disk full', ok: false },
    });
    expect(out.events.at(-1)).toEqual({
      method: 'RunEnd',
      params: { content: 'The tool failed.', tool_calls: [], reasoning_content: '', usage: null, turn: 1, stop_reason: 'no_tool_calls' },
    });
  });

  it('gives a pagentv4 RunEnd of a run without any TurnResult empty values and usage null', () => {
    const text = [rpc('RunBegin', { user_input: 'x' }), rpc('RunEnd', { turn: 0, stop_reason: 'error' })].join('\n');
    const out = decodeChunks([utf8(text)]);
    expect(out.events).toEqual([
      { method: 'RunBegin', params: { user_input: 'x' } },
      { method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null, turn: 0, stop_reason: 'error' } },
    ]);
  });

  it('does not carry a TurnResult over into the next run', () => {
    const step = { content: 'first', tool_calls: [], reasoning_content: '', usage: null };
    const text = [
      rpc('RunBegin', { user_input: 'a' }),
      rpc('TurnResult', step),
      rpc('RunEnd', { turn: 0, stop_reason: 'no_tool_calls' }),
      rpc('RunBegin', { user_input: 'b' }),
      rpc('RunEnd', { turn: 0, stop_reason: 'no_tool_calls' }),
    ].join('\n');
    const ends = decodeChunks([text]).events.filter((e) => e.method === 'RunEnd');
    expect(ends.map((e) => (e as WireEvent & { method: 'RunEnd' }).params.content)).toEqual(['first', '']);
  });
});
