import { describe, expect, it } from 'vitest';
import { decodeEventLine, decodeWebSocket, type WireEvent } from '../../../src/index.js';
import type { WireSocketScript } from '../../server/wire.js';
import { api, closeRecord, collect, methods, projectRuns, rpc, serverSawClose, uniqueId, VICTOR_REFERENCE_RUN } from './client-helpers.js';
import { randomPieces } from '../../helpers/random.js';

import toolStream from '../../fixtures/pagent/tool_stream.ndjson?raw';
import unicode from '../../fixtures/pagent/unicode.ndjson?raw';
import victorExample from '../../fixtures/victor/docs_api_reference_sse_example.ndjson?raw';

const socketTo = (script: WireSocketScript): WebSocket =>
  new WebSocket(`${api.replace(/^http/, 'ws')}/wire/ws?s=${encodeURIComponent(JSON.stringify(script))}`);

const linesOf = (text: string): string[] => text.split('\n').filter((l) => l !== '');
const opening = [rpc('RunBegin', { user_input: 'ws' }), rpc('TurnBegin', { turn: 0 }), rpc('TextDelta', { text: 'Hel' })];

describe('decodeWebSocket', () => {
  it('decodes NDJSON lines cut across frames to the events of the lines', async () => {
    for (const [text, seed] of [
      [toolStream, 1],
      [toolStream, 2],
      [unicode, 3],
    ] as const) {
      const events = await collect(decodeWebSocket(socketTo({ frames: randomPieces(text, 40, seed) })));
      expect(events).toEqual(linesOf(text).map(decodeEventLine));
    }
  });

  it('decodes several lines in one frame', async () => {
    const events = await collect(decodeWebSocket(socketTo({ frames: [toolStream] })));
    expect(events).toEqual(linesOf(toolStream).map(decodeEventLine));
  });

  it('reads binary frames as UTF-8, even when a character is split between frames', async () => {
    const bytes = [...new TextEncoder().encode(rpc('TextDelta', { text: 'café ☕' }))];
    const cut = bytes.indexOf(0xe2) + 1; // after the first of the three bytes of ☕
    const events = await collect(
      decodeWebSocket(
        socketTo({
          frames: [
            rpc('RunBegin', { user_input: '' }),
            { bytes: bytes.slice(0, cut) },
            { bytes: bytes.slice(cut) },
            { binary: rpc('RunEnd', { content: 'café ☕', tool_calls: [], reasoning_content: '', usage: null }) },
          ],
        }),
      ),
    );
    expect(events[1]).toEqual({ method: 'TextDelta', params: { text: 'café ☕' } });
    expect(methods(events)).toEqual(['RunBegin', 'TextDelta', 'RunEnd']);
  });

  it('decodes Victor JSONL from frames like the HTTP stream', async () => {
    const runs = projectRuns(await collect(decodeWebSocket(socketTo({ frames: randomPieces(victorExample, 30, 5) }))));
    expect(runs).toEqual([VICTOR_REFERENCE_RUN]);
  });

  it('keeps frames that arrive before iteration starts', async () => {
    const socket = socketTo({ frames: [toolStream], end: 'hang' });
    const events = decodeWebSocket(socket);
    await new Promise<void>((resolve) => socket.addEventListener('open', () => setTimeout(resolve, 100)));
    const seen: WireEvent[] = [];
    for await (const event of events) {
      seen.push(event);
      if (event.method === 'RunEnd') break;
    }
    expect(seen).toEqual(linesOf(toolStream).map(decodeEventLine));
  });

  it('ends a run cut by a clean close as truncated', async () => {
    const events = await collect(decodeWebSocket(socketTo({ frames: opening, end: 'close' })));
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'RunEnd']);
    expect(events[3]?.params).toMatchObject({ code: 'truncated' });
    expect(events[4]?.params).toMatchObject({ content: 'Hel', stop_reason: 'error' });
  });

  it('adds nothing when the socket closes cleanly between runs', async () => {
    const run = [rpc('RunBegin', { user_input: '' }), rpc('RunEnd', { content: '', tool_calls: [], reasoning_content: '', usage: null })];
    const events = await collect(decodeWebSocket(socketTo({ frames: [...run, ...run], end: 'close' })));
    expect(methods(events)).toEqual(['RunBegin', 'RunEnd', 'RunBegin', 'RunEnd']);
  });

  it('ends a run cut by a dropped connection with RunError{network}', async () => {
    const events = await collect(decodeWebSocket(socketTo({ frames: opening, end: 'terminate' })));
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'RunEnd']);
    expect(events[3]?.params).toMatchObject({ code: 'network' });
    expect(events[3]?.method === 'RunError' && events[3].params.message).toContain('1006');
  });

  it('reports a refused handshake as a run with RunError{network}', async () => {
    const socket = new WebSocket(`${api.replace(/^http/, 'ws')}/wire/ws-reject`);
    const events = await collect(decodeWebSocket(socket));
    expect(methods(events)).toEqual(['RunBegin', 'RunError', 'RunEnd']);
    expect(events[1]?.params).toMatchObject({ code: 'network' });
    expect(events[1]?.method === 'RunError' && events[1].params.message).toContain('/wire/ws-reject');
    expect(events[2]?.params).toMatchObject({ stop_reason: 'error' });
  });

  it('ends the run as cancelled and closes the socket when the signal aborts', async () => {
    const id = uniqueId();
    const socket = socketTo({ id, frames: opening, end: 'hang' });
    const controller = new AbortController();
    const events: WireEvent[] = [];
    for await (const event of decodeWebSocket(socket, { signal: controller.signal })) {
      events.push(event);
      if (event.method === 'TextDelta') controller.abort();
    }
    expect(events.at(-1)).toEqual({
      method: 'RunEnd',
      params: { content: 'Hel', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'cancelled', turn: 0 },
    });
    expect(methods(events)).not.toContain('RunError');
    expect(await serverSawClose(id)).toMatchObject({ closed: true, finishedByServer: false, code: 1000 });
  });

  it('closes the socket when the consumer breaks out', async () => {
    const id = uniqueId();
    const socket = socketTo({ id, frames: opening, end: 'hang' });
    for await (const event of decodeWebSocket(socket)) if (event.method === 'TextDelta') break;
    expect(await serverSawClose(id)).toMatchObject({ closed: true, finishedByServer: false, code: 1000 });
    expect(socket.readyState === WebSocket.CLOSING || socket.readyState === WebSocket.CLOSED).toBe(true);
  });

  it('ends a stalled run with RunError{timeout} and closes the socket', async () => {
    const id = uniqueId();
    const events = await collect(decodeWebSocket(socketTo({ id, frames: [opening.join('')], end: 'hang' }), { idleTimeoutMs: 40 }));
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'RunError', 'RunEnd']);
    expect(events[3]?.params).toMatchObject({ code: 'timeout' });
    expect(await serverSawClose(id)).toMatchObject({ closed: true, finishedByServer: false });
  });

  describe('with a consumer slower than the server', () => {
    const deltas = Array.from({ length: 60 }, (_, i) => rpc('TextDelta', { text: `piece ${i} `.padEnd(80, '.') }) + '\n');

    /** Takes one event, waits until the socket is gone, then drains the rest. */
    async function readSlowly(socket: WebSocket, id: string, maxBufferedBytes: number): Promise<WireEvent[]> {
      const iterator = decodeWebSocket(socket, { maxBufferedBytes })[Symbol.asyncIterator]();
      const first = await iterator.next();
      const events: WireEvent[] = first.done ? [] : [first.value];
      await serverSawClose(id);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) events.push(next.value);
      return events;
    }

    it('closes the socket and ends the open run with RunError{network} once more than maxBufferedBytes wait unread', async () => {
      const id = uniqueId();
      const socket = socketTo({ id, frames: [...opening.map((l) => l + '\n'), ...deltas], end: 'hang' });
      const events = await readSlowly(socket, id, 1024);
      expect(await closeRecord(id)).toMatchObject({ closed: true, finishedByServer: false, code: 4009 });
      expect(methods(events).filter((m) => m !== 'TurnBegin' && m !== 'TextDelta')).toEqual(['RunBegin', 'RunError', 'RunEnd']);
      const error = events.find((e) => e.method === 'RunError');
      expect(error?.params).toMatchObject({ code: 'network', message: expect.stringContaining('maxBufferedBytes (1024 bytes)') });
      expect(events.at(-1)?.params).toMatchObject({ stop_reason: 'error' });
      expect(events.length).toBeLessThan(opening.length + deltas.length);
    });

    it('reports the unread data it dropped as a failed run when the limit is hit between runs', async () => {
      const id = uniqueId();
      const run = [rpc('RunBegin', { user_input: 'a' }), rpc('RunEnd', { content: '', tool_calls: [], reasoning_content: '', usage: null })];
      const socket = socketTo({ id, frames: [run.join('\n') + '\n', rpc('RunBegin', { user_input: 'b' }) + '\n', ...deltas], end: 'hang' });
      const events = await readSlowly(socket, id, 1024);
      expect(methods(events)).toEqual(['RunBegin', 'RunEnd', 'RunBegin', 'RunError', 'RunEnd']);
      expect(events[3]?.params).toMatchObject({ code: 'network' });
      expect(events[4]?.params).toMatchObject({ stop_reason: 'error' });
    });

    it('keeps every frame when the unread data stays under maxBufferedBytes', async () => {
      const id = uniqueId();
      const frames = [...opening.map((l) => l + '\n'), ...deltas.slice(0, 5)];
      const iterator = decodeWebSocket(socketTo({ id, frames, end: 'close' }), { maxBufferedBytes: 64 * 1024 })[Symbol.asyncIterator]();
      const events: WireEvent[] = [];
      const first = await iterator.next();
      if (!first.done) events.push(first.value);
      await serverSawClose(id);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) events.push(next.value);
      expect(events.slice(0, frames.length)).toEqual(frames.map((l) => decodeEventLine(l.trim())));
      expect(events[frames.length]?.params).toMatchObject({ code: 'truncated' });
    });
  });
});
