import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeEventLine, WireClient, type WireClientOptions, type WireEvent, type WireReconnectInfo, type WireStreamOptions } from '../../../src/index.js';
import type { ResumableRequest, ResumableScript } from '../../server/wire.js';
import { api, methods, projectRuns, uniqueId } from './client-helpers.js';

const toolStream = import.meta.glob<string>('../../fixtures/pagent/tool_stream.ndjson', { query: '?raw', import: 'default', eager: true });
const unicode = import.meta.glob<string>('../../fixtures/pagent/unicode.ndjson', { query: '?raw', import: 'default', eager: true });
const eventsOf = (capture: Record<string, string>): WireEvent[] =>
  Object.values(capture)[0]!
    .split('\n')
    .filter((l) => l !== '')
    .map(decodeEventLine);

/**
 * A client of a fresh resumable run (reconnect waits are a few ms unless a test asks otherwise), and
 * `collect`, which reads its events and has the server cut each response where the script says once the
 * events before the cut are in (one event per message of the pagent captures).
 */
function resumable(script: ResumableScript, options: Omit<WireClientOptions, 'includeUnknown'> = {}) {
  const key = uniqueId();
  const client = new WireClient(`${api}/wire/resumable/${key}?s=${encodeURIComponent(JSON.stringify(script))}`, {
    reconnectDelayMs: 5,
    ...options,
  });
  const cuts: number[] = [];
  let delivered = 0;
  for (const after of script.dropAfter ?? []) {
    if (after === null) break;
    delivered += after;
    if (after > 0) cuts.push(delivered);
  }
  const collect = async (body?: unknown, call?: WireStreamOptions): Promise<WireEvent[]> => {
    const events: WireEvent[] = [];
    for await (const event of client.stream(body, call)) {
      events.push(event);
      if (cuts.includes(events.length)) await fetch(`${api}/wire/resumable-drop/${key}`, { method: 'POST' });
    }
    return events;
  };
  const requests = async (): Promise<ResumableRequest[]> => (await (await fetch(`${api}/wire/resumable-log/${key}`)).json()) as ResumableRequest[];
  return { client, collect, requests };
}

const errorOf = (events: WireEvent[]): { code: string; message: string } | undefined => {
  const error = events.find((e) => e.method === 'RunError');
  return error?.method === 'RunError' ? error.params : undefined;
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('WireClient resumes a dropped SSE stream with Last-Event-ID', () => {
  it('continues the run after a reset mid-message: the events equal an uninterrupted run', async () => {
    const uninterrupted = await resumable({ corpus: 'pagent/tool_stream.ndjson' }).collect();
    expect(uninterrupted).toEqual(eventsOf(toolStream));
    const { collect, requests } = resumable({ corpus: 'pagent/tool_stream.ndjson', dropAfter: [5] });
    const events = await collect();
    expect(events).toEqual(uninterrupted);
    expect(methods(events).filter((m) => m === 'RunBegin' || m === 'RunEnd')).toEqual(['RunBegin', 'RunEnd']);
    expect(projectRuns(events)).toHaveLength(1);
    expect((await requests()).map((r) => r.lastEventId)).toEqual([null, '5']);
  });

  it('continues a run cut inside a multi-byte character, twice: two reconnects', async () => {
    const reasons: WireReconnectInfo[] = [];
    const { collect, requests } = resumable({ corpus: 'pagent/unicode.ndjson', dropAfter: [4, 6] }, { onReconnect: (info) => reasons.push(info) });
    const events = await collect();
    expect(events).toEqual(eventsOf(unicode));
    expect((await requests()).map((r) => r.lastEventId)).toEqual([null, '4', '10']);
    // each resumed response made progress, so each drop starts counting again
    expect(reasons.map((r) => [r.attempt, r.lastEventId])).toEqual([
      [1, '4'],
      [1, '10'],
    ]);
  });

  it('resends the same method, headers and body, with Last-Event-ID', async () => {
    const { collect, requests } = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [3] }, { headers: { 'X-Tenant': 'acme' } });
    const events = await collect({ message: 'Hi', session_id: 's1' }, { headers: { 'X-Trace': 't-9' } });
    expect(projectRuns(events)).toHaveLength(1);
    const seen = await requests();
    expect(seen).toHaveLength(2);
    const body = JSON.stringify({ message: 'Hi', session_id: 's1' });
    expect(seen[0]).toEqual({ method: 'POST', lastEventId: null, body, headers: { 'x-tenant': 'acme', 'x-trace': 't-9' } });
    expect(seen[1]).toEqual({ method: 'POST', lastEventId: '3', body, headers: { 'x-tenant': 'acme', 'x-trace': 't-9' } });
  });

  it('resumes a GET the same way', async () => {
    const { collect, requests } = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [2] });
    await collect();
    expect((await requests()).map((r) => [r.method, r.lastEventId, r.body])).toEqual([
      ['GET', null, ''],
      ['GET', '2', ''],
    ]);
  });

  it('waits the retry the server sent, doubling for consecutive failed reconnects', async () => {
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    const delays: number[] = [];
    const { collect, requests } = resumable(
      { corpus: 'pagent/text.ndjson', retry: 23, dropAfter: [3, 0, 0] },
      { onReconnect: (info) => delays.push(info.delayMs), reconnectDelayMs: 1_000 },
    );
    const events = await collect();
    expect(events).toEqual(eventsOf(import.meta.glob<string>('../../fixtures/pagent/text.ndjson', { query: '?raw', import: 'default', eager: true })));
    expect(delays).toEqual([23, 46, 92]);
    const waits = timeout.mock.calls.map((call) => call[1]);
    for (const ms of [23, 46, 92]) expect(waits).toContain(ms);
    expect(waits).not.toContain(1_000);
    expect(await requests()).toHaveLength(4);
  });

  it('waits reconnectDelayMs when the server sent no retry', async () => {
    const delays: number[] = [];
    const { collect } = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [3, 0] }, { reconnectDelayMs: 7, onReconnect: (info) => delays.push(info.delayMs) });
    await collect();
    expect(delays).toEqual([7, 14]);
  });

  it('leaves out what a server replays though Last-Event-ID said it was seen', async () => {
    const uninterrupted = eventsOf(toolStream);
    for (const replay of ['inclusive', 'all'] as const) {
      const { collect } = resumable({ corpus: 'pagent/tool_stream.ndjson', dropAfter: [6], replay });
      expect(await collect(), replay).toEqual(uninterrupted);
    }
  });

  it('resumes a response that ends cleanly while a run is open, at a boundary or inside a message', async () => {
    for (const dropAtBoundary of [true, false]) {
      const { collect, requests } = resumable({ corpus: 'pagent/tool_stream.ndjson', dropAfter: [7], dropWith: 'end', dropAtBoundary });
      expect(await collect(), `at a boundary: ${dropAtBoundary}`).toEqual(eventsOf(toolStream));
      expect((await requests()).map((r) => r.lastEventId)).toEqual([null, '7']);
    }
  });

  it('makes no request again after a complete run, even when the last blank line is missing', async () => {
    const { collect, requests } = resumable({ corpus: 'pagent/tool_stream.ndjson', noFinalBlankLine: true });
    expect(await collect()).toEqual(eventsOf(toolStream));
    expect(await requests()).toHaveLength(1);
  });
});

describe('WireClient when a drop cannot be resumed', () => {
  it('keeps a drop without ids a RunError{network}, with one request', async () => {
    const { collect, requests } = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [4], ids: false });
    const events = await collect();
    expect(methods(events).slice(-2)).toEqual(['RunError', 'RunEnd']);
    expect(errorOf(events)?.code).toBe('network');
    expect(errorOf(events)?.message).not.toContain('reconnect');
    expect(await requests()).toHaveLength(1);
  });

  it('never resumes NDJSON, nor SSE with reconnects: 0', async () => {
    const ndjson = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [4], ndjson: true });
    expect(errorOf(await ndjson.collect())?.code).toBe('network');
    expect(await ndjson.requests()).toHaveLength(1);
    const off = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [4] }, { reconnects: 0 });
    expect(errorOf(await off.collect())?.code).toBe('network');
    expect(await off.requests()).toHaveLength(1);
  });

  it('gives up after `reconnects` reconnects without progress, naming the count', async () => {
    const { collect, requests } = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [3, 0, 0, 0, 0] }, { reconnects: 2 });
    const events = await collect();
    expect(methods(events).filter((m) => m === 'RunBegin' || m === 'RunError' || m === 'RunEnd')).toEqual(['RunBegin', 'RunError', 'RunEnd']);
    expect(events.at(-1)?.params).toMatchObject({ stop_reason: 'error' });
    expect(errorOf(events)?.code).toBe('network');
    expect(errorOf(events)?.message).toMatch(/^Network error while reading the stream: .+; resuming \(GET http:\S+ with Last-Event-ID "3"\) failed after 2 reconnects: /);
    expect(await requests()).toHaveLength(3);
  });

  it('tries again after a 503 or a reset before any response, and stops at a 404 with its text', async () => {
    const retried = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [3], status: [200, 503, 0] });
    expect(await retried.collect()).toEqual(
      eventsOf(import.meta.glob<string>('../../fixtures/pagent/text.ndjson', { query: '?raw', import: 'default', eager: true })),
    );
    expect(await retried.requests()).toHaveLength(4);

    const refused = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [3], status: [200, 404] });
    const events = await refused.collect();
    expect(errorOf(events)?.code).toBe('network');
    expect(errorOf(events)?.message).toMatch(/failed after 1 reconnect: HTTP 404 Not Found: refused request 2$/);
    expect(await refused.requests()).toHaveLength(2);
  });

  it('stops when the resumed response is not an event stream', async () => {
    const { collect, requests } = resumable({ corpus: 'pagent/text.ndjson', dropAfter: [3], contentType: [null, 'text/html'] });
    const events = await collect();
    expect(errorOf(events)?.message).toMatch(/after 1 reconnect: HTTP 200 is not an event stream \(Content-Type: text\/html\)$/);
    expect(methods(events).slice(-2)).toEqual(['RunError', 'RunEnd']);
    expect(await requests()).toHaveLength(2);
  });

  it('ends the run as cancelled when aborted during the wait, and makes no further request', async () => {
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    const clear = vi.spyOn(globalThis, 'clearTimeout');
    const controller = new AbortController();
    const { collect, requests } = resumable(
      { corpus: 'pagent/text.ndjson', dropAfter: [3], retry: 600_000 },
      { onReconnect: () => controller.abort() },
    );
    const events = await collect(undefined, { signal: controller.signal });
    expect(events.at(-1)).toMatchObject({ method: 'RunEnd', params: { stop_reason: 'cancelled' } });
    expect(methods(events)).not.toContain('RunError');
    expect(projectRuns(events)).toHaveLength(1);
    // the reconnect's timer was set and cleared: no request can follow
    const index = timeout.mock.calls.findIndex((call) => call[1] === 600_000);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(clear).toHaveBeenCalledWith(timeout.mock.results[index]!.value);
    expect(await requests()).toHaveLength(1);
  });
});
