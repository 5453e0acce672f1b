import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createWireDecoder,
  decodeEventLine,
  encodeEventLine,
  eventToRpc,
  rpcToEvent,
  WireDecodeError,
  type WireEvent,
} from '../../../src/index.js';
import { emptyStep, failedRunEvents } from '../../../src/wire/events.js';
import { isShortRunEnd } from '../../../src/wire/codec.js';

const fixtures = new URL('../../fixtures/', import.meta.url);
const linesOf = (path: string): string[] =>
  readFileSync(new URL(path, fixtures), 'utf8').split('\n').filter((l) => l !== '');

describe('codec', () => {
  it('re-encodes every pagent corpus line to a JSON-equal line', () => {
    const files = readdirSync(new URL('pagent/', fixtures)).filter((f) => f.endsWith('.ndjson'));
    expect(files.length).toBe(7);
    for (const file of files) {
      for (const line of linesOf(`pagent/${file}`)) {
        const event = decodeEventLine(line);
        const encoded = encodeEventLine(event);
        expect(encoded.endsWith('\n')).toBe(true);
        expect(JSON.parse(encoded)).toEqual(JSON.parse(line));
        expect(decodeEventLine(encoded)).toEqual(event);
      }
    }
  });

  it('round-trips events through eventToRpc and rpcToEvent', () => {
    const event: WireEvent = { method: 'ToolResult', params: { tool_call_id: 'c1', name: 'add', content: '5', ok: true } };
    expect(eventToRpc(event)).toEqual({ jsonrpc: '2.0', method: 'ToolResult', params: event.params });
    expect(rpcToEvent(eventToRpc(event))).toEqual(event);
  });

  it('throws a WireDecodeError for an unknown method', () => {
    const err = (() => {
      try {
        decodeEventLine('{"jsonrpc":"2.0","method":"Nope","params":{}}');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(WireDecodeError);
    expect((err as WireDecodeError).reason).toBe('unknown-method');
    expect((err as WireDecodeError).name).toBe('WireDecodeError');
  });


  it('gives a bad TextDelta the errors of its schema, and keeps the extra keys of a good one', () => {
    const cases: Array<[string, string]> = [
      ['{}', 'TextDelta: missing "text" (line 3)'],
      ['{"text": 1}', 'TextDelta: "text" must be a string (line 3)'],
      ['{"text": null}', 'TextDelta: "text" must be a string (line 3)'],
      ['{"text": ["a"]}', 'TextDelta: "text" must be a string (line 3)'],
      ['[]', 'TextDelta: params must be an object (line 3)'],
      ['"a"', 'TextDelta: params must be an object (line 3)'],
    ];
    for (const [params, message] of cases) {
      const errors: WireDecodeError[] = [];
      const events: unknown[] = [];
      const decoder = createWireDecoder({ onEvent: (e) => void events.push(e), onDecodeError: (e) => void errors.push(e) });
      decoder.feed(`{"jsonrpc":"2.0","method":"RunBegin","params":{"user_input":""}}\n\n{"jsonrpc":"2.0","method":"TextDelta","params":${params}}\n`);
      expect(errors.map((e) => [e.reason, e.message]), params).toEqual([['invalid-params', message]]);
      expect(events, params).toEqual([{ method: 'RunBegin', params: { user_input: '' } }]);
    }
    const line = '{"jsonrpc":"2.0","method":"TextDelta","params":{"text":"a","extra":1,"__proto__":{"x":1}}}';
    const { params } = decodeEventLine(line) as { params: Record<string, unknown> };
    expect(params['text']).toBe('a');
    expect(params['extra']).toBe(1);
    expect(Object.hasOwn(params, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
  });

  it('reads method names of Object.prototype as unknown methods', () => {
    for (const method of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf']) {
      const line = JSON.stringify({ jsonrpc: '2.0', method, params: {} });
      expect(() => decodeEventLine(line), method).toThrow(expect.objectContaining({ reason: 'unknown-method' }));
    }
    // and a known one still decodes after them
    expect(decodeEventLine('{"jsonrpc":"2.0","method":"TextDelta","params":{"text":"a"}}')).toEqual({ method: 'TextDelta', params: { text: 'a' } });
  });

  it('refuses a JSON-RPC request or response, an id of null included, and takes no inherited id', () => {
    for (const id of [1, 'a', null]) {
      const line = JSON.stringify({ jsonrpc: '2.0', id, method: 'TextDelta', params: { text: 'a' } });
      expect(() => decodeEventLine(line), String(id)).toThrow(/has "id"/);
    }
    const message = Object.assign(Object.create({ id: 1 }) as object, { jsonrpc: '2.0', method: 'TextDelta', params: { text: 'a' } });
    expect(rpcToEvent(message)).toEqual({ method: 'TextDelta', params: { text: 'a' } });
  });
  it('narrows params with switch (event.method)', () => {
    const describeEvent = (e: WireEvent): string => {
      switch (e.method) {
        case 'TextDelta':
          expectTypeOf(e.params).toEqualTypeOf<{ text: string }>();
          return e.params.text;
        case 'ToolResult':
          expectTypeOf(e.params.ok).toEqualTypeOf<boolean | undefined>();
          return e.params.content;
        default:
          // @ts-expect-error params of other methods have no `text`
          return String(e.params.text);
      }
    };
    expect(describeEvent({ method: 'TextDelta', params: { text: 'hi' } })).toBe('hi');
  });
});

describe('shared run pieces', () => {
  it('gives a fresh empty step and failed run on every call, so mutating one event leaves the next intact', () => {
    const first = failedRunEvents({ code: 'network', message: 'down' });
    expect(first).toEqual([
      { method: 'RunBegin', params: { user_input: '' } },
      { method: 'RunError', params: { code: 'network', message: 'down' } },
      { method: 'RunEnd', params: { content: '', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error' } },
    ]);
    const end = first[2];
    end.params.content = 'changed';
    end.params.tool_calls.push({ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } });
    const step = emptyStep();
    step.reasoning_content = 'changed';
    expect(failedRunEvents({ code: 'network', message: 'down' })[2].params).toEqual({
      content: '', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error',
    });
    expect(emptyStep()).toEqual({ content: '', tool_calls: [], reasoning_content: '', usage: null });
  });

  it('opens a failed run with the user input it is given', () => {
    expect(failedRunEvents({ code: 'store', message: 'unreadable', where: 'store' }, 'hello')[0]).toEqual({
      method: 'RunBegin',
      params: { user_input: 'hello' },
    });
  });

  it('recognises pagentv4\'s short RunEnd by its missing content', () => {
    expect(isShortRunEnd('RunEnd', { turn: 1, stop_reason: 'no_tool_calls' })).toBe(true);
    expect(isShortRunEnd('RunEnd', { content: '', tool_calls: [], reasoning_content: '', usage: null })).toBe(false);
    expect(isShortRunEnd('TurnEnd', { turn: 1, stopped: true })).toBe(false);
  });
});
