// Fault behaviour of the Agent in Chromium against a local scripted OpenAI-compatible server
// (test/server/replay.ts, /replay/_script/<key>): real fetch, real LLM client, real aborts.
import { describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import { PagentError } from '../../../src/errors.js';
import type { ParamsOf, WireEvent } from '../../../src/wire/events.js';
import type { ScriptedResponse } from '../../server/replay.js';
import { expectValidHistory } from '../../helpers/history.js';

const api = inject('apiUrl');

const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1767225600, model: 'scripted',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const text = (...parts: string[]): ScriptedResponse => ({
  chunks: [chunk({ role: 'assistant', content: '' }), ...parts.map((p) => chunk({ content: p })), chunk({}, 'stop')],
});
const toolCalls = (...calls: Array<[id: string, name: string, args: string]>): ScriptedResponse => ({
  chunks: [
    chunk({ role: 'assistant', content: null }),
    ...calls.map(([id, name, args], index) => chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }] })),
    chunk({}, 'tool_calls'),
  ],
});

interface Body { messages: ChatMessage[] }

async function scripted(responses: ScriptedResponse[]): Promise<{ llm: LLM; requests: () => Promise<Body[]> }> {
  const key = crypto.randomUUID();
  const res = await fetch(`${api}/replay/_script/${key}`, { method: 'POST', body: JSON.stringify({ responses }) });
  expect(res.ok).toBe(true);
  return {
    llm: new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, retries: 0 }),
    requests: async () => (await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Body[],
  };
}

const echo = tool<{ text: string }>({
  name: 'echo', description: 'Echo the text back.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  execute: ({ text: t }) => t,
});

async function collect(events: AsyncIterable<WireEvent>, onEvent?: (e: WireEvent) => void): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of events) {
    out.push(e);
    onEvent?.(e);
  }
  return out;
}
const paramsOf = <M extends WireEvent['method']>(events: WireEvent[], method: M): ParamsOf<M>[] =>
  events.filter((e) => e.method === method).map((e) => e.params as ParamsOf<M>);


describe('Agent over HTTP: cancellation', () => {
  it('abort mid-stream ends with RunEnd cancelled, no RunError, and the next request succeeds', async () => {
    const { llm, requests } = await scripted([{ ...text('Hello ', 'wor'), hang: true, done: false }, text('Fine.')]);
    const controller = new AbortController();
    const agent = new Agent({ llm, session: new Session('sys') });
    const events = await collect(agent.events('hi', { signal: controller.signal }), (e) => {
      if (e.method === 'TextDelta' && e.params.text === 'wor') controller.abort();
    });
    expect(events.map((e) => e.method)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'TextDelta', 'TurnEnd', 'RunEnd']);
    expect(events.at(-1)?.params).toEqual({ content: 'Hello wor', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'cancelled', turn: 0 });
    const end = await agent.run('again');
    expect(end).toMatchObject({ content: 'Fine.', stop_reason: 'no_tool_calls' });
    const bodies = await requests();
    expect(bodies[1]!.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello wor' },
      { role: 'user', content: 'again' },
    ]);
  });

  it('abort mid-tool ends cancelled and never leaves tool_calls without their results', async () => {
    const controller = new AbortController();
    const hang = tool({ ...echo, name: 'hang', execute: (_args, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))) });
    const { llm, requests } = await scripted([toolCalls(['c1', 'echo', '{"text": "a"}'], ['c2', 'hang', '{"text": "b"}']), text('Next.')]);
    const agent = new Agent({ llm, tools: [echo, hang] });
    const events = await collect(agent.events('go', { signal: controller.signal }), (e) => {
      if (e.method === 'ToolCallBegin' && e.params.name === 'hang') setTimeout(() => controller.abort(), 5);
    });
    expect(events.some((e) => e.method === 'RunError')).toBe(false);
    expect(events.at(-1)?.params).toMatchObject({ stop_reason: 'cancelled', tool_calls: [{ id: 'c1' }, { id: 'c2' }] });
    await agent.run('and now?');
    const bodies = await requests();
    expect(bodies).toHaveLength(2);
    expectValidHistory(bodies[1]!.messages);
    expect(bodies[1]!.messages.filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'a' },
      { role: 'tool', tool_call_id: 'c2', content: 'error: cancelled before the tool finished' },
    ]);
  });
});

describe('Agent over HTTP: provider failures', () => {
  it('an error object mid-stream gives RunError provider then RunEnd error, and the session stays valid', async () => {
    const { llm, requests } = await scripted([
      toolCalls(['c1', 'echo', '{"text": "x"}']),
      { chunks: [chunk({ content: 'Half' }), { error: { message: 'upstream overloaded', type: 'server_error' } }] },
      text('Recovered.'),
    ]);
    const agent = new Agent({ llm, tools: [echo] });
    const events = await collect(agent.events('go'));
    expect(events.map((e) => e.method).slice(-5)).toEqual(['TurnBegin', 'TextDelta', 'RunError', 'TurnEnd', 'RunEnd']);
    const [error] = paramsOf(events, 'RunError');
    expect(error).toMatchObject({ code: 'provider', where: 'llm' });
    expect(error?.message).toContain('upstream overloaded');
    expect(events.at(-1)?.params).toMatchObject({ content: 'Half', stop_reason: 'error', turn: 1 });
    expect((await agent.run('retry')).content).toBe('Recovered.');
    const bodies = await requests();
    expectValidHistory(bodies[2]!.messages);
    expect(bodies[2]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('an HTTP error rejects run() with a PagentError carrying code and status', async () => {
    const { llm } = await scripted([{ status: 400, body: JSON.stringify({ error: { message: 'model not found' } }) }]);
    const err = await new Agent({ llm }).run('q').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PagentError);
    expect(err).toMatchObject({ code: 'http', status: 400, where: 'llm' });
  });
});

describe('Agent over HTTP: tool faults go back to the model', () => {
  async function runWith(calls: Array<[string, string, string]>, options: Partial<ConstructorParameters<typeof Agent>[0]> = {}) {
    const { llm, requests } = await scripted([toolCalls(...calls), text('ok')]);
    const events = await collect(new Agent({ llm, tools: [echo], ...options }).events('go'));
    const bodies = await requests();
    return { results: paramsOf(events, 'ToolResult'), sentBack: bodies[1]!.messages.filter((m) => m.role === 'tool'), events };
  }

  it('unknown tool, invalid JSON and schema violations each get ok false and pagent texts', async () => {
    const { results, sentBack } = await runWith([
      ['c1', 'nope', '{}'],
      ['c2', 'echo', '{"text": '],
      ['c3', 'echo', '{"text": 3, "extra": true}'],
    ]);
    expect(results.map((r) => r.ok)).toEqual([false, false, false]);
    expect(results[0]?.content).toBe("error: unknown tool 'nope'; available: ['echo']");
    expect(results[1]?.content).toMatch(/^Invalid JSON in tool arguments: /);
    expect(results[2]?.content).toBe("echo error: invalid arguments: 'text' must be string, got integer; unexpected property 'extra'");
    expect(sentBack.map((m) => m.content)).toEqual(results.map((r) => r.content));
  });

  it('a tool timeout gives ok false and the run goes on', async () => {
    const slow = tool({ ...echo, name: 'slow', timeoutMs: 10, execute: () => new Promise<string>(() => undefined) });
    const { results, events } = await runWith([['c1', 'slow', '{"text": "x"}']], { tools: [slow] });
    expect(results[0]).toMatchObject({ ok: false, content: 'slow error: timed out after 10 ms' });
    expect(events.at(-1)?.params).toMatchObject({ content: 'ok', stop_reason: 'no_tool_calls' });
  });

  it('approval: a denied call gets ok false, an approved call runs, both after their ToolCallBegin', async () => {
    const guarded = tool({ ...echo, name: 'guarded', needsApproval: true });
    const order: string[] = [];
    const { llm } = await scripted([toolCalls(['c1', 'guarded', '{"text": "first"}'], ['c2', 'guarded', '{"text": "second"}']), text('ok')]);
    const agent = new Agent({
      llm, tools: [guarded],
      approve: async (c) => {
        order.push(`approve ${c.tool_call_id}`);
        return c.tool_call_id === 'c2';
      },
    });
    const events = await collect(agent.events('go'), (e) => {
      if (e.method === 'ToolCallBegin' || e.method === 'ToolResult') order.push(`${e.method} ${e.params.tool_call_id}`);
    });
    expect(order).toEqual(['ToolCallBegin c1', 'approve c1', 'ToolResult c1', 'ToolCallBegin c2', 'approve c2', 'ToolResult c2']);
    expect(paramsOf(events, 'ToolResult').map((r) => [r.ok, r.content])).toEqual([
      [false, 'guarded error: denied by the user'],
      [true, 'second'],
    ]);
  });
});

describe('Agent with the IndexedDB session store', () => {
  it('saves each turn and a new agent restores the conversation before its first run', async () => {
    const store = createSessionStore({ name: `agent-test-${crypto.randomUUID()}` });
    const { llm, requests } = await scripted([toolCalls(['c1', 'echo', '{"text": "saved"}']), text('First.'), text('Second.')]);
    await new Agent({ llm, tools: [echo], store, sessionId: 'chat-1' }).run('one');
    const stored = await store.load('chat-1');
    expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

    const restored = new Agent({ llm, tools: [echo], session: new Session('sys'), store, sessionId: 'chat-1' });
    await restored.run('two');
    const bodies = await requests();
    expect(bodies[2]!.messages).toEqual([
      { role: 'system', content: 'sys' },
      ...(stored?.messages ?? []),
      { role: 'user', content: 'two' },
    ]);
    expect((await store.load('chat-1'))?.messages).toHaveLength(6);
    await store.clear();
  });
});
