import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createVictorDialect } from '../../../src/wire/dialects/victor.js';
import { createWireDecoder } from '../../../src/wire/decoder.js';
import { loadDialect } from '../../../src/wire/dialects/registry.js';
import { WireDecodeError } from '../../../src/errors.js';
import type { EventOf, ParamsOf, UnknownEvent, WireEvent, WireMethod } from '../../../src/wire/events.js';

// the push decoder below decodes synchronously once the Victor reader is loaded
await loadDialect('victor');

const fixtures = new URL('../../fixtures/victor/', import.meta.url);
const docsOf = (name: string): string[] =>
  readFileSync(new URL(name, fixtures), 'utf8').split('\n').filter((l) => l !== '');

/** Decodes documents with one dialect instance, as one stream would. */
function decodeAll(docs: Array<string | Record<string, unknown>>): Array<WireEvent | UnknownEvent> {
  const dialect = createVictorDialect(WireDecodeError);
  return docs.flatMap((doc, i) => dialect.decode(typeof doc === 'string' ? doc : JSON.stringify(doc), i + 1));
}

/** The params of every event of one method, in order. */
function paramsOf<M extends WireMethod>(events: Array<WireEvent | UnknownEvent>, method: M): Array<ParamsOf<M>> {
  return events.filter((e): e is EventOf<M> => e.method === method && !('unknown' in e)).map((e) => e.params as ParamsOf<M>);
}

const v = (event: string, fields: Record<string, unknown> = {}): Record<string, unknown> => ({ v: 1, event, ...fields });

const RUN_BEGIN = { method: 'RunBegin', params: { user_input: '' } };
const turnBegin = (turn: number) => ({ method: 'TurnBegin', params: { turn } });
const continuing = (turn: number) => ({ method: 'TurnEnd', params: { turn, stopped: false, stop_reason: 'continuing' } });

describe('Victor v1 dialect on the corpus', () => {
  it('maps the reference SSE example to one run of two turns', () => {
    expect(decodeAll(docsOf('docs_api_reference_sse_example.ndjson'))).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'ReasoningDelta', params: { text: '…' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'victor-1', name: 'shell', arguments: '{"cmd":"pytest -x"}' } },
      { method: 'ToolResult', params: { tool_call_id: 'victor-1', name: 'shell', content: '1 failed…', ok: true } },
      continuing(0),
      turnBegin(1),
      { method: 'TextDelta', params: { text: 'The failure is caused by…' } },
      { method: 'TurnEnd', params: { turn: 1, stopped: true, stop_reason: 'no_tool_calls' } },
      {
        method: 'RunEnd',
        params: {
          content: 'The failure is caused by…',
          tool_calls: [],
          reasoning_content: '',
          usage: null,
          turn: 1,
          stop_reason: 'no_tool_calls',
        },
      },
    ]);
  });

  it('maps the per-event reference to a run that ends in a provider error', () => {
    expect(decodeAll(docsOf('docs_api_reference_per_event.ndjson'))).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'ReasoningDelta', params: { text: 'The user wants the failing test fixed…' } },
      {
        method: 'ToolCallBegin',
        params: { tool_call_id: 'call-1', name: 'read', arguments: '{"path":"victor/framework/agent.py"}' },
      },
      {
        method: 'ToolResult',
        params: { tool_call_id: 'call-1', name: 'read', content: '…file output…', ok: true, elapsed_ms: 120, truncated: false },
      },
      continuing(0),
      turnBegin(1),
      { method: 'TextDelta', params: { text: 'The bug is in the retry loop: ' } },
      { method: 'RunError', params: { message: 'provider timeout after 120s', code: 'provider' } },
      { method: 'TurnEnd', params: { turn: 1, stopped: true, stop_reason: 'error' } },
      {
        method: 'RunEnd',
        params: {
          content: 'The bug is in the retry loop: ',
          tool_calls: [],
          reasoning_content: '',
          usage: null,
          turn: 1,
          stop_reason: 'error',
        },
      },
    ]);
  });

  it('maps the test-case collection to a finished run and an open run of unmatched results', () => {
    expect(decodeAll(docsOf('test_wire_events_cases.ndjson'))).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'ReasoningDelta', params: { text: 'hmm' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'victor-1', name: 'read', arguments: '{"path":"a.py"}' } },
      { method: 'ToolResult', params: { tool_call_id: 'victor-1', name: 'read', content: 'ok', ok: true } },
      continuing(0),
      turnBegin(1),
      { method: 'TextDelta', params: { text: 'hello' } },
      { method: 'RunError', params: { message: 'boom', code: 'provider' } },
      { method: 'TurnEnd', params: { turn: 1, stopped: true, stop_reason: 'error' } },
      {
        method: 'RunEnd',
        params: { content: 'hello', tool_calls: [], reasoning_content: '', usage: null, turn: 1, stop_reason: 'error' },
      },
      // second run: results whose calls were never seen, then a call; no stream_end (the core cuts it at EOF)
      RUN_BEGIN,
      turnBegin(0),
      { method: 'ToolResult', params: { tool_call_id: 'victor-unmatched-1', name: 'shell', content: 'exit 1', ok: false } },
      {
        method: 'ToolResult',
        params: { tool_call_id: 'call-7', name: 'read', content: 'full output text', ok: true, elapsed_ms: 120 },
      },
      {
        method: 'ToolResult',
        params: { tool_call_id: 'victor-unmatched-2', name: 'read', content: 'short', ok: true, truncated: true },
      },
      { method: 'ToolResult', params: { tool_call_id: 'victor-unmatched-3', name: 'shell', content: 'boom', ok: false } },
      continuing(0),
      turnBegin(1),
      { method: 'ToolCallBegin', params: { tool_call_id: 'call-1', name: 'read', arguments: '{"path":"a.py"}' } },
    ]);
  });
});

describe('Victor v1 dialect, synthetic cases', () => {
  it('matches two calls to the same tool without call_id to their results first in, first out', () => {
    const events = decodeAll([
      v('tool_call', { tool: 'read', arguments: { path: 'a.py' } }),
      v('tool_call', { tool: 'shell', arguments: { cmd: 'ls' } }),
      v('tool_call', { tool: 'read', arguments: { path: 'b.py' } }),
      v('tool_result', { tool: 'read', success: true, result: 'A' }),
      v('tool_result', { tool: 'read', success: false, result: 'B' }),
      v('tool_result', { tool: 'shell', success: true, result: 'listing' }),
    ]);
    expect(paramsOf(events, 'ToolCallBegin').map((p) => [p.tool_call_id, p.arguments])).toEqual([
      ['victor-1', '{"path":"a.py"}'],
      ['victor-2', '{"cmd":"ls"}'],
      ['victor-3', '{"path":"b.py"}'],
    ]);
    expect(paramsOf(events, 'ToolResult').map((p) => [p.tool_call_id, p.content, p.ok])).toEqual([
      ['victor-1', 'A', true],
      ['victor-3', 'B', false],
      ['victor-2', 'listing', true],
    ]);
  });

  it('counts calls with a call_id in the generated numbering and matches them by name too', () => {
    const events = decodeAll([
      v('tool_call', { tool: 'read', call_id: 'c-9' }),
      v('tool_call', { tool: 'read' }),
      v('tool_result', { tool: 'read', success: true, result: 'first' }),
      v('tool_result', { tool: 'read', success: true, result: 'second' }),
    ]);
    expect(paramsOf(events, 'ToolCallBegin').map((p) => p.tool_call_id)).toEqual(['c-9', 'victor-2']);
    expect(paramsOf(events, 'ToolResult').map((p) => p.tool_call_id)).toEqual(['c-9', 'victor-2']);
  });

  it('removes a call answered by call_id from the queue of its tool', () => {
    const events = decodeAll([
      v('tool_call', { tool: 'read' }),
      v('tool_call', { tool: 'read' }),
      v('tool_result', { tool: 'read', success: true, result: 'x', call_id: 'victor-1' }),
      v('tool_result', { tool: 'read', success: true, result: 'y' }),
    ]);
    expect(paramsOf(events, 'ToolResult').map((p) => p.tool_call_id)).toEqual(['victor-1', 'victor-2']);
  });

  it('gives a result whose call was never seen its call_id, or a generated unmatched id', () => {
    const events = decodeAll([
      v('tool_call', { tool: 'read' }),
      v('tool_result', { tool: 'shell', success: true, result: 'no call for me' }),
      v('tool_result', { tool: 'grep', success: true, result: 'mine', call_id: 'g-1' }),
      v('tool_result', { tool: 'read', success: true, result: 'matched' }),
      v('tool_result', { tool: 'read', success: true, result: 'one too many' }),
    ]);
    expect(paramsOf(events, 'ToolResult').map((p) => [p.tool_call_id, p.name])).toEqual([
      ['victor-unmatched-1', 'shell'],
      ['g-1', 'grep'],
      ['victor-1', 'read'],
      ['victor-unmatched-2', 'read'],
    ]);
  });

  it('reports an error where it arrives, keeps delivering text and ends the run with stop_reason "error" (the core moves the error)', () => {
    expect(
      decodeAll([v('content', { content: 'Partial ' }), v('error', { message: 'rate limited' }), v('content', { content: 'recovered' }), v('stream_end')]),
    ).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'TextDelta', params: { text: 'Partial ' } },
      { method: 'RunError', params: { message: 'rate limited', code: 'provider' } },
      { method: 'TextDelta', params: { text: 'recovered' } },
      { method: 'TurnEnd', params: { turn: 0, stopped: true, stop_reason: 'error' } },
      {
        method: 'RunEnd',
        params: { content: 'Partial recovered', tool_calls: [], reasoning_content: '', usage: null, turn: 0, stop_reason: 'error' },
      },
    ]);
  });

  it('leaves a run without stream_end open: no RunEnd is invented by the dialect', () => {
    const events = decodeAll([v('thinking', { content: 'a' }), v('content', { content: 'b' })]);
    expect(events.map((e) => e.method)).toEqual(['RunBegin', 'TurnBegin', 'ReasoningDelta', 'TextDelta']);
  });

  it('splits turns at the first model output after tool results, and only there', () => {
    const events = decodeAll([
      v('thinking', { content: 'plan' }),
      v('tool_call', { tool: 'a' }),
      v('tool_call', { tool: 'b' }),
      v('tool_result', { tool: 'a', success: true, result: '1' }),
      v('tool_result', { tool: 'b', success: true, result: '2' }),
      v('thinking', { content: 'again' }),
      v('tool_call', { tool: 'a' }),
      v('tool_result', { tool: 'a', success: true, result: '3' }),
      v('tool_call', { tool: 'c' }),
      v('tool_result', { tool: 'c', success: true, result: '4' }),
      v('content', { content: 'done' }),
      v('thinking', { content: ' late' }),
      v('stream_end'),
    ]);
    expect(events.map((e) => (e.method === 'TurnBegin' || e.method === 'TurnEnd' ? `${e.method}:${e.params.turn}` : e.method))).toEqual([
      'RunBegin',
      'TurnBegin:0',
      'ReasoningDelta',
      'ToolCallBegin',
      'ToolCallBegin',
      'ToolResult',
      'ToolResult',
      'TurnEnd:0',
      'TurnBegin:1',
      'ReasoningDelta',
      'ToolCallBegin',
      'ToolResult',
      'TurnEnd:1',
      'TurnBegin:2',
      'ToolCallBegin',
      'ToolResult',
      'TurnEnd:2',
      'TurnBegin:3',
      'TextDelta',
      'ReasoningDelta',
      'TurnEnd:3',
      'RunEnd',
    ]);
    expect(events.at(-1)).toEqual({
      method: 'RunEnd',
      params: { content: 'done', tool_calls: [], reasoning_content: ' late', usage: null, turn: 3, stop_reason: 'no_tool_calls' },
    });
  });

  it('takes the RunEnd content from the text after the last tool result only', () => {
    const events = decodeAll([
      v('content', { content: 'Let me look. ' }),
      v('tool_call', { tool: 'read' }),
      v('tool_result', { tool: 'read', success: true, result: 'x' }),
      v('stream_end'),
    ]);
    expect(events.slice(-2)).toEqual([
      { method: 'TurnEnd', params: { turn: 0, stopped: true, stop_reason: 'no_tool_calls' } },
      { method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null, turn: 0, stop_reason: 'no_tool_calls' } },
    ]);
  });

  it('writes arguments as compact JSON, "{}" when absent, and keeps string arguments as given', () => {
    const events = decodeAll([
      v('tool_call', { tool: 't', arguments: { b: [1, { c: 'é "q"' }], a: null } }),
      v('tool_call', { tool: 't' }),
      v('tool_call', { tool: 't', arguments: '{"raw": true}' }),
      v('tool_call', { tool: 't', arguments: [] }),
    ]);
    expect(paramsOf(events, 'ToolCallBegin').map((p) => p.arguments)).toEqual([
      '{"b":[1,{"c":"é \\"q\\""}],"a":null}',
      '{}',
      '{"raw": true}',
      '[]',
    ]);
  });

  it('JSON-stringifies non-string results and reads a missing result as empty text', () => {
    const events = decodeAll([
      v('tool_result', { tool: 't', success: true, result: { rows: [1, 2] } }),
      v('tool_result', { tool: 't', success: true, result: 42 }),
      v('tool_result', { tool: 't', success: true, result: null }),
      v('tool_result', { tool: 't', success: false }),
    ]);
    expect(paramsOf(events, 'ToolResult').map((p) => p.content)).toEqual(['{"rows":[1,2]}', '42', 'null', '']);
  });

  it('returns other events as unknown events without opening a run', () => {
    const dialect = createVictorDialect(WireDecodeError);
    expect(dialect.decode('{"v": 1, "event": "member_joined", "member": "ana", "__proto__": {"x": 1}}', 1)).toEqual([
      { method: 'member_joined', params: JSON.parse('{"member": "ana", "__proto__": {"x": 1}}'), unknown: true },
    ]);
    const [unknown] = dialect.decode('{"v": 1, "event": "usage", "__proto__": {"polluted": true}}', 2);
    expect(Object.getPrototypeOf(unknown?.params)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(dialect.decode('{"v": 1, "event": "content", "content": "x"}', 3).map((e) => e.method)).toEqual([
      'RunBegin',
      'TurnBegin',
      'TextDelta',
    ]);
    expect(dialect.decode('{"v": 1, "event": "usage", "input_tokens": 3}', 4)).toEqual([
      { method: 'usage', params: { input_tokens: 3 }, unknown: true },
    ]);
  });

  it('closes a whole empty run for a stream_end outside a run', () => {
    expect(decodeAll([v('stream_end')])).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'TurnEnd', params: { turn: 0, stopped: true, stop_reason: 'no_tool_calls' } },
      { method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null, turn: 0, stop_reason: 'no_tool_calls' } },
    ]);
  });

  it('starts each run afresh: turn 0, call numbering from 1, no error carried over', () => {
    const events = decodeAll([
      v('tool_call', { tool: 'x' }),
      v('error', { message: 'first run failed' }),
      v('stream_end'),
      v('tool_call', { tool: 'x' }),
      v('tool_result', { tool: 'x', success: true, result: 'r' }),
      v('content', { content: 'ok' }),
      v('stream_end'),
    ]);
    const second = events.slice(events.findIndex((e) => e.method === 'RunEnd') + 1);
    expect(second).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'ToolCallBegin', params: { tool_call_id: 'victor-1', name: 'x', arguments: '{}' } },
      { method: 'ToolResult', params: { tool_call_id: 'victor-1', name: 'x', content: 'r', ok: true } },
      continuing(0),
      turnBegin(1),
      { method: 'TextDelta', params: { text: 'ok' } },
      { method: 'TurnEnd', params: { turn: 1, stopped: true, stop_reason: 'no_tool_calls' } },
      { method: 'RunEnd', params: { content: 'ok', tool_calls: [], reasoning_content: '', usage: null, turn: 1, stop_reason: 'no_tool_calls' } },
    ]);
  });

  it('forgets the open run on reset, so the next document opens a new one', () => {
    const dialect = createVictorDialect(WireDecodeError);
    dialect.decode(JSON.stringify(v('tool_call', { tool: 'x' })), 1);
    dialect.decode(JSON.stringify(v('tool_result', { tool: 'x', success: true, result: '' })), 2);
    dialect.reset();
    expect(dialect.decode(JSON.stringify(v('tool_call', { tool: 'x' })), 3)).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'ToolCallBegin', params: { tool_call_id: 'victor-1', name: 'x', arguments: '{}' } },
    ]);
  });

  it('reads the legacy {"type": ...} shape like v1', () => {
    expect(decodeAll([{ type: 'content', content: 'hi' }, { type: 'stream_end' }]).map((e) => e.method)).toEqual([
      'RunBegin',
      'TurnBegin',
      'TextDelta',
      'TurnEnd',
      'RunEnd',
    ]);
  });

  it('uses a fallback message for an error event without one', () => {
    expect(decodeAll([v('error')])[2]).toEqual({ method: 'RunError', params: { message: 'Victor reported an error', code: 'provider' } });
  });
});

describe('Victor v1 dialect, bad documents', () => {
  const reject = (text: string, lineNumber = 7): WireDecodeError => {
    try {
      createVictorDialect(WireDecodeError).decode(text, lineNumber);
    } catch (err) {
      expect(err).toBeInstanceOf(WireDecodeError);
      return err as WireDecodeError;
    }
    throw new Error('expected a WireDecodeError');
  };

  it('rejects invalid JSON with its line number', () => {
    const err = reject('{"v": 1, "event": "content", "content": "x"', 12);
    expect([err.reason, err.lineNumber, err.line]).toEqual(['invalid-json', 12, '{"v": 1, "event": "content", "content": "x"']);
  });

  it('rejects a non-object, an unsupported version and a document without an event name', () => {
    expect(reject('[1]').reason).toBe('not-an-event');
    expect(reject('"content"').reason).toBe('not-an-event');
    const version = reject('{"v": 2, "event": "content", "content": "x"}');
    expect([version.reason, version.message]).toEqual(['not-an-event', 'Unsupported Victor wire version 2 (line 7)']);
    expect(reject('{"v": 1, "content": "x"}').reason).toBe('not-an-event');
    expect(reject('{"content": "x"}').reason).toBe('not-an-event');
  });

  it('rejects mistyped fields as invalid params and emits nothing for them', () => {
    const dialect = createVictorDialect(WireDecodeError);
    const bad = [
      '{"v": 1, "event": "content", "content": 5}',
      '{"v": 1, "event": "thinking"}',
      '{"v": 1, "event": "tool_call", "arguments": {}}',
      '{"v": 1, "event": "tool_call", "tool": "t", "call_id": 3}',
      '{"v": 1, "event": "tool_result", "tool": "t", "success": "yes"}',
    ];
    // a mistyped optional elapsed_ms / truncated is dropped, the result kept (docs/wire.md#bad-input; optional-fields.test.ts)
    for (const text of bad) {
      expect(() => dialect.decode(text, 1)).toThrowError(expect.objectContaining({ reason: 'invalid-params' }));
    }
    // nothing was opened by the rejected documents
    expect(dialect.decode('{"v": 1, "event": "content", "content": "x"}', 2)[0]).toEqual(RUN_BEGIN);
  });
});

/** Feeds Victor documents as one JSONL body through the decoder core, then ends it the given way. */
function decodeStream(
  docs: Array<Record<string, unknown>>,
  finish: 'end' | 'cancel' | 'stall' = 'end',
): Array<WireEvent | UnknownEvent> {
  const events: Array<WireEvent | UnknownEvent> = [];
  const decoder = createWireDecoder({ onEvent: (e: WireEvent) => void events.push(e) });
  decoder.feed(docs.map((d) => JSON.stringify(d) + '\n').join(''));
  if (finish === 'end') decoder.end();
  else if (finish === 'cancel') decoder.cancel();
  else decoder.fail('timeout', 'No data for 20 ms while a run was open');
  return events;
}

const runEnd = (params: Partial<ParamsOf<'RunEnd'>>) => ({
  method: 'RunEnd',
  params: { content: '', tool_calls: [], reasoning_content: '', usage: null, ...params },
});

describe('Victor errors through the decoder core: RunError comes right before the run ends', () => {
  it('delivers text sent after an error, then the error, the closing TurnEnd and RunEnd at stream_end', () => {
    expect(
      decodeStream([v('content', { content: 'Partial ' }), v('error', { message: 'rate limited' }), v('content', { content: 'recovered' }), v('stream_end')]),
    ).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'TextDelta', params: { text: 'Partial ' } },
      { method: 'TextDelta', params: { text: 'recovered' } },
      { method: 'RunError', params: { message: 'rate limited', code: 'provider' } },
      { method: 'TurnEnd', params: { turn: 0, stopped: true, stop_reason: 'error' } },
      runEnd({ content: 'Partial recovered', turn: 0, stop_reason: 'error' }),
    ]);
  });

  it('delivers thinking and a tool round sent after an error before the error', () => {
    expect(
      decodeStream([
        v('error', { message: 'tool budget low' }),
        v('thinking', { content: 'hm' }),
        v('tool_call', { tool: 'ls', call_id: 'c1' }),
        v('tool_result', { tool: 'ls', call_id: 'c1', success: true, result: 'a.txt' }),
        v('content', { content: 'Done' }),
        v('stream_end'),
      ]),
    ).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'ReasoningDelta', params: { text: 'hm' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'c1', name: 'ls', arguments: '{}' } },
      { method: 'ToolResult', params: { tool_call_id: 'c1', name: 'ls', content: 'a.txt', ok: true } },
      continuing(0),
      turnBegin(1),
      { method: 'TextDelta', params: { text: 'Done' } },
      { method: 'RunError', params: { message: 'tool budget low', code: 'provider' } },
      { method: 'TurnEnd', params: { turn: 1, stopped: true, stop_reason: 'error' } },
      runEnd({ content: 'Done', turn: 1, stop_reason: 'error' }),
    ]);
  });

  it('ends a run cut after an error (EOF without stream_end) with that provider error and no truncated one', () => {
    expect(decodeStream([v('content', { content: 'a' }), v('error', { message: 'boom' }), v('content', { content: 'b' })])).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'TextDelta', params: { text: 'a' } },
      { method: 'TextDelta', params: { text: 'b' } },
      { method: 'RunError', params: { message: 'boom', code: 'provider' } },
      runEnd({ content: 'ab', turn: 0, stop_reason: 'error' }),
    ]);
  });

  it('ends a run that stalls after an error with that provider error, not a timeout one', () => {
    expect(decodeStream([v('content', { content: 'a' }), v('error', { message: 'boom' })], 'stall')).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'TextDelta', params: { text: 'a' } },
      { method: 'RunError', params: { message: 'boom', code: 'provider' } },
      runEnd({ content: 'a', turn: 0, stop_reason: 'error' }),
    ]);
  });

  it('ends a run aborted after an error with that provider error and stop_reason "error"', () => {
    expect(decodeStream([v('error', { message: 'boom' }), v('content', { content: 'a' })], 'cancel')).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'TextDelta', params: { text: 'a' } },
      { method: 'RunError', params: { message: 'boom', code: 'provider' } },
      runEnd({ content: 'a', turn: 0, stop_reason: 'error' }),
    ]);
  });

  it('joins two errors of one run into its one RunError', () => {
    const events = decodeStream([v('error', { message: 'rate limited' }), v('content', { content: 'x' }), v('error', { message: 'gave up' }), v('stream_end')]);
    expect(events.filter((e) => e.method === 'RunError')).toEqual([
      { method: 'RunError', params: { message: 'rate limited; gave up', code: 'provider' } },
    ]);
    expect(events.map((e) => e.method).slice(-3)).toEqual(['RunError', 'TurnEnd', 'RunEnd']);
  });

  it('carries no error into the next run', () => {
    const events = decodeStream([v('error', { message: 'first' }), v('stream_end'), v('content', { content: 'ok' }), v('stream_end')]);
    const second = events.slice(events.findIndex((e) => e.method === 'RunEnd') + 1);
    expect(second).toEqual([
      RUN_BEGIN,
      turnBegin(0),
      { method: 'TextDelta', params: { text: 'ok' } },
      { method: 'TurnEnd', params: { turn: 0, stopped: true, stop_reason: 'no_tool_calls' } },
      runEnd({ content: 'ok', turn: 0, stop_reason: 'no_tool_calls' }),
    ]);
  });
});
