import { describe, expect, it } from 'vitest';
// Not decode-helpers.js: it loads every reader, and this file needs them not loaded yet.
import { createWireDecoder, type UnknownEvent, type WireDecodeError, type WireEvent } from '../../../src/index.js';
import { loadedDialect } from '../../../src/wire/dialects/registry.js';

const victorDocs = [
  { v: 1, event: 'content', content: 'Hel' },
  { v: 1, event: 'content', content: 'lo' },
  { v: 1, event: 'stream_end' },
]
  .map((d) => JSON.stringify(d) + '\n')
  .join('');

function collect(options: Parameters<typeof createWireDecoder>[0] extends infer O ? Omit<O & object, 'onEvent'> : never = {}) {
  const events: Array<WireEvent | UnknownEvent> = [];
  const errors: WireDecodeError[] = [];
  const decoder = createWireDecoder({ ...options, onEvent: (e) => void events.push(e), onDecodeError: (e) => void errors.push(e) });
  return { decoder, events, errors };
}

describe('dialect readers load on first use', () => {
  it('reads pagent within feed(), never waiting for a reader', () => {
    const { decoder, events } = collect();
    decoder.feed('{"jsonrpc": "2.0", "method": "TextDelta", "params": {"text": "hi"}}\n');
    expect(decoder.loading).toBeUndefined();
    expect(events.map((e) => e.method)).toEqual(['RunBegin', 'TextDelta']);
  });

  it('holds a Victor stream, end() included, until its reader loads, then delivers it all in order', async () => {
    expect(loadedDialect('victor')).toBeUndefined();
    const { decoder, events, errors } = collect();
    decoder.feed(victorDocs.slice(0, 50)); // the first document and a piece of the next
    expect(decoder.loading).toBeInstanceOf(Promise);
    decoder.feed(victorDocs.slice(50));
    decoder.end();
    decoder.cancel(); // after end(): a no-op, also while waiting
    expect(events).toEqual([]);
    await decoder.loading;
    expect(errors).toEqual([]);
    expect(events).toEqual([
      { method: 'RunBegin', params: { user_input: '' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TextDelta', params: { text: 'Hel' } },
      { method: 'TextDelta', params: { text: 'lo' } },
      { method: 'TurnEnd', params: { turn: 0, stopped: true, stop_reason: 'no_tool_calls' } },
      {
        method: 'RunEnd',
        params: { content: 'Hello', tool_calls: [], reasoning_content: '', usage: null, turn: 0, stop_reason: 'no_tool_calls' },
      },
    ]);
  });

  it('reads a dialect synchronously once its reader is loaded', () => {
    expect(loadedDialect('victor')).toBeTypeOf('function');
    const { decoder, events } = collect({ dialect: 'victor' });
    decoder.feed(victorDocs);
    expect(decoder.loading).toBeUndefined();
    expect(events.map((e) => e.method)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'TextDelta', 'TurnEnd', 'RunEnd']);
  });

  it('loads a forced dialect at once and cancels after what came before the abort', async () => {
    const { decoder, events } = collect({ dialect: 'ag-ui' });
    expect(decoder.loading).toBeInstanceOf(Promise);
    decoder.feed('{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}\n');
    decoder.cancel();
    await decoder.loading;
    expect(events.map((e) => e.method)).toEqual(['RunBegin', 'TurnBegin', 'RunEnd']);
    expect(events.at(-1)).toMatchObject({ params: { stop_reason: 'cancelled' } });
  });
});
