import { describe, expect, it } from 'vitest';
import { WireClient, type WireClientOptions, type WireDecodeError, type WireEvent } from '../../../src/index.js';
import type { WireScript } from '../../server/wire.js';
import { api, collect, FAILED_RUN_END, methods, projectRuns, rpc, serverSawClose, uniqueId, victorSse } from './client-helpers.js';

const client = (options?: Omit<WireClientOptions, 'includeUnknown'>) => new WireClient(`${api}/wire/script`, options);
const opening = [rpc('RunBegin', { user_input: 'q' }), rpc('TurnBegin', { turn: 0 }), rpc('TextDelta', { text: 'Hel' })];

describe('WireClient on HTTP errors', () => {
  const failedRun = (status: number, message: string): WireEvent[] => [
    { method: 'RunBegin', params: { user_input: '' } },
    { method: 'RunError', params: { code: 'http', status, message } },
    FAILED_RUN_END as WireEvent,
  ];
  const cases: Array<[string, WireScript, WireEvent[]]> = [
    ['a plain-text 500', { status: 500, headers: { 'Content-Type': 'text/plain' }, chunks: ['database is down\n'] }, failedRun(500, 'database is down')],
    [
      'a 404 with {"detail": "..."}',
      { status: 404, headers: { 'Content-Type': 'application/json' }, chunks: ['{"detail": "Session abc not found"}'] },
      failedRun(404, 'Session abc not found'),
    ],
    [
      "FastAPI's 422 validation list",
      {
        status: 422,
        headers: { 'Content-Type': 'application/json' },
        chunks: ['{"detail": [{"type": "missing", "loc": ["body", "message"], "msg": "Field required", "input": {}}]}'],
      },
      failedRun(422, 'Invalid request: body.message: Field required'),
    ],
    [
      'a 401 with {"error": {"message"}}',
      { status: 401, headers: { 'Content-Type': 'application/json' }, chunks: ['{"error": {"message": "Invalid API key", "type": "auth"}}'] },
      failedRun(401, 'Invalid API key'),
    ],
    [
      'a 429 with {"error": "..."}',
      { status: 429, headers: { 'Content-Type': 'application/json' }, chunks: ['{"error": "Too many requests, retry in 3s"}'] },
      failedRun(429, 'Too many requests, retry in 3s'),
    ],
    [
      'a 502 HTML page',
      { status: 502, headers: { 'Content-Type': 'text/html' }, chunks: ['<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>'] },
      failedRun(502, 'HTTP 502 Bad Gateway'),
    ],
    ['a 503 without a body', { status: 503, chunks: [] }, failedRun(503, 'HTTP 503 Service Unavailable')],
  ];

  it.each(cases)('ends the run with RunError{http} carrying the text of %s', async (_name, script, expected) => {
    expect(await collect(client().stream(script))).toEqual(expected);
  });

  it('cuts a very long error body', async () => {
    const events = await collect(client().stream({ status: 500, headers: { 'Content-Type': 'text/plain' }, chunks: ['E'.repeat(20_000)] }));
    const error = events[1];
    expect(error?.method).toBe('RunError');
    const message = error?.method === 'RunError' ? error.params.message : '';
    expect(message).toHaveLength(500);
    expect(message.endsWith('…')).toBe(true);
  });

  it('ends an HTML page served with 200 as a decode error', async () => {
    const errors: WireDecodeError[] = [];
    const events = await collect(
      client({ onDecodeError: (e) => errors.push(e) }).stream({
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
        chunks: ['<!doctype html>\n<html><head><title>Login</title></head>\n<body>Please sign in</body></html>\n'],
      }),
    );
    expect(methods(events)).toEqual(['RunBegin', 'RunError', 'RunEnd']);
    expect(events[1]?.params).toMatchObject({ code: 'decode' });
    expect(events[1]?.method === 'RunError' && events[1].params.message).toContain('HTML');
    expect(events[2]).toEqual(FAILED_RUN_END);
  });
});

describe('WireClient on network failures', () => {
  it('reports a refused connection as RunError{network} naming the URL', async () => {
    const url = 'http://127.0.0.1:9/agent';
    const events = await collect(new WireClient(url).stream({ message: 'hi' }));
    expect(methods(events)).toEqual(['RunBegin', 'RunError', 'RunEnd']);
    const error = events[1];
    expect(error?.params).toMatchObject({ code: 'network' });
    const message = error?.method === 'RunError' ? error.params.message : '';
    expect(message).toContain(`POST ${url} failed`);
    expect(message).toContain('nothing answered');
    expect(message).not.toContain('CORS');
    expect(events[2]).toEqual(FAILED_RUN_END);
  });

  it('reports a rejecting injected fetch the same way, with its reason', async () => {
    const failing: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const events = await collect(new WireClient('https://agent.invalid/x', { fetch: failing }).stream());
    expect(events[1]?.params).toMatchObject({ code: 'network' });
    expect(events[1]?.method === 'RunError' && events[1].params.message).toContain('GET https://agent.invalid/x');
    expect(events[1]?.method === 'RunError' && events[1].params.message).toContain('(Failed to fetch)');
  });

  it('ends a run whose connection is reset mid-stream with RunError{network}', async () => {
    const events = await collect(client().stream({ headers: { 'Content-Type': 'application/x-ndjson' }, chunks: opening, end: 'destroy' }));
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'RunEnd']);
    expect(events[3]?.params).toMatchObject({ code: 'network' });
    expect(events[4]).toEqual({
      method: 'RunEnd',
      params: { content: 'Hel', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error', turn: 0 },
    });
  });

  it('ends a run whose server closes mid-line as truncated, reporting the broken line', async () => {
    const errors: WireDecodeError[] = [];
    const events = await collect(
      client({ onDecodeError: (e) => errors.push(e) }).stream({
        headers: { 'Content-Type': 'application/x-ndjson' },
        chunks: [...opening, '{"jsonrpc": "2.0", "method": "TextDelta", "par'],
      }),
    );
    expect(errors.map((e) => [e.reason, e.lineNumber])).toEqual([['invalid-json', 4]]);
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'RunEnd']);
    expect(events[3]?.params).toMatchObject({ code: 'truncated' });
    expect(events[4]?.params).toMatchObject({ content: 'Hel', stop_reason: 'error' });
  });

  it('closes the open run when a new RunBegin arrives, then carries on', async () => {
    const events = await collect(
      client().stream({
        chunks: [...opening, rpc('RunBegin', { user_input: 'again' }), rpc('RunEnd', { content: '', tool_calls: [], reasoning_content: '', usage: null })],
      }),
    );
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'RunEnd', 'RunBegin', 'RunEnd']);
    expect(events[3]?.params).toMatchObject({ code: 'truncated' });
    expect(projectRuns(events)).toHaveLength(2);
  });
});

describe('WireClient stall detection', () => {
  it('ends a stalled run with RunError{timeout} and aborts the request', async () => {
    const id = uniqueId();
    // one write, so that only the silence after it can trip the timer
    const events = await collect(client({ idleTimeoutMs: 40 }).stream({ id, chunks: [opening.join('')], end: 'hang' }));
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'RunEnd']);
    expect(events[3]?.params).toMatchObject({ code: 'timeout' });
    expect(events[4]).toEqual({
      method: 'RunEnd',
      params: { content: 'Hel', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error', turn: 0 },
    });
    expect(await serverSawClose(id)).toMatchObject({ closed: true, finishedByServer: false });
  });

  it('ends a Victor run that stalls after its error with that provider error, not a timeout one, and aborts', async () => {
    const id = uniqueId();
    const body = victorSse([
      { event: 'content', content: 'Half' },
      { event: 'error', message: 'model overloaded' },
      { event: 'content', content: ' more' },
    ]);
    const script: WireScript = { id, headers: { 'Content-Type': 'text/event-stream' }, chunks: [body], end: 'hang' };
    const events = await collect(client({ idleTimeoutMs: 40 }).stream(script));
    expect(events).toEqual([
      { method: 'RunBegin', params: { user_input: '' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TextDelta', params: { text: 'Half' } },
      { method: 'TextDelta', params: { text: ' more' } },
      { method: 'RunError', params: { code: 'provider', message: 'model overloaded' } },
      { method: 'RunEnd', params: { content: 'Half more', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error', turn: 0 } },
    ]);
    expect(await serverSawClose(id)).toMatchObject({ closed: true, finishedByServer: false });
  });

  it('does not time out between runs', async () => {
    const run = (text: string) => [
      rpc('RunBegin', { user_input: text }),
      rpc('TextDelta', { text }),
      rpc('RunEnd', { content: text, tool_calls: [], reasoning_content: '', usage: null }),
    ];
    // the pause between the two runs is longer than idleTimeoutMs
    const events = await collect(
      client({ idleTimeoutMs: 60 }).stream({ chunks: [run('a').join(''), run('b').join('')], delayMs: 150 }),
    );
    expect(methods(events)).toEqual(['RunBegin', 'TextDelta', 'RunEnd', 'RunBegin', 'TextDelta', 'RunEnd']);
  });
});

describe('WireClient cancellation', () => {
  it('ends the run as cancelled when the signal aborts mid-stream, and the server sees the close', async () => {
    const id = uniqueId();
    const controller = new AbortController();
    const events: WireEvent[] = [];
    for await (const event of client().stream({ id, chunks: opening, end: 'hang' }, { signal: controller.signal })) {
      events.push(event);
      if (event.method === 'TextDelta') controller.abort();
    }
    expect(events).toEqual([
      { method: 'RunBegin', params: { user_input: 'q' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TextDelta', params: { text: 'Hel' } },
      { method: 'RunEnd', params: { content: 'Hel', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'cancelled', turn: 0 } },
    ]);
    expect(await serverSawClose(id)).toMatchObject({ closed: true, finishedByServer: false });
  });

  it('ends the run as cancelled when the signal aborts while waiting for bytes', async () => {
    const id = uniqueId();
    const controller = new AbortController();
    const events: WireEvent[] = [];
    for await (const event of client().stream({ id, chunks: opening, end: 'hang' }, { signal: controller.signal })) {
      events.push(event);
      if (event.method === 'TextDelta') setTimeout(() => controller.abort(), 30);
    }
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunEnd']);
    expect(events.at(-1)?.params).toMatchObject({ stop_reason: 'cancelled' });
    expect(await serverSawClose(id)).toMatchObject({ finishedByServer: false });
  });

  it('cancels the request when the consumer breaks out, and the server sees the close', async () => {
    const id = uniqueId();
    const seen: string[] = [];
    for await (const event of client().stream({ id, chunks: opening, end: 'hang' })) {
      seen.push(event.method);
      if (event.method === 'TextDelta') break;
    }
    expect(seen).toEqual(['RunBegin', 'TurnBegin', 'TextDelta']);
    expect(await serverSawClose(id)).toMatchObject({ closed: true, finishedByServer: false, writes: 3 });
  });

  it('yields nothing when aborted before the response, and the server sees the request go', async () => {
    const id = uniqueId();
    const controller = new AbortController();
    const pending = collect(client().stream({ id, headersDelayMs: 3_000, chunks: opening }, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 30);
    expect(await pending).toEqual([]);
    expect(await serverSawClose(id)).toMatchObject({ writes: 0, finishedByServer: false });
  });

  it('yields nothing when the signal was aborted before the call', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await collect(client().stream({ chunks: opening }, { signal: controller.signal }))).toEqual([]);
  });

  it('yields nothing when aborted after the headers but before any event', async () => {
    const controller = new AbortController();
    const pending = collect(client().stream({ chunks: [], end: 'hang' }, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 30);
    expect(await pending).toEqual([]);
  });
});
