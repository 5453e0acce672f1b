import { describe, expect, it } from 'vitest';
import { decodeEventLine, WireDecodeError } from '../../../src/index.js';
import { createVictorDialect } from '../../../src/wire/dialects/victor.js';
import { decodeChunks, rpc } from './decode-helpers.js';

// docs/wire.md#bad-input: an optional field sent as null is absent; one of the wrong type is dropped, the event kept and
// the dropped field reported through onDecodeError (reason "invalid-params").
describe('optional fields are forgiving (issue 10, item 2)', () => {
  it('reads null optional fields as absent: RunError{status: null}, ToolResult{elapsed_ms: null}', () => {
    expect(decodeEventLine(rpc('RunError', { message: 'boom', code: 'http', status: null, where: null }))).toEqual({
      method: 'RunError',
      params: { message: 'boom', code: 'http' },
    });
    expect(
      decodeEventLine(rpc('ToolResult', { tool_call_id: 'c1', name: 't', content: 'x', ok: null, elapsed_ms: null, truncated: null })),
    ).toEqual({ method: 'ToolResult', params: { tool_call_id: 'c1', name: 't', content: 'x' } });
    expect(decodeEventLine(rpc('TurnEnd', { turn: 0, stopped: true, stop_reason: null }))).toEqual({
      method: 'TurnEnd',
      params: { turn: 0, stopped: true },
    });
  });

  it('drops a wrong-typed optional field and keeps the event', () => {
    expect(decodeEventLine(rpc('RunError', { message: 'boom', code: 'http', status: '502' }))).toEqual({
      method: 'RunError',
      params: { message: 'boom', code: 'http' },
    });
    expect(decodeEventLine(rpc('ToolResult', { tool_call_id: 'c1', name: 't', content: 'x', elapsed_ms: '12ms', ok: true }))).toEqual({
      method: 'ToolResult',
      params: { tool_call_id: 'c1', name: 't', content: 'x', ok: true },
    });
  });

  it('reports each dropped field through onDecodeError in a stream, and still yields the event', () => {
    const body =
      [
        rpc('RunBegin', { user_input: 'hi' }),
        rpc('ToolResult', { tool_call_id: 'c1', name: 't', content: 'x', elapsed_ms: 'slow', truncated: 'no' }),
        rpc('RunError', { message: 'boom', code: 'http', status: null }),
        rpc('RunEnd', { content: '', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error' }),
      ].join('\n') + '\n';
    const out = decodeChunks([body]);
    expect(out.events.map((e) => e.method)).toEqual(['RunBegin', 'ToolResult', 'RunError', 'RunEnd']);
    expect(out.events[1]!.params).toEqual({ tool_call_id: 'c1', name: 't', content: 'x' });
    expect(out.events[2]!.params).toEqual({ message: 'boom', code: 'http' });
    expect(out.errors.map((e: WireDecodeError) => [e.reason, e.lineNumber, e.message])).toEqual([
      ['invalid-params', 2, 'ToolResult: dropped "elapsed_ms": must be a number (line 2)'],
      ['invalid-params', 2, 'ToolResult: dropped "truncated": must be a boolean (line 2)'],
    ]);
  });

  it('keeps the required fields strict: a missing or wrong-typed one still rejects the line', () => {
    expect(() => decodeEventLine(rpc('RunError', { message: 'boom', code: null }))).toThrowError(
      expect.objectContaining({ reason: 'invalid-params' }),
    );
    expect(() => decodeEventLine(rpc('ToolResult', { tool_call_id: 'c1', name: 't', content: null }))).toThrowError(
      expect.objectContaining({ reason: 'invalid-params' }),
    );
  });

  it('keeps a Victor tool_result whose elapsed_ms or truncated is mistyped, and reports the dropped field', () => {
    const dialect = createVictorDialect(WireDecodeError);
    const reported: WireDecodeError[] = [];
    const events = dialect.decode('{"v": 1, "event": "tool_result", "tool": "t", "success": true, "result": "ok", "elapsed_ms": "1s", "truncated": 1}', 4, (e) =>
      reported.push(e),
    );
    expect(events.at(-1)).toEqual({ method: 'ToolResult', params: { tool_call_id: 'victor-unmatched-1', name: 't', content: 'ok', ok: true } });
    expect(reported.map((e) => [e.reason, e.lineNumber])).toEqual([
      ['invalid-params', 4],
      ['invalid-params', 4],
    ]);
  });
});
