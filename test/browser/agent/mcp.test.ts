// MCP tools in Chromium against real MCP servers built with the official server SDK (test/server/mcp.ts),
// cross-origin over Streamable HTTP.
import { describe, expect, inject, it } from 'vitest';
import { Agent, type AgentModel, type AgentModelEvent, type AgentModelRequest } from '../../../src/agent/agent.js';
import { createMcpClient, mcpTools } from '../../../src/agent/mcp.js';
import type { Tool } from '../../../src/agent/tools.js';
import { HttpError, PagentError } from '../../../src/errors.js';
import type { WireEvent } from '../../../src/wire/events.js';

const api = inject('apiUrl');
const server = (kind: string) => {
  const key = crypto.randomUUID();
  return { url: `${api}/mcp/${key}/${kind}`, log: async () => (await (await fetch(`${api}/mcp/${key}/log`)).json()) as string[] };
};
const ctx = (signal = new AbortController().signal) => ({ signal, tool_call_id: 't' });
const run = (t: Tool<never>, args: unknown, signal?: AbortSignal) => (t as unknown as Tool<unknown>).execute(args, ctx(signal)) as Promise<string>;
const find = (tools: Tool<never>[], name: string) => tools.find((t) => t.name === name)!;

describe('MCP over Streamable HTTP', () => {
  it('lists the server\'s tools with their schemas and calls them', async () => {
    const { url } = server('basic');
    const tools = await mcpTools(url);
    expect(tools.map((t) => t.name).sort()).toEqual(['add', 'fail', 'rich', 'slow', 'unlock']);
    const add = find(tools, 'add');
    expect(add.description).toBe('Add two numbers.');
    expect(add.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(await run(add, { a: 2, b: 40 })).toBe('42');
    expect(await run(find(tools, 'rich'), {})).toBe('Report 📄\n[image: image/png, 9 bytes]\n中文 notes');
  });

  it('an isError result rejects with its text (the server SDK answers an unknown tool that way too)', async () => {
    const client = await createMcpClient(server('basic').url);
    expect(client.server).toEqual({ name: 'pagent-test', version: '1.0.0', protocolVersion: '2025-06-18' });
    await expect(client.callTool('fail', { why: 'no' })).rejects.toThrow('cannot do that: no');
    await expect(client.callTool('nope', {})).rejects.toThrow('Tool nope not found');
    await client.close();
  });

  it('a server that needs an auth header: 401 without it names the status, works with it', async () => {
    const { url } = server('auth');
    const err = await mcpTools(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 401, code: 'http' });
    expect((err as Error).message).toMatch(/^MCP initialize to .* failed: HTTP 401/);
    const tools = await mcpTools(url, { headers: { Authorization: 'Bearer let-me-in' } });
    expect(await run(find(tools, 'add'), { a: 1, b: 1 })).toBe('2');
  });

  it('a server that errors, and one that is unreachable, reject with the reason', async () => {
    const broken = await mcpTools(server('broken').url).catch((e: unknown) => e);
    expect(broken).toMatchObject({ name: 'HttpError', status: 500 });
    expect((broken as Error).message).toContain('database unavailable');
    const down = await mcpTools('http://127.0.0.1:9/mcp').catch((e: unknown) => e);
    expect(down).toBeInstanceOf(PagentError);
    expect(down).toMatchObject({ code: 'network' });
  });

  it('a JSON-RPC error answer rejects with its message and code', async () => {
    const err = await mcpTools(server('rpcerror').url).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PagentError', code: 'mcp' });
    expect((err as Error).message).toBe('MCP initialize failed: Unsupported protocol version (JSON-RPC error -32602)');
  });

  it('a server that never answers times out', async () => {
    const err = await mcpTools(server('hang').url, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PagentError', code: 'timeout' });
    expect((err as Error).message).toMatch(/MCP initialize to .* timed out after 300 ms/);
  });

  it('a call that times out is cancelled on the server', async () => {
    const { url, log } = server('basic');
    const client = await createMcpClient(url, { timeoutMs: 400 });
    await expect(client.callTool('slow', {})).rejects.toMatchObject({ code: 'timeout' });
    await expect.poll(log).toEqual(expect.arrayContaining([expect.stringMatching(/^notification cancelled \d+ timed out after 400 ms$/)]));
    await client.close();
  });

  it('aborting a run cancels the call on the server (notifications/cancelled) and ends the run cancelled', async () => {
    const { url, log } = server('basic');
    const tools = await mcpTools(url);
    const llm: AgentModel = {
      async *stream(): AsyncGenerator<AgentModelEvent> {
        yield { type: 'step', step: { content: '', reasoning_content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'slow', arguments: '{}' } }], finish_reason: 'tool_calls', usage: null } };
      },
    };
    const controller = new AbortController();
    const events: WireEvent[] = [];
    const done = (async () => {
      for await (const e of new Agent({ llm, tools }).events('go', { signal: controller.signal })) events.push(e);
    })();
    await expect.poll(log).toEqual(expect.arrayContaining([expect.stringMatching(/^slow started/)]));
    controller.abort();
    await done;
    expect(events.at(-1)?.params).toMatchObject({ stop_reason: 'cancelled' });
    await expect.poll(log).toEqual(expect.arrayContaining([
      expect.stringMatching(/^notification cancelled \d+ aborted by the client$/),
      expect.stringMatching(/^cancelled \d+/),
    ]));
  });

  it('hears notifications/tools/list_changed and reports the new tool list', async () => {
    const lists: string[][] = [];
    const client = await createMcpClient(server('basic').url, { onToolsChanged: (tools) => lists.push(tools.map((t) => t.name).sort()) });
    expect(await client.callTool('unlock', {})).toBe('unlocked');
    await expect.poll(() => lists.at(-1)).toEqual(['add', 'fail', 'rich', 'secret', 'slow', 'unlock']);
    await client.close();
  });

  it('tools are usable by an Agent end to end, with arguments checked against the server\'s schema', async () => {
    const tools = await mcpTools(server('basic').url, { namePrefix: 'calc_' });
    const requests: AgentModelRequest[] = [];
    const llm: AgentModel = {
      async *stream(request): AsyncGenerator<AgentModelEvent> {
        requests.push(structuredClone({ messages: request.messages, tools: request.tools }));
        const calls = requests.length === 1
          ? [
              { id: 'c1', type: 'function' as const, function: { name: 'calc_add', arguments: '{"a": 20, "b": 22}' } },
              { id: 'c2', type: 'function' as const, function: { name: 'calc_add', arguments: '{"a": "x"}' } },
              { id: 'c3', type: 'function' as const, function: { name: 'calc_fail', arguments: '{"why": "test"}' } },
            ]
          : [];
        yield { type: 'step', step: { content: calls.length ? '' : 'The answer is 42.', reasoning_content: '', tool_calls: calls, finish_reason: 'stop', usage: null } };
      },
    };
    const results: Array<[string, boolean | undefined]> = [];
    for await (const e of new Agent({ llm, tools }).events('What is 20 + 22?')) {
      if (e.method === 'ToolResult') results.push([e.params.content, e.params.ok]);
    }
    expect(requests[0]!.tools!.map((t) => t.function.name)).toContain('calc_add');
    expect(results).toEqual([
      ['42', true],
      ["calc_add error: invalid arguments: missing required property 'b'; 'a' must be number, got string", false],
      ['calc_fail error: cannot do that: test', false],
    ]);
  });
});
