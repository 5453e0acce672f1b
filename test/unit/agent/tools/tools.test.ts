import { describe, expect, it } from 'vitest';
import { checkArguments } from '../../../../src/agent/tools/tool-args.js';
import { runToolCall, ToolCallAborted, unknownToolText } from '../../../../src/agent/tools/tool-call.js';
import { tool, type Tool } from '../../../../src/agent/tools/tools.js';

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city'],
  additionalProperties: false,
};

function toolMap(...tools: Tool<never>[]): Map<string, Tool<never>> {
  return new Map(tools.map((t) => [t.name, t]));
}

const call = (name: string, args: string) => ({ tool_call_id: 'c1', name, arguments: args });

describe('tool()', () => {
  it('builds the OpenAI function schema from name, description and parameters', () => {
    const t = tool({ name: 'get_weather', description: 'Weather.', parameters: weatherSchema, execute: () => 'x' });
    expect(t.schema).toEqual({ type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters: weatherSchema } });
  });

  it('refuses a tool without a name', () => {
    expect(() => tool({ name: '', description: '', parameters: {}, execute: () => '' })).toThrow(TypeError);
  });
});

describe('checkArguments', () => {
  it('accepts arguments that fit the schema', () => {
    expect(checkArguments({ city: 'Paris', unit: 'celsius' }, weatherSchema)).toEqual([]);
  });

  it('reports a missing required property', () => {
    expect(checkArguments({}, weatherSchema)).toEqual(["missing required property 'city'"]);
  });

  it('reports a wrong type', () => {
    expect(checkArguments({ city: 42 }, weatherSchema)).toEqual(["'city' must be string, got integer"]);
  });

  it('reports a value outside the enum', () => {
    expect(checkArguments({ city: 'Paris', unit: 'kelvin' }, weatherSchema)).toEqual(['\'unit\' must be one of ["celsius","fahrenheit"]']);
  });

  it('reports extra properties when additionalProperties is false', () => {
    expect(checkArguments({ city: 'Paris', country: 'FR' }, weatherSchema)).toEqual(["unexpected property 'country'"]);
  });

  it('allows extra properties when additionalProperties is not false', () => {
    expect(checkArguments({ a: 1, extra: true }, { type: 'object', properties: { a: { type: 'integer' } } })).toEqual([]);
  });

  it('tells integers from fractional numbers and lets integers pass as numbers', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' }, x: { type: 'number' } } };
    expect(checkArguments({ n: 1.5, x: 2 }, schema)).toEqual(["'n' must be integer, got number"]);
  });

  it('rejects a non-object where an object is required', () => {
    expect(checkArguments([1, 2], weatherSchema)).toEqual(['arguments must be object, got array']);
  });

  it('checks nested objects and array items with their paths', () => {
    const schema = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        nested: { type: 'object', properties: { depth: { type: 'integer' } }, required: ['depth'] },
      },
    };
    expect(checkArguments({ tags: ['a', 3], nested: {} }, schema)).toEqual([
      "'tags[1]' must be string, got integer",
      "missing required property 'nested.depth'",
    ]);
  });

  it('accepts a list of types, null included', () => {
    const schema = { type: 'object', properties: { maybe: { type: ['integer', 'null'] } } };
    expect(checkArguments({ maybe: null }, schema)).toEqual([]);
    expect(checkArguments({ maybe: 'x' }, schema)).toEqual(["'maybe' must be integer or null, got string"]);
  });
});

describe('unknownToolText', () => {
  it("writes pagent's text with the available names sorted as a Python list", () => {
    expect(unknownToolText('nope', ['get_weather', 'add'])).toBe("error: unknown tool 'nope'; available: ['add', 'get_weather']");
  });

  it("uses Python's repr for names with quotes", () => {
    expect(unknownToolText("it's", [])).toBe('error: unknown tool "it\'s"; available: []');
  });
});

describe('runToolCall', () => {
  const signal = new AbortController().signal;
  const add = tool<{ a: number; b: number }>({
    name: 'add',
    description: 'Add two integers.',
    parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false },
    execute: ({ a, b }) => String(a + b),
  });

  it('runs a valid call and returns its text', async () => {
    expect(await runToolCall(toolMap(add), call('add', '{"a": 2, "b": 40}'), { signal, check: checkArguments })).toEqual({ content: '42', ok: true, elapsedMs: expect.any(Number) });
  });

  it('JSON-stringifies a non-string result', async () => {
    const t = tool({ name: 'obj', description: '', parameters: { type: 'object' }, execute: () => ({ x: 1 }) });
    expect(await runToolCall(toolMap(t), call('obj', '{}'), { signal, check: checkArguments })).toEqual({ content: '{"x":1}', ok: true, elapsedMs: expect.any(Number) });
  });

  it('reads empty arguments text as an empty object', async () => {
    const t = tool({ name: 'now', description: '', parameters: { type: 'object', properties: {} }, execute: () => 'noon' });
    expect(await runToolCall(toolMap(t), call('now', ''), { signal, check: checkArguments })).toEqual({ content: 'noon', ok: true, elapsedMs: expect.any(Number) });
  });

  it('answers an invalid JSON text with the "Invalid JSON in tool arguments:" prefix', async () => {
    const out = await runToolCall(toolMap(add), call('add', '{"a": 2,'), { signal, check: checkArguments });
    expect(out.ok).toBe(false);
    expect(out.content.startsWith('Invalid JSON in tool arguments: ')).toBe(true);
  });

  it('answers a schema violation without calling the tool', async () => {
    let calls = 0;
    const counted = tool({ ...add, execute: () => String(++calls) });
    const out = await runToolCall(toolMap(counted), call('add', '{"a": "2"}'), { signal, check: checkArguments });
    expect(out).toEqual({ content: "add error: invalid arguments: missing required property 'b'; 'a' must be integer, got string", ok: false });
    expect(calls).toBe(0);
  });

  it('answers a throwing tool with "<name> error: <message>"', async () => {
    const explode = tool({ name: 'explode', description: '', parameters: { type: 'object' }, execute: () => { throw new Error('boom: disk full'); } });
    expect(await runToolCall(toolMap(explode), call('explode', '{}'), { signal, check: checkArguments })).toEqual({ content: 'explode error: boom: disk full', ok: false, elapsedMs: expect.any(Number) });
  });

  it('gives up on a tool after timeoutMs and aborts its signal', async () => {
    let seen: AbortSignal | undefined;
    const slow = tool({
      name: 'slow', description: '', parameters: { type: 'object' }, timeoutMs: 5,
      execute: (_args, ctx) => { seen = ctx.signal; return new Promise(() => undefined); },
    });
    expect(await runToolCall(toolMap(slow), call('slow', '{}'), { signal, check: checkArguments })).toEqual({ content: 'slow error: timed out after 5 ms', ok: false, elapsedMs: expect.any(Number) });
    expect(seen?.aborted).toBe(true);
  });

  it('passes the call id and a live signal to execute', async () => {
    const probe = tool({ name: 'probe', description: '', parameters: { type: 'object' }, execute: (_a, ctx) => `${ctx.tool_call_id}:${ctx.signal.aborted}` });
    expect((await runToolCall(toolMap(probe), call('probe', '{}'), { signal, check: checkArguments })).content).toBe('c1:false');
  });

  it('throws ToolCallAborted and aborts the tool when the run is cancelled', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const hang = tool({ name: 'hang', description: '', parameters: { type: 'object' }, execute: (_a, ctx) => { seen = ctx.signal; return new Promise(() => undefined); } });
    const pending = runToolCall(toolMap(hang), call('hang', '{}'), { signal: controller.signal, check: checkArguments });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(ToolCallAborted);
    expect(seen?.aborted).toBe(true);
  });

  it('denies a needsApproval call when no approve function is given', async () => {
    const guarded = tool({ ...add, needsApproval: true });
    const out = await runToolCall(toolMap(guarded), call('add', '{"a": 1, "b": 2}'), { signal, check: checkArguments });
    expect(out.ok).toBe(false);
    expect(out.content).toMatch(/^add error: denied/);
  });

  it('asks approve() with the call and runs the tool only when it resolves true', async () => {
    const asked: unknown[] = [];
    const guarded = tool({ ...add, needsApproval: (args: { a: number }) => args.a > 1 });
    const approve = (c: unknown): boolean => { asked.push(c); return true; };
    expect(await runToolCall(toolMap(guarded), call('add', '{"a": 1, "b": 2}'), { signal, approve, check: checkArguments })).toEqual({ content: '3', ok: true, elapsedMs: expect.any(Number) });
    expect(asked).toEqual([]);
    expect(await runToolCall(toolMap(guarded), call('add', '{"a": 5, "b": 2}'), { signal, approve, check: checkArguments })).toEqual({ content: '7', ok: true, elapsedMs: expect.any(Number) });
    expect(asked).toEqual([{ tool_call_id: 'c1', name: 'add', arguments: '{"a": 5, "b": 2}' }]);
  });
});
