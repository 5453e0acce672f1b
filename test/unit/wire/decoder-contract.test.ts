import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  createWireDecoder,
  WireDecodeError,
  type UnknownEvent,
  type WireEvent,
} from '../../../src/index.js';
import { decodeChunks, EMPTY_STEP, eventsOfLines, rpc, utf8 } from './decode-helpers.js';

const fixtures = new URL('../../fixtures/', import.meta.url);
const text = (path: string): string => readFileSync(new URL(path, fixtures), 'utf8');
const linesOf = (path: string): string[] => text(path).split('\n').filter((l) => l !== '');

const runBegin = (user_input = ''): WireEvent => ({ method: 'RunBegin', params: { user_input } });
const truncated = { method: 'RunError', params: { message: expect.any(String), code: 'truncated' } };
const delta = (t: string): string => rpc('TextDelta', { text: t });

describe('runs: the termination contract', () => {
  it('ends a capture cut mid-line with a decode error for the partial line, RunError truncated and RunEnd error', () => {
    const lines = linesOf('pagent/text.ndjson');
    const cut = lines.slice(0, 5).join('\n') + '\n' + lines[5]!.slice(0, 30);
    const out = decodeChunks([utf8(cut)]);
    expect(out.errors.map((e) => [e.reason, e.lineNumber])).toEqual([['invalid-json', 6]]);
    expect(out.events).toEqual([
      ...eventsOfLines(lines.slice(0, 5).join('\n')),
      truncated,
      {
        method: 'RunEnd',
        params: { content: 'The answer is ', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error', turn: 0 },
      },
    ]);
  });

  it('adds nothing when a capture is cut between runs', () => {
    const body = text('pagent/text.ndjson') + '\n\n';
    const out = decodeChunks([body]);
    expect(out.events).toEqual(eventsOfLines(text('pagent/text.ndjson')));
    expect(out.errors).toEqual([]);
  });

  it('reports a run cut during tool execution with the summary of its last StepEnd', () => {
    const lines = linesOf('pagent/tool_stream.ndjson');
    const step = (JSON.parse(lines[2]!) as { params: Record<string, unknown> }).params;
    const out = decodeChunks([lines.slice(0, 4).join('\n') + '\n']);
    expect(out.events.slice(-2)).toEqual([truncated, { method: 'RunEnd', params: { ...step, stop_reason: 'error', turn: 0 } }]);
  });

  it('reports the reasoning of the step in flight in a cut run', () => {
    const lines = linesOf('pagent/reasoning.ndjson');
    const out = decodeChunks([lines.slice(0, 6).join('\n')]);
    expect(out.events.at(-1)).toEqual({
      method: 'RunEnd',
      params: {
        content: '2 + 2 ',
        tool_calls: [],
        reasoning_content: 'The user asks for 2+2.\nThat is 4.',
        usage: null,
        stop_reason: 'error',
        turn: 0,
      },
    });
  });

  it('keeps every delta of a long cut run in order, text and reasoning apart, from its last TurnBegin', () => {
    const texts = Array.from({ length: 300 }, (_, i) => `t${i} `);
    const thoughts = Array.from({ length: 130 }, (_, i) => `r${i} `);
    const body = [
      rpc('TurnBegin', { turn: 0 }),
      ...texts.slice(0, 100).map(delta),
      rpc('TurnBegin', { turn: 1 }),
      ...texts.flatMap((t, i) => (i < thoughts.length ? [delta(t), rpc('ReasoningDelta', { text: thoughts[i]! })] : [delta(t)])),
    ].join('\n');
    const out = decodeChunks([body]);
    expect(out.events.at(-1)).toEqual({
      method: 'RunEnd',
      params: { ...EMPTY_STEP, content: texts.join(''), reasoning_content: thoughts.join(''), stop_reason: 'error', turn: 1 },
    });
  });

  it('starts the text of a cut run over at each TurnBegin', () => {
    const lines = linesOf('pagent/tool_error.ndjson');
    const out = decodeChunks([lines.slice(0, 8).join('\n')]);
    expect(out.events.at(-1)).toEqual({
      method: 'RunEnd',
      params: { ...EMPTY_STEP, content: 'The tool failed: ', stop_reason: 'error', turn: 1 },
    });
  });

  it('resets the text at a ToolResult in a turn without StepEnd', () => {
    const body = [delta('Looking. '), rpc('ToolResult', { tool_call_id: 'c', name: 'n', content: 'r' }), delta('Found')].join('\n');
    const out = decodeChunks([body]);
    expect(out.events.at(-1)).toEqual({ method: 'RunEnd', params: { ...EMPTY_STEP, content: 'Found', stop_reason: 'error' } });
  });

  it('decodes two runs in one stream', () => {
    const body = text('pagent/text.ndjson') + text('pagent/reasoning.ndjson');
    const out = decodeChunks([body]);
    expect(out.events).toEqual([...eventsOfLines(text('pagent/text.ndjson')), ...eventsOfLines(text('pagent/reasoning.ndjson'))]);
  });

  it('closes an open run as truncated when a RunBegin arrives', () => {
    const first = linesOf('pagent/text.ndjson').slice(0, 5);
    const body = first.join('\n') + '\n' + text('pagent/reasoning.ndjson');
    const out = decodeChunks([body]);
    expect(out.events).toEqual([
      ...eventsOfLines(first.join('\n')),
      truncated,
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'The answer is ', stop_reason: 'error', turn: 0 } },
      ...eventsOfLines(text('pagent/reasoning.ndjson')),
    ]);
  });

  it('opens a run with a synthetic RunBegin for an event outside a run, also for a lone RunEnd', () => {
    const end = rpc('RunEnd', EMPTY_STEP);
    const out = decodeChunks([[delta('a'), end, end].join('\n')]);
    expect(out.events).toEqual([
      runBegin(),
      { method: 'TextDelta', params: { text: 'a' } },
      { method: 'RunEnd', params: EMPTY_STEP },
      runBegin(),
      { method: 'RunEnd', params: EMPTY_STEP },
    ]);
  });

  it('keeps the server\'s RunError and adds no second one at EOF', () => {
    const body = [rpc('RunBegin', { user_input: 'q' }), rpc('RunError', { message: 'rate limited', code: 'provider', status: 429 })].join('\n');
    const out = decodeChunks([body]);
    expect(out.events).toEqual([
      runBegin('q'),
      { method: 'RunError', params: { message: 'rate limited', code: 'provider', status: 429 } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, stop_reason: 'error' } },
    ]);
  });

  it('delivers one RunError per run: a second one adds its message to the first and keeps the first code', () => {
    const body = [
      rpc('RunError', { message: 'one', code: 'provider', status: 502 }),
      rpc('RunError', { message: 'two', code: 'http' }),
      rpc('RunError', { message: 'one', code: 'provider' }),
      rpc('RunEnd', EMPTY_STEP),
    ].join('\n');
    expect(decodeChunks([body]).events).toEqual([
      runBegin(),
      { method: 'RunError', params: { message: 'one; two', code: 'provider', status: 502 } },
      { method: 'RunEnd', params: EMPTY_STEP },
    ]);
  });

  it('moves a server RunError sent mid-run to just before the RunEnd, delivering what came after it', () => {
    const body = [
      rpc('RunBegin', { user_input: 'q' }),
      rpc('TurnBegin', { turn: 0 }),
      delta('Hi'),
      rpc('RunError', { message: 'overloaded', code: 'provider' }),
      delta(' there'),
      rpc('ToolCallBegin', { tool_call_id: 'c1', name: 'ls', arguments: '{}' }),
      rpc('RunEnd', { ...EMPTY_STEP, content: 'Hi there', stop_reason: 'error' }),
    ].join('\n');
    expect(decodeChunks([body]).events).toEqual([
      runBegin('q'),
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TextDelta', params: { text: 'Hi' } },
      { method: 'TextDelta', params: { text: ' there' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'c1', name: 'ls', arguments: '{}' } },
      { method: 'RunError', params: { message: 'overloaded', code: 'provider' } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'Hi there', stop_reason: 'error' } },
    ]);
  });

  it('keeps a server order of RunError, closing TurnEnd, RunEnd as it is', () => {
    const closing = { turn: 0, stopped: true, stop_reason: 'error' };
    const body = [
      rpc('TurnBegin', { turn: 0 }),
      rpc('RunError', { message: 'x', code: 'provider' }),
      rpc('TurnEnd', closing),
      rpc('RunEnd', { ...EMPTY_STEP, stop_reason: 'error' }),
    ].join('\n');
    expect(decodeChunks([body]).events).toEqual([
      runBegin(),
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'RunError', params: { message: 'x', code: 'provider' } },
      { method: 'TurnEnd', params: closing },
      { method: 'RunEnd', params: { ...EMPTY_STEP, stop_reason: 'error' } },
    ]);
  });

  it('delivers a TurnEnd that follows an error in place when the run goes on, and the error at the end', () => {
    const body = [
      rpc('TurnBegin', { turn: 0 }),
      rpc('RunError', { message: 'x', code: 'provider' }),
      rpc('TurnEnd', { turn: 0, stopped: false, stop_reason: 'continuing' }),
      rpc('TurnBegin', { turn: 1 }),
      delta('late'),
    ].join('\n');
    expect(decodeChunks([body]).events).toEqual([
      runBegin(),
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TurnEnd', params: { turn: 0, stopped: false, stop_reason: 'continuing' } },
      { method: 'TurnBegin', params: { turn: 1 } },
      { method: 'TextDelta', params: { text: 'late' } },
      { method: 'RunError', params: { message: 'x', code: 'provider' } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'late', stop_reason: 'error', turn: 1 } },
    ]);
  });

  it('closes a run that carried a RunError, when a new RunBegin comes, with that error and no truncated one', () => {
    const body = [rpc('RunError', { message: 'x', code: 'provider' }), delta('a'), rpc('RunBegin', { user_input: 'next' })].join('\n') + '\n';
    expect(decodeChunks([body], { finish: 'cancel' }).events).toEqual([
      runBegin(),
      { method: 'TextDelta', params: { text: 'a' } },
      { method: 'RunError', params: { message: 'x', code: 'provider' } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'a', stop_reason: 'error' } },
      runBegin('next'),
      { method: 'RunEnd', params: { ...EMPTY_STEP, stop_reason: 'cancelled' } },
    ]);
  });

  it('on a stall after a server RunError, delivers that error and no timeout one', () => {
    const events: WireEvent[] = [];
    const decoder = createWireDecoder({ onEvent: (e) => void events.push(e) });
    decoder.feed([rpc('RunError', { message: 'x', code: 'provider' }), delta('a')].join('\n') + '\n');
    decoder.fail('timeout', 'No data for 20 ms');
    expect(events).toEqual([
      runBegin(),
      { method: 'TextDelta', params: { text: 'a' } },
      { method: 'RunError', params: { message: 'x', code: 'provider' } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'a', stop_reason: 'error' } },
    ]);
  });

  it('on cancel after a server RunError, delivers that error and ends the run as failed, not cancelled', () => {
    const body = [rpc('RunError', { message: 'x', code: 'provider' }), delta('a')].join('\n') + '\n';
    expect(decodeChunks([body], { finish: 'cancel' }).events).toEqual([
      runBegin(),
      { method: 'TextDelta', params: { text: 'a' } },
      { method: 'RunError', params: { message: 'x', code: 'provider' } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'a', stop_reason: 'error' } },
    ]);
  });

  it('invents no TurnEnd for a run cut inside a turn', () => {
    const out = decodeChunks([[rpc('TurnBegin', { turn: 3 }), delta('x')].join('\n')]);
    expect(out.events.map((e) => e.method)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'RunEnd']);
    expect(out.events.at(-1)).toMatchObject({ params: { turn: 3, content: 'x' } });
  });

  it('cancels an open run with RunEnd cancelled and no RunError, and ignores whatever follows', () => {
    const lines = linesOf('pagent/text.ndjson');
    const events: WireEvent[] = [];
    const decoder = createWireDecoder({ onEvent: (e) => void events.push(e) });
    decoder.feed(lines.slice(0, 4).join('\n') + '\n' + lines[4]!.slice(0, 10));
    expect(decoder.runOpen).toBe(true);
    decoder.cancel();
    expect(decoder.runOpen).toBe(false);
    decoder.feed(lines[4]!.slice(10) + '\n' + lines.slice(5).join('\n'));
    decoder.end();
    expect(events).toEqual([
      ...eventsOfLines(lines.slice(0, 4).join('\n')),
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'The answer ', stop_reason: 'cancelled', turn: 0 } },
    ]);
  });

  it('adds nothing on cancel or fail when no run is open', () => {
    const events: WireEvent[] = [];
    const decoder = createWireDecoder({ onEvent: (e) => void events.push(e) });
    decoder.feed(text('pagent/text.ndjson'));
    const before = events.length;
    decoder.fail('timeout', 'stalled');
    decoder.cancel();
    expect(events.length).toBe(before);
  });

  it('fails an open run with the given code, once, and stops decoding', () => {
    const events: WireEvent[] = [];
    const decoder = createWireDecoder({ onEvent: (e) => void events.push(e) });
    decoder.feed(delta('partial') + '\n');
    decoder.fail('timeout', 'No data for 20 ms');
    decoder.fail('network', 'again');
    decoder.feed(delta('late') + '\n');
    decoder.end();
    expect(events).toEqual([
      runBegin(),
      { method: 'TextDelta', params: { text: 'partial' } },
      { method: 'RunError', params: { message: 'No data for 20 ms', code: 'timeout' } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, content: 'partial', stop_reason: 'error' } },
    ]);
  });

  it('ends an empty or whitespace-only body with no events at all', () => {
    expect(decodeChunks([]).events).toEqual([]);
    expect(decodeChunks(['\n \r\n\t\n']).events).toEqual([]);
  });

  it('reports an HTML page as one run with RunError decode naming what the body looked like', () => {
    const out = decodeChunks([utf8('<!doctype html>\n<html><body>Welcome</body></html>\n')]);
    expect(out.events).toEqual([
      runBegin(),
      { method: 'RunError', params: { code: 'decode', message: expect.stringMatching(/HTML.*<!doctype html>/s) } },
      { method: 'RunEnd', params: { ...EMPTY_STEP, stop_reason: 'error' } },
    ]);
    expect(out.errors).toHaveLength(2);
  });

  it('reports a body of non-SSE text forced as SSE as a decode failure', () => {
    const out = decodeChunks(['Service unavailable\n'], { format: 'sse' });
    expect(out.events.map((e) => e.method)).toEqual(['RunBegin', 'RunError', 'RunEnd']);
    expect(out.events[1]).toMatchObject({ params: { code: 'decode', message: expect.stringContaining('Service unavailable') } });
  });

  it('does not call an SSE stream of comments only a decode failure', () => {
    expect(decodeChunks([': ping\n\n: ping\n\n']).events).toEqual([]);
  });
});

describe('bad input', () => {
  const good = delta('ok');
  const cases: Array<[string, string, WireDecodeError['reason']]> = [
    ['invalid JSON', '{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": "x"}', 'invalid-json'],
    ['a non-object', '[1, 2, 3]', 'not-an-event'],
    ['a JSON string', '"TextDelta"', 'not-an-event'],
    ['a wrong jsonrpc', '{"jsonrpc": "1.0", "method": "TextDelta", "params": {"text": "x"}}', 'not-an-event'],
    ['an id', '{"jsonrpc": "2.0", "id": 1, "method": "TextDelta", "params": {"text": "x"}}', 'not-an-event'],
    ['non-object params', '{"jsonrpc": "2.0", "method": "TextDelta", "params": [1]}', 'invalid-params'],
    ['a null id', '{"jsonrpc": "2.0", "id": null, "method": "TextDelta", "params": {"text": "x"}}', 'not-an-event'],
    ['null params', '{"jsonrpc": "2.0", "method": "TextDelta", "params": null}', 'invalid-params'],
    ['a delta without text', rpc('TextDelta', { index: 0 }), 'invalid-params'],
    ['a delta whose text is a number', rpc('TextDelta', { text: 1 }), 'invalid-params'],
    ['a delta whose text is null', rpc('TextDelta', { text: null }), 'invalid-params'],
    ['a missing field', rpc('ToolResult', { tool_call_id: 'c', name: 'n' }), 'invalid-params'],
    ['a wrongly typed field', rpc('TurnBegin', { turn: '0' }), 'invalid-params'],
    ['a malformed tool call', rpc('StepEnd', { ...EMPTY_STEP, tool_calls: [{ id: 1 }] }), 'invalid-params'],
  ];
  for (const [what, line, reason] of cases) {
    it(`reports a line with ${what} as one WireDecodeError "${reason}" with its line number, and goes on`, () => {
      const out = decodeChunks([[rpc('RunBegin', { user_input: 'q' }), '', line, good].join('\n') + '\n']);
      expect(out.errors).toHaveLength(1);
      const err = out.errors[0]!;
      expect(err).toBeInstanceOf(WireDecodeError);
      expect(err.name).toBe('WireDecodeError');
      expect(err.reason).toBe(reason);
      expect(err.lineNumber).toBe(3);
      expect(err.line).toBe(line.slice(0, 200));
      expect(out.events.slice(0, 2)).toEqual([runBegin('q'), { method: 'TextDelta', params: { text: 'ok' } }]);
    });
  }

  it('drops a line over maxLineBytes with line-too-long, its line number, and decodes the next line', () => {
    const long = delta('x'.repeat(500));
    const body = [good, long, good].join('\n');
    const chunks: string[] = [];
    for (let i = 0; i < body.length; i += 7) chunks.push(body.slice(i, i + 7));
    const out = decodeChunks(chunks, { maxLineBytes: 100 });
    expect(out.errors.map((e) => [e.reason, e.lineNumber])).toEqual([['line-too-long', 2]]);
    expect(out.events.filter((e) => e.method === 'TextDelta')).toHaveLength(2);
  });

  it('skips an unknown method silently in a stream', () => {
    const out = decodeChunks([[rpc('RunBegin', { user_input: '' }), rpc('Heartbeat', { n: 1 }), good].join('\n')]);
    expect(out.errors).toEqual([]);
    expect(out.events.map((e) => e.method)).toEqual(['RunBegin', 'TextDelta', 'RunError', 'RunEnd']);
  });

  it('yields an unknown method as UnknownEvent with includeUnknown, without opening a run', () => {
    const events: Array<WireEvent | UnknownEvent> = [];
    const decoder = createWireDecoder({ includeUnknown: true, onEvent: (e) => void events.push(e) });
    decoder.feed(rpc('Heartbeat', { n: 1 }) + '\n');
    decoder.end();
    expect(events).toEqual([{ method: 'Heartbeat', params: { n: 1 }, unknown: true }]);
  });

  describe('odd but valid lines', () => {
    afterEach(() => {
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('decodes NUL characters and lone surrogate escapes', () => {
      const line = '{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": "a\\u0000b\\ud800c\\udc00"}}';
      const out = decodeChunks([line]);
      expect(out.errors).toEqual([]);
      expect(out.events[1]).toEqual({ method: 'TextDelta', params: { text: 'a\u0000b\ud800c\udc00' } });
    });

    it('keeps __proto__ keys inert, also in a pagentv4 RunEnd filled from a TurnResult', () => {
      const body = [
        '{"jsonrpc": "2.0", "method": "RunBegin", "params": {"user_input": "x", "__proto__": {"polluted": true}}}',
        '{"jsonrpc": "2.0", "method": "TurnResult", "params": {"content": "c", "tool_calls": [], "reasoning_content": "", "usage": {"__proto__": {"polluted": 1}}}}',
        '{"jsonrpc": "2.0", "method": "RunEnd", "params": {"turn": 0, "__proto__": {"polluted": true}}, "__proto__": {"polluted": true}}',
      ].join('\n');
      const out = decodeChunks([body]);
      expect(out.errors).toEqual([]);
      expect(out.events.map((e) => e.method)).toEqual(['RunBegin', 'StepEnd', 'RunEnd']);
      const end = out.events[2]!.params as Record<string, unknown>;
      expect(Object.getPrototypeOf(end)).toBe(Object.prototype);
      expect(Object.prototype.hasOwnProperty.call(end, '__proto__')).toBe(true);
      expect(end['content']).toBe('c');
    });

    it('accepts compact JSON, extra keys and U+2028 in text', () => {
      const out = decodeChunks(['{"jsonrpc":"2.0","method":"TextDelta","params":{"text":"a\u2028b","extra":[1]}}\n']);
      expect(out.events[1]).toEqual({ method: 'TextDelta', params: { text: 'a\u2028b', extra: [1] } });
    });
  });
});

describe('types', () => {
  it('hands onEvent WireEvent, or WireEvent | UnknownEvent only with includeUnknown: true', () => {
    const seen: string[] = [];
    createWireDecoder({
      onEvent: (e) => {
        expectTypeOf(e).toEqualTypeOf<WireEvent>();
        seen.push(e.method);
      },
    }).end();
    createWireDecoder({ includeUnknown: true, onEvent: (e) => expectTypeOf(e).toEqualTypeOf<WireEvent | UnknownEvent>() });
    // @ts-expect-error a WireEvent-only handler cannot take unknown events
    createWireDecoder({ includeUnknown: true, onEvent: (e: WireEvent) => void e });
    const decoder = createWireDecoder({ onEvent: () => {} });
    expectTypeOf(decoder.runOpen).toEqualTypeOf<boolean>();
    // @ts-expect-error fail() takes only the codes the async adapters use
    decoder.fail('decode', 'x');
    expect(seen).toEqual([]);
  });
});

describe('callbacks', () => {
  it('calls onLine with each raw document, bad ones included, blank lines not', () => {
    const lines = [rpc('RunBegin', { user_input: '' }), 'garbage', '', delta('x')];
    const out = decodeChunks([lines.join('\r\n') + '\r\n']);
    expect(out.lines).toEqual([lines[0], 'garbage', lines[3]]);
  });
});

describe('cost per line', () => {
  it('delivers a delta\'s params as sent, fields it does not know included, in a run and after a step alike', () => {
    const params = { text: 'a', index: 2, annotations: [{ type: 'x' }] };
    const lines = [rpc('RunBegin', { user_input: 'q' }), rpc('TextDelta', params), rpc('StepEnd', EMPTY_STEP), rpc('TextDelta', params)];
    const out = decodeChunks([lines.join('\n') + '\n']);
    expect(out.errors).toEqual([]);
    expect(out.events.filter((e) => e.method === 'TextDelta')).toEqual([
      { method: 'TextDelta', params },
      { method: 'TextDelta', params },
    ]);
  });

  it('parses each line at most once, a delta in its usual spelling by its text alone, so the work per line does not grow with the stream', () => {
    const deltas = (from: number): string[] => Array.from({ length: 1000 }, (_, i) => delta(`token ${(from + i) % 10} `));
    // deltas before a run (no run open), in a run, and after a step ended: every way a line is read
    const lines = [
      ...deltas(0),
      rpc('RunBegin', { user_input: 'q' }),
      ...deltas(1),
      rpc('StepEnd', EMPTY_STEP),
      ...deltas(2),
      rpc('TurnEnd', { turn: 0, stopped: false }),
    ];
    const body = utf8(lines.join('\n') + '\n');
    const parsedChars: number[] = [];
    const parse = JSON.parse;
    const spy = vi.spyOn(JSON, 'parse').mockImplementation((textArg: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      parsedChars.push(textArg.length);
      return parse(textArg, reviver);
    });
    try {
      const events: WireEvent[] = [];
      const decoder = createWireDecoder({ onEvent: (e) => void events.push(e) });
      // 13-byte chunks: lines are always cut somewhere
      for (let i = 0; i < body.length; i += 13) decoder.feed(body.subarray(i, i + 13));
      decoder.end();
      expect(events.filter((e) => e.method === 'TextDelta')).toHaveLength(3000);
      expect(events.map((e) => e.method).filter((m) => m !== 'TextDelta')).toEqual(['RunBegin', 'RunError', 'RunEnd', 'RunBegin', 'StepEnd', 'TurnEnd', 'RunError', 'RunEnd']);
    } finally {
      spy.mockRestore();
    }
    // one parse to detect the dialect, then one per line: the whole line, or only the text's value for a
    // delta delivered at once; the first delta before a run opens it, the first after StepEnd starts a
    // new step, and each of those two is read in full
    const value = (line: string): number => JSON.stringify((JSON.parse(line) as { params: { text: string } }).params.text).length;
    const whole = (l: string): number => l.length;
    expect(parsedChars).toEqual([
      lines[0]!.length,
      ...deltas(0).map((l, i) => (i === 0 ? whole(l) : value(l))),
      whole(lines[1000]!),
      ...deltas(1).map(value),
      whole(lines[2001]!),
      ...deltas(2).map((l, i) => (i === 0 ? whole(l) : value(l))),
      whole(lines[3002]!),
    ]);
  }, 30_000);
});
