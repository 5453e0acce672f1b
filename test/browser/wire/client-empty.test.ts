import { describe, expect, it } from 'vitest';
import { decodeWireStream, WireClient, type WireEvent } from '../../../src/index.js';
import type { WireScript } from '../../server/wire.js';
import { api, collect, FAILED_RUN_END } from './client-helpers.js';

// docs/wire.md#runs-and-the-termination-contract: a WireClient request is a request for a run; a 2xx response that carries no event at all is a
// failed run with RunError{code: "decode"} naming the empty response (issue 10, item 3).
describe('WireClient on a 2xx response with no event', () => {
  const client = new WireClient(`${api}/wire/script`);
  const cases: Array<[string, WireScript, string]> = [
    ['an empty 200', { status: 200, headers: { 'Content-Type': 'application/x-ndjson' }, chunks: [] }, 'HTTP 200'],
    ['a 204', { status: 204, chunks: [] }, 'HTTP 204'],
    ['a whitespace-only body', { status: 200, headers: { 'Content-Type': 'application/x-ndjson' }, chunks: ['\n  \r\n\t\n'] }, 'HTTP 200'],
    ['an SSE body of only comments', { status: 200, headers: { 'Content-Type': 'text/event-stream' }, chunks: [': ping\n\n', ': ping\n\n'] }, 'HTTP 200'],
  ];

  it.each(cases)('ends one failed run with RunError{decode} for %s', async (_name, script, status) => {
    const events = await collect(client.stream(script));
    expect(events.map((e) => e.method)).toEqual(['RunBegin', 'RunError', 'RunEnd']);
    expect(events[0]).toEqual({ method: 'RunBegin', params: { user_input: '' } });
    const error = events[1] as Extract<WireEvent, { method: 'RunError' }>;
    expect(error.params.code).toBe('decode');
    expect(error.params.message).toContain('empty');
    expect(error.params.message).toContain(status);
    expect(events[2]).toEqual(FAILED_RUN_END);
  });

  it('still yields nothing for decodeWireStream over a raw empty body', async () => {
    const body = new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    expect(await collect(decodeWireStream(body))).toEqual([]);
  });

  it('adds nothing to a response that carried a run', async () => {
    const line = (method: string, params: Record<string, unknown>): string => JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n';
    const events = await collect(
      client.stream({
        headers: { 'Content-Type': 'application/x-ndjson' },
        chunks: [line('RunBegin', { user_input: 'q' }), line('RunEnd', { content: '', tool_calls: [], reasoning_content: '', usage: null })],
      }),
    );
    expect(events.map((e) => e.method)).toEqual(['RunBegin', 'RunEnd']);
  });

  it('yields nothing when the caller aborted before the empty body was read', async () => {
    const abort = new AbortController();
    abort.abort();
    expect(await collect(client.stream({ status: 204, chunks: [] }, { signal: abort.signal }))).toEqual([]);
  });
});
