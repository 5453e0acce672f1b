import { describe, expect, it } from 'vitest';
import { createDialect, detectDialect } from '../../../src/wire/dialects/index.js';
import { WireDecodeError } from '../../../src/index.js';
import { decodeChunks, rpc } from './decode-helpers.js';

const victorContent = '{"v": 1, "event": "content", "content": "Hi"}';

describe('dialect detection', () => {
  it('tells pagent from Victor by the shape of one document', () => {
    expect(detectDialect(rpc('TextDelta', { text: 'x' }))).toBe('pagent');
    expect(detectDialect('{"method": "TextDelta", "params": {}}')).toBe('pagent');
    expect(detectDialect(victorContent)).toBe('victor');
    expect(detectDialect('{"type": "content", "content": "x"}')).toBe('victor');
    expect(detectDialect('{"choices": []}')).toBeUndefined();
    expect(detectDialect('not json')).toBeUndefined();
    expect(detectDialect('[1]')).toBeUndefined();
  });

  it('tells AG-UI (upper-case type) and the AI SDK (a UI message part type) from legacy Victor', () => {
    expect(detectDialect('{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}')).toBe('ag-ui');
    expect(detectDialect('{"type": "TEXT_MESSAGE_CHUNK", "delta": "x"}')).toBe('ag-ui');
    expect(detectDialect('{"type": "start"}')).toBe('ai-sdk');
    expect(detectDialect('{"type": "text-delta", "id": "t", "delta": "x"}')).toBe('ai-sdk');
    expect(detectDialect('{"type": "data-weather", "data": {}}')).toBe('ai-sdk');
    expect(detectDialect('{"type": "error", "errorText": "boom"}')).toBe('ai-sdk');
    expect(detectDialect('{"type": "error", "message": "boom"}')).toBe('victor');
    expect(detectDialect('{"type": "stream_end"}')).toBe('victor');
  });

  it('locks onto the first recognisable document, after garbage lines', () => {
    const out = decodeChunks(['<html>\n' + victorContent + '\n' + '{"v": 1, "event": "stream_end"}\n']);
    expect(out.errors.map((e) => [e.reason, e.lineNumber])).toEqual([['invalid-json', 1]]);
    expect(out.events.map((e) => e.method)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'TurnEnd', 'RunEnd']);
  });

  it('decodes Victor documents over SSE', () => {
    const out = decodeChunks([`data: ${victorContent}\n\ndata: {"v": 1, "event": "stream_end"}\n\n`]);
    expect(out.events.filter((e) => e.method === 'TextDelta')).toEqual([{ method: 'TextDelta', params: { text: 'Hi' } }]);
    expect(out.events.at(-1)?.method).toBe('RunEnd');
  });

  it('keeps a forced dialect: pagent lines under dialect victor are bad documents', () => {
    const out = decodeChunks([rpc('TextDelta', { text: 'x' }) + '\n'], { dialect: 'victor' });
    expect(out.errors).toHaveLength(1);
    expect(out.events.map((e) => e.method)).toEqual(['RunBegin', 'RunError', 'RunEnd']);
  });
});

describe('pagent dialect', () => {
  it('returns unknown methods as UnknownEvent and throws WireDecodeError for bad lines', () => {
    const dialect = createDialect('pagent');
    expect(dialect.decode(rpc('Heartbeat', { n: 1 }), 1)).toEqual([{ method: 'Heartbeat', params: { n: 1 }, unknown: true }]);
    expect(() => dialect.decode('{', 2)).toThrow(WireDecodeError);
  });

  it('forgets the last TurnResult on reset', () => {
    const dialect = createDialect('pagent');
    dialect.decode(rpc('TurnResult', { content: 'c', tool_calls: [], reasoning_content: '', usage: null }), 1);
    dialect.reset();
    expect(dialect.decode(rpc('RunEnd', { turn: 0, stop_reason: 'x' }), 2)).toEqual([
      { method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null, turn: 0, stop_reason: 'x' } },
    ]);
  });
});
