// MCP tools in Chromium against real MCP servers built with the official server SDK (test/server/mcp.ts),
// cross-origin over Streamable HTTP.
import { describe, expect, inject, it } from 'vitest';
import { Agent, type AgentModel, type AgentModelEvent, type AgentModelRequest } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import { createMcpClient, mcpTools } from '../../../src/agent/tools/mcp.js';
import type { Tool } from '../../../src/agent/tools/tools.js';
import { HttpError, PagentError } from '../../../src/errors.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import type { WireEvent } from '../../../src/wire/events.js';
import { answers, chatFixture, until } from '../chat/helpers.js';

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

// issue 22, item 8: an MCP server's headers go only to its own URL, and its secrets never come back out.
describe('MCP headers and their secrets', () => {
  const API_KEY = 'mcp-Key-7f3a9Q2x';
  const BEARER = 'tok_9XyZ8wV7uT6sR5qP';
  const headers = { 'X-Api-Key': API_KEY, Authorization: `Bearer ${BEARER}` };
  const requestsTo = async (key: string) => ((await (await fetch(`${api}/mcp/${key}/requests`)).json()) as { count: number }).count;
  const expectNoSecret = (text: string, what: string) => {
    expect(text, what).not.toContain(API_KEY);
    expect(text, what).not.toContain(BEARER);
  };

  it('refuses a redirect to another origin: that origin receives nothing, and the error names the redirect', async () => {
    const key = crypto.randomUUID();
    const url = `${api}/mcp/${key}/redirect`;
    const err = await mcpTools(url, { headers }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PagentError);
    expect(err).toMatchObject({ code: 'redirect', where: `mcp:${url}` });
    expect((err as Error).message).toMatch(/^POST .* answered with a redirect .*refused/);
    expect((err as Error).message).toContain(url);
    expectNoSecret((err as Error).message, 'the error');
    expect(await requestsTo(key)).toBeGreaterThan(0);
    expect(await requestsTo(`${key}-target`)).toBe(0);
  });

  it('redacts the header values a server echoes from results and every kind of error', async () => {
    const client = await createMcpClient(server('echo').url, { headers });
    expect(await client.callTool('echo_ok', {})).toBe('you sent key [redacted], auth Bearer [redacted]');
    for (const [name, expected] of [
      ['echo_fail', 'rejected key [redacted], auth Bearer [redacted]'],
      ['echo_rpc', 'unauthorised: key [redacted], auth Bearer [redacted]'],
      ['echo_http', 'upstream refused key [redacted], auth Bearer [redacted]'],
    ] as const) {
      const err = await client.callTool(name, {}).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(Error);
      expect((err as Error).message, name).toContain(expected);
      expectNoSecret((err as Error).message, name);
      expectNoSecret(String((err as Error).stack), `${name}'s stack`);
    }
    await client.close();
  });

  it('a server echoing its token: the tool results, the DOM, the store, the export and the model requests hold no token', async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const call = (id: string, name: string) => ({
      chunks: [chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '{}' } }] }), chunk({}, 'tool_calls')],
    });
    const script = crypto.randomUUID();
    const responses = [call('c1', 'echo_ok'), call('c2', 'echo_fail'), call('c3', 'echo_rpc'), call('c4', 'echo_http'), { chunks: [chunk({ role: 'assistant', content: 'Done.' }), chunk({}, 'stop')] }];
    await fetch(`${api}/replay/_script/${script}`, { method: 'POST', body: JSON.stringify({ responses }) });
    const llm = new LLM('scripted', { baseURL: `${api}/replay/_script/${script}/v1`, apiKey: 'sk-proj-Q9x2LmA7vB3nR8tY1wZ4', retries: 0 });
    const tools = await mcpTools(server('echo').url, { headers });
    const store = createSessionStore({ name: `mcp-secrets-${crypto.randomUUID()}` });
    const agent = new Agent({ llm, tools, store, sessionId: 'mcp-echo' });
    const el = await chatFixture((e) => {
      e.agent = agent;
      e.store = store;
    });
    const results: string[] = [];
    el.addEventListener('pagent-event', (e) => {
      const event = e.detail.event as WireEvent;
      if (event.method === 'ToolResult') results.push(event.params.content);
    });
    el.send('Check the server');
    await until(() => answers(el).at(-1) === 'Done.' && !el.streaming, 'the final answer');
    expect(results).toHaveLength(4);
    for (const content of results) {
      expect(content).toContain('key [redacted], auth Bearer [redacted]');
      expectNoSecret(content, 'a tool result');
    }
    expectNoSecret(el.shadowRoot!.innerHTML, 'the DOM');
    await agent.whenSaved();
    expectNoSecret(JSON.stringify(await store.load('mcp-echo')), 'the store');
    expectNoSecret(await store.export('mcp-echo'), 'the export');
    const bodies = (await (await fetch(`${api}/replay/_script/${script}/requests`)).json()) as unknown[];
    expect(bodies).toHaveLength(5);
    expectNoSecret(JSON.stringify(bodies), 'the model requests');
    store.close();
  });
});
