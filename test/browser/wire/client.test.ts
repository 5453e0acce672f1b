import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  decodeEventLine,
  WireClient,
  type UnknownEvent,
  type WireDecodeError,
  type WireEvent,
} from '../../../src/index.js';
import type { WireScript } from '../../server/wire.js';
import { api, collect, methods, projectRuns, rpc, victorSse, VICTOR_REFERENCE_RUN, type RunProjection } from './client-helpers.js';

const pagentCorpus = import.meta.glob<string>('../../fixtures/pagent/*.ndjson', { query: '?raw', import: 'default', eager: true });
const fileName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const linesOf = (text: string): string[] => text.split('\n').filter((l) => l !== '');

const scripted = (script: WireScript, client = new WireClient(`${api}/wire/script`)) => collect(client.stream(script));

describe('WireClient streaming pagent NDJSON and SSE', () => {
  it.each(Object.entries(pagentCorpus).map(([path, text]) => [fileName(path), text]))(
    'decodes the pagent capture %s in small random chunks to the events of its lines',
    async (file, text) => {
      const expected = linesOf(text).map(decodeEventLine);
      for (const seed of [1, 2, 3]) {
        const client = new WireClient(`${api}/wire/corpus/pagent/${file}?chunkMax=7&seed=${seed}`);
        expect(await collect(client.stream()), `seed ${seed}`).toEqual(expected);
      }
    },
  );

  it('finds all seven pagent captures', () => {
    expect(Object.keys(pagentCorpus).length).toBe(7);
  });

  it('decodes the same files served as SSE to the same events', async () => {
    for (const [path, text] of Object.entries(pagentCorpus)) {
      const client = new WireClient(`${api}/wire/corpus/pagent/${fileName(path)}?as=sse&chunkMax=5&seed=9`);
      expect(await collect(client.stream()), fileName(path)).toEqual(linesOf(text).map(decodeEventLine));
    }
  });

  it('reads the tool_stream capture as one run: a call, its result, then the answer', async () => {
    const client = new WireClient(`${api}/wire/corpus/pagent/tool_stream.ndjson?chunkMax=3&seed=4`);
    expect(projectRuns(await collect(client.stream()))).toEqual<RunProjection[]>([
      {
        text: 'It is 18°C and sunny in Paris.',
        reasoning: '',
        calls: [['call_weather_1', 'get_weather', '{"city": "Paris", "unit": "celsius"}']],
        results: [['call_weather_1', 'get_weather', '{"city": "Paris", "temp": 18, "unit": "celsius"}', true]],
        errors: [],
        end: { content: 'It is 18°C and sunny in Paris.', reasoning_content: '', stop_reason: undefined },
      },
    ]);
  });

  it('delivers two runs on one stream, each with its own RunEnd', async () => {
    const body = [
      rpc('RunBegin', { user_input: 'one' }),
      rpc('TextDelta', { text: 'first' }),
      rpc('RunEnd', { content: 'first', tool_calls: [], reasoning_content: '', usage: null }),
      rpc('RunBegin', { user_input: 'two' }),
      rpc('TextDelta', { text: 'second' }),
      rpc('RunEnd', { content: 'second', tool_calls: [], reasoning_content: '', usage: null }),
    ].join('');
    const events = await scripted({ headers: { 'Content-Type': 'application/x-ndjson' }, body, chunkMax: 6, seed: 5 });
    expect(methods(events)).toEqual(['RunBegin', 'TextDelta', 'RunEnd', 'RunBegin', 'TextDelta', 'RunEnd']);
    expect(projectRuns(events).map((r) => r.end.content)).toEqual(['first', 'second']);
  });

  it('reads the framing from Content-Type and sniffs it when there is none', async () => {
    const sse = `data: ${rpc('TextDelta', { text: 'hi' }).trim()}\n\n`;
    const sniffed = await scripted({ chunks: [sse] });
    expect(sniffed.slice(0, 2)).toEqual([
      { method: 'RunBegin', params: { user_input: '' } },
      { method: 'TextDelta', params: { text: 'hi' } },
    ]);
    // the same SSE bytes announced as NDJSON are read as NDJSON lines, which they are not
    const errors: WireDecodeError[] = [];
    const misread = await collect(
      new WireClient(`${api}/wire/script`, { onDecodeError: (e) => errors.push(e) }).stream({
        headers: { 'Content-Type': 'application/x-ndjson' },
        chunks: [sse],
      }),
    );
    expect(errors.map((e) => e.reason)).toEqual(['invalid-json']);
    expect(misread.find((e) => e.method === 'RunError')?.params).toMatchObject({ code: 'decode' });
    // a forced format wins over Content-Type
    const forced = await collect(
      new WireClient(`${api}/wire/script`, { format: 'sse' }).stream({ headers: { 'Content-Type': 'application/x-ndjson' }, chunks: [sse] }),
    );
    expect(forced[1]).toEqual({ method: 'TextDelta', params: { text: 'hi' } });
  });

  it('reads JSON text sequences (RS before each record) as NDJSON', async () => {
    const body = '\u001e' + rpc('RunBegin', { user_input: 'seq' }) + '\u001e' + rpc('RunEnd', { content: '', tool_calls: [], reasoning_content: '', usage: null });
    const events = await scripted({ headers: { 'Content-Type': 'application/json-seq' }, body, chunkMax: 3, seed: 2 });
    expect(events).toEqual([
      { method: 'RunBegin', params: { user_input: 'seq' } },
      { method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null } },
    ]);
  });

  it('hands every raw document to onLine, in order', async () => {
    const lines: string[] = [];
    const client = new WireClient(`${api}/wire/corpus/pagent/text.ndjson?chunkMax=4`, { onLine: (raw) => lines.push(raw) });
    await collect(client.stream());
    expect(lines).toEqual(linesOf(pagentCorpus['../../fixtures/pagent/text.ndjson'] ?? ''));
  });

  it('drops a line over maxLineBytes with a line-too-long error and keeps going', async () => {
    const errors: WireDecodeError[] = [];
    const client = new WireClient(`${api}/wire/script`, { maxLineBytes: 200, onDecodeError: (e) => errors.push(e) });
    const events = await collect(
      client.stream({
        chunks: [
          rpc('RunBegin', { user_input: '' }),
          rpc('TextDelta', { text: 'x'.repeat(500) }),
          rpc('TextDelta', { text: 'kept' }),
          rpc('RunEnd', { content: 'kept', tool_calls: [], reasoning_content: '', usage: null }),
        ],
      }),
    );
    expect(errors.map((e) => e.reason)).toEqual(['line-too-long']);
    expect(methods(events)).toEqual(['RunBegin', 'TextDelta', 'RunEnd']);
  });
});

describe('WireClient streaming Victor over SSE', () => {
  const corpus = (file: string, seed: number) =>
    collect(new WireClient(`${api}/wire/corpus/victor/${file}?as=sse&chunkMax=6&seed=${seed}`).stream());

  it('reads the reference SSE example: reasoning, one shell call, its result, the answer', async () => {
    for (const seed of [1, 2, 3]) {
      expect(projectRuns(await corpus('docs_api_reference_sse_example.ndjson', seed))).toEqual<RunProjection[]>([VICTOR_REFERENCE_RUN]);
    }
  });

  it('reads the per-event reference as one run ending in a provider error', async () => {
    expect(projectRuns(await corpus('docs_api_reference_per_event.ndjson', 7))).toEqual<RunProjection[]>([
      {
        text: 'The bug is in the retry loop: ',
        reasoning: 'The user wants the failing test fixed…',
        calls: [['call-1', 'read', '{"path":"victor/framework/agent.py"}']],
        results: [['call-1', 'read', '…file output…', true]],
        errors: [['provider', 'provider timeout after 120s']],
        end: { content: 'The bug is in the retry loop: ', reasoning_content: '', stop_reason: 'error' },
      },
    ]);
  });

  it('reads the test-case collection as a finished run and a run cut at EOF', async () => {
    const runs = projectRuns(await corpus('test_wire_events_cases.ndjson', 11));
    expect(runs).toHaveLength(2);
    expect(runs[0]).toEqual<RunProjection>({
      text: 'hello',
      reasoning: 'hmm',
      calls: [['victor-1', 'read', '{"path":"a.py"}']],
      results: [['victor-1', 'read', 'ok', true]],
      errors: [['provider', 'boom']],
      end: { content: 'hello', reasoning_content: '', stop_reason: 'error' },
    });
    expect(runs[1]).toMatchObject({
      text: '',
      reasoning: '',
      calls: [['call-1', 'read', '{"path":"a.py"}']],
      results: [
        ['victor-unmatched-1', 'shell', 'exit 1', false],
        ['call-7', 'read', 'full output text', true],
        ['victor-unmatched-2', 'read', 'short', true],
        ['victor-unmatched-3', 'shell', 'boom', false],
      ],
      end: { content: '', reasoning_content: '', stop_reason: 'error' },
    });
    expect(runs[1]?.errors.map(([code]) => code)).toEqual(['truncated']);
  });

  it('keeps the turn structure of the reference example', async () => {
    const events = await corpus('docs_api_reference_sse_example.ndjson', 4);
    expect(methods(events)).toEqual([
      'RunBegin',
      'TurnBegin',
      'ReasoningDelta',
      'ToolCallBegin',
      'ToolResult',
      'TurnEnd',
      'TurnBegin',
      'TextDelta',
      'TurnEnd',
      'RunEnd',
    ]);
  });

  const synthetic = (docs: Array<Record<string, unknown>>, seed = 1) =>
    scripted({ headers: { 'Content-Type': 'text/event-stream' }, body: victorSse(docs), chunkMax: 9, seed });

  it('matches two calls to the same tool without call_id to their results in order', async () => {
    const runs = projectRuns(
      await synthetic([
        { event: 'tool_call', tool: 'read', arguments: { path: 'a.py' } },
        { event: 'tool_call', tool: 'read', arguments: { path: 'b.py' } },
        { event: 'tool_result', tool: 'read', success: true, result: 'A' },
        { event: 'tool_result', tool: 'read', success: false, result: 'B missing' },
        { event: 'content', content: 'Read both.' },
        { event: 'stream_end' },
      ]),
    );
    expect(runs[0]?.calls).toEqual([
      ['victor-1', 'read', '{"path":"a.py"}'],
      ['victor-2', 'read', '{"path":"b.py"}'],
    ]);
    expect(runs[0]?.results).toEqual([
      ['victor-1', 'read', 'A', true],
      ['victor-2', 'read', 'B missing', false],
    ]);
    expect(runs[0]?.end).toEqual({ content: 'Read both.', reasoning_content: '', stop_reason: 'no_tool_calls' });
  });

  it('shows a result whose call was never seen under an id of its own', async () => {
    const runs = projectRuns(
      await synthetic([
        { event: 'tool_result', tool: 'shell', success: true, result: { exit: 0 } },
        { event: 'content', content: 'Done.' },
        { event: 'stream_end' },
      ]),
    );
    expect(runs[0]?.calls).toEqual([]);
    expect(runs[0]?.results).toEqual([['victor-unmatched-1', 'shell', '{"exit":0}', true]]);
  });

  it('keeps text that follows an error and delivers the error right before the closing TurnEnd and RunEnd', async () => {
    const events = await synthetic([
      { event: 'content', content: 'Before. ' },
      { event: 'error', message: 'upstream hiccup' },
      { event: 'content', content: 'After.' },
      { event: 'stream_end' },
    ]);
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'TextDelta', 'RunError', 'TurnEnd', 'RunEnd']);
    expect(projectRuns(events)).toEqual<RunProjection[]>([
      {
        text: 'Before. After.',
        reasoning: '',
        calls: [],
        results: [],
        errors: [['provider', 'upstream hiccup']],
        end: { content: 'Before. After.', reasoning_content: '', stop_reason: 'error' },
      },
    ]);
  });

  it('ends a run without stream_end as truncated at EOF, keeping its partial answer', async () => {
    const events = await synthetic([
      { event: 'thinking', content: 'Let me see' },
      { event: 'content', content: 'Partial answ' },
    ]);
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'ReasoningDelta', 'TextDelta', 'RunError', 'RunEnd']);
    expect(events.at(-2)?.params).toMatchObject({ code: 'truncated' });
    expect(events.at(-1)).toEqual({
      method: 'RunEnd',
      params: { content: 'Partial answ', tool_calls: [], reasoning_content: 'Let me see', usage: null, stop_reason: 'error', turn: 0 },
    });
  });

  it('keeps a single RunError when a stream cut after a Victor error', async () => {
    const events = await synthetic([
      { event: 'content', content: 'Half' },
      { event: 'error', message: 'model overloaded' },
    ]);
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'RunEnd']);
    expect(events[3]).toEqual({ method: 'RunError', params: { code: 'provider', message: 'model overloaded' } });
    expect(events[4]?.params).toMatchObject({ content: 'Half', stop_reason: 'error' });
  });

  it('yields Victor events of other kinds only with includeUnknown', async () => {
    const docs = [
      { event: 'member_joined', member: 'reviewer' },
      { event: 'content', content: 'Hi' },
      { event: 'usage', input_tokens: 10, output_tokens: 2 },
      { event: 'stream_end' },
    ];
    const script: WireScript = { headers: { 'Content-Type': 'text/event-stream' }, chunks: [victorSse(docs)] };
    const plain = await collect(new WireClient(`${api}/wire/script`).stream(script));
    expect(methods(plain)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'TurnEnd', 'RunEnd']);
    const all = await collect(new WireClient(`${api}/wire/script`, { includeUnknown: true }).stream(script));
    expect(all.filter((e): e is UnknownEvent => 'unknown' in e)).toEqual([
      { method: 'member_joined', params: { member: 'reviewer' }, unknown: true },
      { method: 'usage', params: { input_tokens: 10, output_tokens: 2 }, unknown: true },
    ]);
  });

  it('decodes Victor JSONL too', async () => {
    const client = new WireClient(`${api}/wire/corpus/victor/docs_api_reference_sse_example.ndjson?chunkMax=4&seed=2`);
    expect(projectRuns(await collect(client.stream()))[0]?.text).toBe('The failure is caused by…');
  });
});

describe('WireClient requests', () => {
  type Echo = { method: string; body: string | null; headers: Record<string, string> };
  const echoOf = (events: WireEvent[]): Echo => {
    const first = events[0];
    if (first?.method !== 'RunBegin') throw new Error('no RunBegin');
    return JSON.parse(first.params.user_input) as Echo;
  };

  it('sends a GET without a body when stream() gets none', async () => {
    const echo = echoOf(await collect(new WireClient(`${api}/wire/echo`).stream()));
    expect(echo.method).toBe('GET');
    expect(echo.body).toBeNull();
    expect(echo.headers['content-type']).toBeUndefined();
    expect(echo.headers['accept']).toContain('text/event-stream');
  });

  it('POSTs the body as JSON with the client headers, per-call headers winning', async () => {
    const client = new WireClient(`${api}/wire/echo`, { headers: { 'X-Client': 'c', 'X-Both': 'client' } });
    const echo = echoOf(await collect(client.stream({ message: 'héllo', n: 1 }, { headers: { 'X-Both': 'call', 'X-Call': 'k' } })));
    expect(echo.method).toBe('POST');
    expect(JSON.parse(echo.body ?? '')).toEqual({ message: 'héllo', n: 1 });
    expect(echo.headers).toMatchObject({ 'content-type': 'application/json', 'x-client': 'c', 'x-both': 'call', 'x-call': 'k' });
  });

  it('uses the method option and an injected fetch', async () => {
    const seen: Array<{ url: string; method: string | undefined; body: unknown }> = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), method: init?.method, body: init?.body });
      return new Response(rpc('TextDelta', { text: 'from fake' }) + rpc('RunEnd', { content: 'from fake', tool_calls: [], reasoning_content: '', usage: null }), {
        headers: { 'Content-Type': 'application/x-ndjson', 'X-Session-Id': 'fake-session' },
      });
    };
    const client = new WireClient('https://agent.invalid/run', { fetch: fakeFetch, method: 'PUT' });
    const events = await collect(client.stream({ q: 1 }));
    expect(seen).toEqual([{ url: 'https://agent.invalid/run', method: 'PUT', body: '{"q":1}' }]);
    expect(methods(events)).toEqual(['RunBegin', 'TextDelta', 'RunEnd']);
    expect(client.sessionId).toBe('fake-session');
  });

  it('keeps the last X-Session-Id a response carried', async () => {
    const client = new WireClient(`${api}/wire/script`);
    expect(client.sessionId).toBeUndefined();
    const run = [rpc('TextDelta', { text: 'x' }), rpc('RunEnd', { content: 'x', tool_calls: [], reasoning_content: '', usage: null })];
    await collect(client.stream({ headers: { 'X-Session-Id': 'sess-1' }, chunks: run }));
    expect(client.sessionId).toBe('sess-1');
    await collect(client.stream({ chunks: run }));
    expect(client.sessionId).toBe('sess-1');
    await collect(client.stream({ status: 500, headers: { 'X-Session-Id': 'sess-2' }, chunks: ['oops'] }));
    expect(client.sessionId).toBe('sess-2');
  });

  it('streams several clients at once on one page, each getting its own events', async () => {
    const files = [
      ['victor', 'docs_api_reference_sse_example.ndjson', 'sse'],
      ['victor', 'docs_api_reference_per_event.ndjson', 'sse'],
      ['pagent', 'tool_stream.ndjson', 'ndjson'],
      ['pagent', 'unicode.ndjson', 'sse'],
      ['pagent', 'parallel_tools.ndjson', 'ndjson'],
    ] as const;
    // All five requests are open at once and read round-robin, one event from each in turn, so every
    // stream is consumed while the others are still in flight (deterministic, whatever the timing).
    const iterators = files.map(([dir, file, as], i) =>
      new WireClient(`${api}/wire/corpus/${dir}/${file}?as=${as}&chunkMax=24&seed=${i + 1}&delayMs=2`)
        .stream()
        [Symbol.asyncIterator](),
    );
    const results: WireEvent[][] = files.map(() => []);
    const open = new Set(iterators.keys());
    let rounds = 0;
    while (open.size > 0) {
      rounds++;
      const step = await Promise.all([...open].map(async (i) => [i, await iterators[i]!.next()] as const));
      for (const [i, next] of step) {
        if (next.done) open.delete(i);
        else results[i]!.push(next.value);
      }
      if (rounds === 1) expect(step.filter(([, next]) => !next.done)).toHaveLength(files.length);
    }
    expect(projectRuns(results[0] ?? [])[0]?.text).toBe('The failure is caused by…');
    expect(projectRuns(results[1] ?? [])[0]?.errors).toEqual([['provider', 'provider timeout after 120s']]);
    for (const [i, name] of [[2, 'tool_stream'], [3, 'unicode'], [4, 'parallel_tools']] as const) {
      expect(results[i]).toEqual(linesOf(pagentCorpus[`../../fixtures/pagent/${name}.ndjson`] ?? '').map(decodeEventLine));
    }
  });

  it('types events by includeUnknown', () => {
    expectTypeOf(new WireClient('/x').stream()).toEqualTypeOf<AsyncIterable<WireEvent>>();
    expectTypeOf(new WireClient('/x', { includeUnknown: true }).stream()).toEqualTypeOf<AsyncIterable<WireEvent | UnknownEvent>>();
    expectTypeOf(new WireClient('/x', { includeUnknown: false }).stream()).toEqualTypeOf<AsyncIterable<WireEvent>>();
  });
});
