import { describe, expect, expectTypeOf, it } from 'vitest';
import { Agent, type AgentModel, type AgentStore } from '../../../src/agent/agent.js';
import type { LLM } from '../../../src/agent/llm/llm.js';
import type { SessionStore } from '../../../src/store/session-store-types.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { CompactingSession, Session, SlidingWindowSession, type SummaryModel } from '../../../src/agent/sessions/session.js';
import { tool, type Tool } from '../../../src/agent/tools/tools.js';
import { decodeEventLine } from '../../../src/wire/codec.js';
import type { ParamsOf, WireEvent } from '../../../src/wire/events.js';
import { PagentError, StoreError, type StoreErrorReason } from '../../../src/errors.js';
import { call, scriptedModel } from './scripted-model.js';
import { expectValidHistory } from '../../helpers/history.js';

const add = tool<{ a: number; b: number }>({
  name: 'add',
  description: 'Add two integers.',
  parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false },
  execute: ({ a, b }) => String(a + b),
});
const echo = tool<{ text: string }>({
  name: 'echo',
  description: 'Echo the text back.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  execute: ({ text }) => text,
});

async function collect(events: AsyncIterable<WireEvent>): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}
const methods = (events: WireEvent[]): string[] => events.map((e) => e.method);
const paramsOf = <M extends WireEvent['method']>(events: WireEvent[], method: M): ParamsOf<M>[] =>
  events.filter((e) => e.method === method).map((e) => e.params as ParamsOf<M>);


function memoryStore(initial: ChatMessage[] = []): AgentStore & { appends: ChatMessage[][]; loads: number } {
  const appends: ChatMessage[][] = [];
  const store = {
    appends,
    loads: 0,
    async load() {
      store.loads++;
      return initial.length ? { messages: initial } : undefined;
    },
    async append(_id: string, messages: ChatMessage[]) {
      appends.push(structuredClone(messages));
    },
  };
  return store;
}

describe('Agent events', () => {
  it('emits a text-only run in pagent order with stop reasons set', async () => {
    const llm = scriptedModel([{ text: ['The ', 'answer.'] }]);
    const agent = new Agent({ llm, session: new Session('sys') });
    const events = await collect(agent.events('Q?'));
    expect(events).toEqual([
      { method: 'RunBegin', params: { user_input: 'Q?' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'TextDelta', params: { text: 'The ' } },
      { method: 'TextDelta', params: { text: 'answer.' } },
      { method: 'StepEnd', params: { content: 'The answer.', tool_calls: [], reasoning_content: '', usage: null } },
      { method: 'TurnEnd', params: { turn: 0, stopped: true, stop_reason: 'no_tool_calls' } },
      { method: 'RunEnd', params: { content: 'The answer.', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'no_tool_calls', turn: 0 } },
    ]);
    expect(llm.requests[0]!.messages).toEqual([{ role: 'system', content: 'sys' }, { role: 'user', content: 'Q?' }]);
    expect(llm.requests[0]!.tools).toBeUndefined();
  });

  it('runs tool calls in order between StepEnd and TurnEnd, then sends their results back', async () => {
    const calls = [call('c1', 'add', '{"a": 2, "b": 40}'), call('c2', 'echo', '{"text": "hi"}')];
    const llm = scriptedModel([{ text: ['Checking.'], toolCalls: calls }, { text: ['Done.'] }]);
    const agent = new Agent({ llm, tools: [add, echo] });
    const events = await collect(agent.events('go'));
    expect(methods(events)).toEqual([
      'RunBegin', 'TurnBegin', 'TextDelta', 'StepEnd',
      'ToolCallBegin', 'ToolResult', 'ToolCallBegin', 'ToolResult', 'TurnEnd',
      'TurnBegin', 'TextDelta', 'StepEnd', 'TurnEnd', 'RunEnd',
    ]);
    expect(paramsOf(events, 'ToolResult').map(({ elapsed_ms: _, ...p }) => p)).toEqual([
      { tool_call_id: 'c1', name: 'add', content: '42', ok: true },
      { tool_call_id: 'c2', name: 'echo', content: 'hi', ok: true },
    ]);
    expect(paramsOf(events, 'TurnEnd')).toEqual([
      { turn: 0, stopped: false, stop_reason: 'continuing' },
      { turn: 1, stopped: true, stop_reason: 'no_tool_calls' },
    ]);
    expect(llm.requests[1]!.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'Checking.', tool_calls: calls },
      { role: 'tool', tool_call_id: 'c1', content: '42' },
      { role: 'tool', tool_call_id: 'c2', content: 'hi' },
    ]);
    expect(llm.requests[0]!.tools).toEqual([add.schema, echo.schema]);
  });

  it('sends an assistant tool-call step without text as content null and keeps reasoning on it', async () => {
    const llm = scriptedModel([{ reasoning: ['think'], toolCalls: [call('c1', 'echo', '{"text": "x"}')] }, { text: ['ok'] }]);
    await collect(new Agent({ llm, tools: [echo] }).events('q'));
    expect(llm.requests[1]!.messages[1]).toEqual({
      role: 'assistant', content: null, reasoning_content: 'think', tool_calls: [call('c1', 'echo', '{"text": "x"}')],
    });
  });

  it('stops after maxTurns (8 by default) with the last TurnEnd not stopped and RunEnd the last step', async () => {
    const llm = scriptedModel((n) => ({ text: [`turn ${n}`], toolCalls: [call(`c${n}`, 'echo', '{"text": "again"}')] }));
    const events = await collect(new Agent({ llm, tools: [echo] }).events('loop'));
    expect(llm.requests).toHaveLength(8);
    const turnEnds = paramsOf(events, 'TurnEnd');
    expect(turnEnds.at(-1)).toEqual({ turn: 7, stopped: false, stop_reason: 'max_turns' });
    expect(paramsOf(events, 'ToolResult')).toHaveLength(8);
    expect(events.at(-1)).toEqual({
      method: 'RunEnd',
      params: { content: 'turn 7', tool_calls: [call('c7', 'echo', '{"text": "again"}')], reasoning_content: '', usage: null, stop_reason: 'max_turns', turn: 7 },
    });
  });

  it('honours a smaller maxTurns', async () => {
    const llm = scriptedModel((n) => ({ toolCalls: [call(`c${n}`, 'echo', '{"text": "x"}')] }));
    await collect(new Agent({ llm, tools: [echo], maxTurns: 2 }).events('loop'));
    expect(llm.requests).toHaveLength(2);
  });

  it('rejects a maxTurns below 1 and duplicate tool names', () => {
    const llm = scriptedModel([]);
    expect(() => new Agent({ llm, maxTurns: 0 })).toThrow(RangeError);
    expect(() => new Agent({ llm, tools: [echo, echo] })).toThrow(TypeError);
  });

  it('ends a step with neither text nor tool calls as an empty response', async () => {
    const events = await collect(new Agent({ llm: scriptedModel([{}]) }).events('q'));
    expect(paramsOf(events, 'TurnEnd')).toEqual([{ turn: 0, stopped: true, stop_reason: 'empty_response' }]);
  });

  it('forwards per-run kwargs to every model request', async () => {
    const llm = scriptedModel([{ toolCalls: [call('c1', 'echo', '{"text": "x"}')] }, { text: ['ok'] }]);
    await collect(new Agent({ llm, tools: [echo] }).events('q', { kwargs: { temperature: 0, reasoning_effort: 'low' } }));
    expect(llm.requests.map((r) => r.kwargs)).toEqual([{ temperature: 0, reasoning_effort: 'low' }, { temperature: 0, reasoning_effort: 'low' }]);
  });
});

describe('Agent tool faults go back to the model', () => {
  async function resultOf(args: string, name = 'add', extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}) {
    const llm = scriptedModel([{ toolCalls: [call('c1', name, args)] }, { text: ['ok'] }]);
    const events = await collect(new Agent({ llm, tools: [add, echo], ...extra }).events('q'));
    const [result] = paramsOf(events, 'ToolResult');
    return { result: result!, llm, events };
  }

  it('answers an unknown tool with the sorted list of available tools', async () => {
    const { result, llm } = await resultOf('{}', 'nope');
    expect(result.content).toBe("error: unknown tool 'nope'; available: ['add', 'echo']");
    expect(result.ok).toBe(false);
    expect(llm.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: result.content });
  });

  it('answers invalid JSON arguments with the pagent prefix', async () => {
    const { result } = await resultOf('{"a": 1,');
    expect(result.ok).toBe(false);
    expect(result.content).toMatch(/^Invalid JSON in tool arguments: /);
  });

  it('answers a schema violation as "<name> error: invalid arguments"', async () => {
    const { result } = await resultOf('{"a": 1, "b": "2", "c": 3}');
    expect(result).toMatchObject({ ok: false, content: "add error: invalid arguments: 'b' must be integer, got string; unexpected property 'c'" });
  });

  it('answers a throwing tool as "<name> error: <message>" and still finishes the run', async () => {
    const explode = tool<{ reason: string }>({
      name: 'explode', description: '', parameters: { type: 'object', properties: { reason: { type: 'string' } } },
      execute: ({ reason }) => { throw new Error(`boom: ${reason}`); },
    });
    const llm = scriptedModel([{ toolCalls: [call('c1', 'explode', '{"reason": "disk full"}')] }, { text: ['failed'] }]);
    const events = await collect(new Agent({ llm, tools: [explode] }).events('q'));
    expect(paramsOf(events, 'ToolResult')[0]).toMatchObject({ content: 'explode error: boom: disk full', ok: false });
    expect(events.at(-1)?.params).toMatchObject({ content: 'failed', stop_reason: 'no_tool_calls' });
  });

  it('answers a tool timeout with ok false and goes on', async () => {
    const slow = tool({ name: 'slow', description: '', parameters: { type: 'object' }, timeoutMs: 5, execute: () => new Promise(() => undefined) });
    const llm = scriptedModel([{ toolCalls: [call('c1', 'slow', '{}')] }, { text: ['ok'] }]);
    const events = await collect(new Agent({ llm, tools: [slow] }).events('q'));
    expect(paramsOf(events, 'ToolResult')[0]).toMatchObject({ content: 'slow error: timed out after 5 ms', ok: false });
    expect(llm.requests).toHaveLength(2);
  });
});

describe('Agent tool approval', () => {
  const guarded = tool<{ text: string }>({ ...echo, name: 'guarded', needsApproval: true });

  it('asks approve() after the call\'s ToolCallBegin and runs the tool when approved', async () => {
    const log: string[] = [];
    const llm = scriptedModel([{ toolCalls: [call('c1', 'guarded', '{"text": "yes"}')] }, { text: ['ok'] }]);
    const agent = new Agent({ llm, tools: [guarded], approve: async (c) => { log.push(`approve ${c.tool_call_id} ${c.name} ${c.arguments}`); return true; } });
    for await (const e of agent.events('q')) log.push(e.method);
    expect(log.slice(3, 6)).toEqual(['ToolCallBegin', 'approve c1 guarded {"text": "yes"}', 'ToolResult']);
    expect(llm.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'yes' });
  });

  it('answers a denied call with ok false saying it was denied', async () => {
    const llm = scriptedModel([{ toolCalls: [call('c1', 'guarded', '{"text": "no"}')] }, { text: ['ok'] }]);
    const events = await collect(new Agent({ llm, tools: [guarded], approve: () => false }).events('q'));
    expect(paramsOf(events, 'ToolResult')[0]).toMatchObject({ ok: false, content: 'guarded error: denied by the user' });
  });

  it('asks the run\'s own approve() when given, instead of the agent\'s', async () => {
    const asked: string[] = [];
    const llm = scriptedModel([{ toolCalls: [call('c1', 'guarded', '{"text": "run"}')] }, { text: ['ok'] }]);
    const agent = new Agent({ llm, tools: [guarded], approve: () => { asked.push('agent'); return false; } });
    const events = await collect(agent.events('q', { approve: (c) => { asked.push(`run ${c.tool_call_id}`); return true; } }));
    expect(asked).toEqual(['run c1']);
    expect(paramsOf(events, 'ToolResult')[0]).toMatchObject({ ok: true, content: 'run' });
  });

  it('uses a per-run approve() on an agent without one, and only for that run', async () => {
    const llm = scriptedModel([
      { toolCalls: [call('c1', 'guarded', '{"text": "first"}')] },
      { text: ['ok'] },
      { toolCalls: [call('c2', 'guarded', '{"text": "second"}')] },
      { text: ['ok'] },
    ]);
    const agent = new Agent({ llm, tools: [guarded] });
    const first = await collect(agent.events('q', { approve: async () => true }));
    expect(paramsOf(first, 'ToolResult')[0]).toMatchObject({ ok: true, content: 'first' });
    const second = await collect(agent.events('q2'));
    expect(paramsOf(second, 'ToolResult')[0]?.ok).toBe(false);
    expect(paramsOf(second, 'ToolResult')[0]?.content).toMatch(/denied/);
  });

  it('asks the per-run approve() in parallel mode too, before starting the call', async () => {
    const log: string[] = [];
    const llm = scriptedModel([{ toolCalls: [call('c1', 'echo', '{"text": "a"}'), call('c2', 'guarded', '{"text": "b"}')] }, { text: ['ok'] }]);
    const agent = new Agent({ llm, tools: [echo, guarded], parallelTools: true });
    for await (const e of agent.events('q', { approve: (c) => { log.push(`approve ${c.tool_call_id}`); return false; } })) {
      if (e.method === 'ToolCallBegin' || e.method === 'ToolResult') log.push(`${e.method} ${e.params.tool_call_id}`);
    }
    expect(log).toEqual(['ToolCallBegin c1', 'ToolResult c1', 'ToolCallBegin c2', 'approve c2', 'ToolResult c2']);
  });

  it('denies every needsApproval call when the agent has no approve function', async () => {
    const llm = scriptedModel([{ toolCalls: [call('c1', 'guarded', '{"text": "no"}')] }, { text: ['ok'] }]);
    const events = await collect(new Agent({ llm, tools: [guarded] }).events('q'));
    expect(paramsOf(events, 'ToolResult')[0]?.ok).toBe(false);
    expect(paramsOf(events, 'ToolResult')[0]?.content).toMatch(/denied/);
  });
});

describe('Agent parallel tools', () => {
  it('runs the calls of a step concurrently and keeps the event order', async () => {
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const wait = tool<{ text: string }>({
      ...echo, name: 'wait',
      execute: async ({ text }) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return text;
      },
    });
    const calls = [call('c1', 'wait', '{"text": "a"}'), call('c2', 'wait', '{"text": "b"}'), call('c3', 'wait', '{"text": "c"}')];
    const llm = scriptedModel([{ toolCalls: calls }, { text: ['ok'] }]);
    const agent = new Agent({ llm, tools: [wait], parallelTools: true });
    const pending = collect(agent.events('q'));
    while (releases.length < 3) await new Promise((r) => setTimeout(r, 1));
    expect(peak).toBe(3);
    releases.reverse().forEach((release) => release());
    const events = await pending;
    expect(methods(events).slice(2, 9)).toEqual(['StepEnd', 'ToolCallBegin', 'ToolResult', 'ToolCallBegin', 'ToolResult', 'ToolCallBegin', 'ToolResult']);
    expect(paramsOf(events, 'ToolResult').map((p) => p.content)).toEqual(['a', 'b', 'c']);
  });

  it('runs one call at a time by default', async () => {
    let running = 0;
    let peak = 0;
    const step = tool({ ...echo, name: 'step', execute: async () => { running++; peak = Math.max(peak, running); await new Promise((r) => setTimeout(r, 1)); running--; return 'x'; } });
    const llm = scriptedModel([{ toolCalls: [call('c1', 'step', '{"text": "a"}'), call('c2', 'step', '{"text": "b"}')] }, { text: ['ok'] }]);
    await collect(new Agent({ llm, tools: [step] }).events('q'));
    expect(peak).toBe(1);
  });
});

describe('Agent cancellation', () => {
  it('ends with TurnEnd and RunEnd cancelled, no RunError, and keeps the partial answer', async () => {
    const controller = new AbortController();
    const llm = scriptedModel([{ text: ['Part ', 'one'], beforeStep: () => controller.abort() }, { text: ['next'] }]);
    const agent = new Agent({ llm });
    const events = await collect(agent.events('q', { signal: controller.signal }));
    expect(methods(events)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'TextDelta', 'TurnEnd', 'RunEnd']);
    expect(events.at(-2)?.params).toEqual({ turn: 0, stopped: true, stop_reason: 'cancelled' });
    expect(events.at(-1)?.params).toEqual({ content: 'Part one', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'cancelled', turn: 0 });
    expect(agent.session.messages).toEqual([{ role: 'user', content: 'q' }, { role: 'assistant', content: 'Part one' }]);
    expect((await agent.run('again')).content).toBe('next');
  });

  it('resolves run() with the cancelled RunEnd', async () => {
    const controller = new AbortController();
    controller.abort();
    const end = await new Agent({ llm: scriptedModel([]) }).run('q', { signal: controller.signal });
    expect(end.stop_reason).toBe('cancelled');
  });

  it('mid-tool: aborts the tool, completes the half turn and reports the StepEnd as RunEnd', async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const hang = tool({ ...echo, name: 'hang', execute: (_a, ctx) => { toolSignal = ctx.signal; controller.abort(); return new Promise(() => undefined); } });
    const calls = [call('c1', 'echo', '{"text": "done"}'), call('c2', 'hang', '{"text": "x"}'), call('c3', 'echo', '{"text": "never"}')];
    const llm = scriptedModel([{ text: ['Working.'], toolCalls: calls }, { text: ['after'] }]);
    const agent = new Agent({ llm, tools: [echo, hang] });
    const events = await collect(agent.events('q', { signal: controller.signal }));
    expect(methods(events).slice(-4)).toEqual(['ToolResult', 'ToolCallBegin', 'TurnEnd', 'RunEnd']);
    expect(events.some((e) => e.method === 'RunError')).toBe(false);
    expect(events.at(-1)?.params).toMatchObject({ content: 'Working.', tool_calls: calls, stop_reason: 'cancelled' });
    expect(toolSignal?.aborted).toBe(true);
    expectValidHistory(agent.session.messages);
    expect(agent.session.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
      { role: 'tool', tool_call_id: 'c2', content: 'error: cancelled before the tool finished' },
      { role: 'tool', tool_call_id: 'c3', content: 'error: cancelled before the tool finished' },
    ]);
    await agent.run('next');
    expectValidHistory(llm.requests[1]!.messages);
  });

  it('mid-approval: a pending approve() is abandoned and the run ends cancelled', async () => {
    const controller = new AbortController();
    const guarded = tool({ ...echo, name: 'guarded', needsApproval: true });
    const llm = scriptedModel([{ toolCalls: [call('c1', 'guarded', '{"text": "x"}')] }]);
    const agent = new Agent({ llm, tools: [guarded], approve: () => { controller.abort(); return new Promise<boolean>(() => undefined); } });
    const events = await collect(agent.events('q', { signal: controller.signal }));
    expect(events.at(-1)?.params).toMatchObject({ stop_reason: 'cancelled' });
    expectValidHistory(agent.session.messages);
  });

  it('a call whose run was cancelled at its ToolCallBegin does not start (the runner may still be loading)', async () => {
    const controller = new AbortController();
    let ran = false;
    const probe = tool({ ...echo, name: 'probe', execute: () => { ran = true; return 'x'; } });
    const llm = scriptedModel([{ toolCalls: [call('c1', 'probe', '{"text": "x"}')] }]);
    const agent = new Agent({ llm, tools: [probe] });
    const events: WireEvent[] = [];
    for await (const e of agent.events('q', { signal: controller.signal })) {
      events.push(e);
      if (e.method === 'ToolCallBegin') controller.abort();
    }
    expect(ran).toBe(false);
    expect(methods(events).slice(-3)).toEqual(['ToolCallBegin', 'TurnEnd', 'RunEnd']);
    expect(events.at(-1)?.params).toMatchObject({ stop_reason: 'cancelled' });
    expect(agent.session.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'error: cancelled before the tool finished' });
  });

  it('breaking out of events() cancels the run and leaves a valid session', async () => {
    let toolSignal: AbortSignal | undefined;
    const hang = tool({ ...echo, name: 'hang', execute: (_a, ctx) => { toolSignal = ctx.signal; return new Promise(() => undefined); } });
    const llm = scriptedModel([{ toolCalls: [call('c1', 'hang', '{"text": "x"}')] }, { text: ['ok'] }]);
    const agent = new Agent({ llm, tools: [hang] });
    for await (const e of agent.events('q')) if (e.method === 'ToolCallBegin') break;
    expect(agent.session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect((await agent.run('again')).content).toBe('ok');
    expect(toolSignal).toBeUndefined();
  });

  it('refuses a second run while one is in progress', async () => {
    const llm = scriptedModel([{ text: ['a'] }]);
    const agent = new Agent({ llm });
    const first = agent.events('one');
    await first.next();
    await expect(agent.run('two')).rejects.toMatchObject({ code: 'busy' });
    await first.return(undefined);
  });
});

describe('Agent provider failures', () => {
  it('emits RunError, TurnEnd and RunEnd with stop_reason error, and the session stays valid', async () => {
    const failure = new PagentError('Bad gateway', { code: 'http', status: 502, where: 'llm' });
    const llm = scriptedModel([
      { toolCalls: [call('c1', 'echo', '{"text": "x"}')] },
      { text: ['partial'], error: failure },
      { text: ['recovered'] },
    ]);
    const agent = new Agent({ llm, tools: [echo] });
    const events = await collect(agent.events('q'));
    expect(methods(events).slice(-5)).toEqual(['TurnBegin', 'TextDelta', 'RunError', 'TurnEnd', 'RunEnd']);
    expect(events.at(-3)?.params).toEqual({ message: 'Bad gateway', code: 'http', where: 'llm', status: 502 });
    expect(events.at(-2)?.params).toEqual({ turn: 1, stopped: true, stop_reason: 'error' });
    expect(events.at(-1)?.params).toEqual({ content: 'partial', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error', turn: 1 });
    expectValidHistory(agent.session.messages);
    const end = await agent.run('again');
    expect(end.content).toBe('recovered');
    expect(llm.requests[2]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('rejects run() with a PagentError carrying the RunError', async () => {
    const llm = scriptedModel([{ error: new PagentError('rate limited', { code: 'http', status: 429, where: 'llm' }) }]);
    const err = await new Agent({ llm }).run('q').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PagentError);
    expect(err).toMatchObject({ message: 'rate limited', code: 'http', status: 429, where: 'llm' });
  });

  it('reports a non-PagentError throw as a provider error', async () => {
    const events = await collect(new Agent({ llm: scriptedModel([{ error: new TypeError('oops') }]) }).events('q'));
    expect(paramsOf(events, 'RunError')).toEqual([{ message: 'oops', code: 'provider', where: 'llm' }]);
  });

  it('makes text() throw after the deltas when the run fails', async () => {
    const agent = new Agent({ llm: scriptedModel([{ text: ['a', 'b'], error: new PagentError('cut', { code: 'truncated', where: 'llm' }) }]) });
    const seen: string[] = [];
    await expect((async () => { for await (const t of agent.text('q')) seen.push(t); })()).rejects.toMatchObject({ code: 'truncated' });
    expect(seen).toEqual(['a', 'b']);
  });
});

describe('Agent text() and wire()', () => {
  it('text() yields the text deltas only', async () => {
    const agent = new Agent({ llm: scriptedModel([{ reasoning: ['hmm'], text: ['4', '.'] }]) });
    const out: string[] = [];
    for await (const t of agent.text('2+2')) out.push(t);
    expect(out).toEqual(['4', '.']);
  });

  it('wire() yields NDJSON lines that decode back to the events', async () => {
    const lines: string[] = [];
    for await (const line of new Agent({ llm: scriptedModel([{ text: ['hi'] }]) }).wire('q')) lines.push(line);
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    expect(lines.map((l) => decodeEventLine(l.trimEnd()).method)).toEqual(['RunBegin', 'TurnBegin', 'TextDelta', 'StepEnd', 'TurnEnd', 'RunEnd']);
  });
});

describe('Agent store wiring', () => {
  it('restores an empty session from the store before the first run only', async () => {
    const saved: ChatMessage[] = [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'reply' }];
    const store = memoryStore(saved);
    const llm = scriptedModel([{ text: ['a'] }, { text: ['b'] }]);
    const agent = new Agent({ llm, store, sessionId: 's1' });
    await agent.run('now');
    await agent.run('again');
    expect(store.loads).toBe(1);
    expect(llm.requests[0]!.messages).toEqual([...saved, { role: 'user', content: 'now' }]);
  });

  it('does not restore into a session that already has messages', async () => {
    const store = memoryStore([{ role: 'user', content: 'stored' }]);
    const session = new Session();
    session.append({ role: 'user', content: 'local' }, { role: 'assistant', content: 'x' });
    const llm = scriptedModel([{ text: ['a'] }]);
    await new Agent({ llm, session, store, sessionId: 's1' }).run('q');
    expect(llm.requests[0]!.messages[0]).toEqual({ role: 'user', content: 'local' });
  });

  it('appends only new, whole turns at every TurnEnd', async () => {
    const store = memoryStore();
    const calls = [call('c1', 'echo', '{"text": "x"}')];
    const llm = scriptedModel([{ text: ['t0'], toolCalls: calls }, { text: ['t1'] }]);
    const agent = new Agent({ llm, tools: [echo], store, sessionId: 's1' });
    const appendsAtTurnEnd: number[] = [];
    for await (const e of agent.events('q')) if (e.method === 'TurnEnd') appendsAtTurnEnd.push(store.appends.length);
    expect(appendsAtTurnEnd).toEqual([1, 2]);
    expect(store.appends).toEqual([
      [{ role: 'user', content: 'q' }, { role: 'assistant', content: 't0', tool_calls: calls }, { role: 'tool', tool_call_id: 'c1', content: 'x' }],
      [{ role: 'assistant', content: 't1' }],
    ]);
  });

  it('saves a cancelled run without a half turn', async () => {
    const store = memoryStore();
    const controller = new AbortController();
    const hang = tool({ ...echo, name: 'hang', execute: () => { controller.abort(); return new Promise(() => undefined); } });
    const llm = scriptedModel([{ toolCalls: [call('c1', 'hang', '{"text": "x"}')] }]);
    await new Agent({ llm, tools: [hang], store, sessionId: 's1' }).run('q', { signal: controller.signal });
    const saved = store.appends.flat();
    expect(saved.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expectValidHistory(saved);
  });

  it('keeps messages queued when the store fails and saves them with the next append', async () => {
    const appends: ChatMessage[][] = [];
    let fail = true;
    const store: AgentStore = {
      load: async () => undefined,
      append: async (_id, messages) => { if (fail) throw new Error('quota'); appends.push(messages); },
    };
    const llm = scriptedModel([{ text: ['a'] }, { text: ['b'] }]);
    const agent = new Agent({ llm, store, sessionId: 's1' });
    expect((await agent.run('one')).content).toBe('a');
    fail = false;
    await agent.run('two');
    expect(appends.flat().map((m) => m.content)).toEqual(['one', 'a', 'two', 'b']);
  });

  it('fails the run with a store RunError when restoring fails', async () => {
    const store: AgentStore = { load: async () => { throw new Error('blocked'); }, append: async () => undefined };
    const events = await collect(new Agent({ llm: scriptedModel([]), store, sessionId: 's1' }).events('q'));
    expect(methods(events)).toEqual(['RunBegin', 'RunError', 'RunEnd']);
    expect(events[0]?.params).toEqual({ user_input: 'q' });
    expect(events[1]?.params).toMatchObject({ code: 'store', where: 'store' });
    expect(events[2]?.params).toEqual({ content: '', tool_calls: [], reasoning_content: '', usage: null, stop_reason: 'error' });
  });
});

/**
 * An in-memory store whose appends fail with the scripted StoreError reasons, one per call (undefined:
 * succeeds); `save` rewrites the stored copy. Every call is logged.
 */
function flakyStore(script: Array<StoreErrorReason | undefined>, withSave = true, saveScript: Array<StoreErrorReason | undefined> = []) {
  const stored: ChatMessage[] = [];
  const log: string[] = [];
  const store: AgentStore & { stored: ChatMessage[]; log: string[] } = {
    stored,
    log,
    load: async () => undefined,
    async append(id, messages) {
      const reason = script.shift();
      log.push(`append ${messages.map((m) => m.content).join(',')}${reason ? ` -> ${reason}` : ''}`);
      if (reason) throw new StoreError(reason, `Session store append "${id}" failed: ${reason}`, { sessionId: id });
      stored.push(...structuredClone(messages));
    },
  };
  if (withSave) {
    store.save = async (_id, session) => {
      const { messages } = session.toJSON();
      const reason = saveScript.shift();
      log.push(`save ${messages.map((m) => m.content).join(',')}${reason ? ` -> ${reason}` : ''}`);
      if (reason) throw new StoreError(reason, `Session store save "${_id}" failed: ${reason}`, { sessionId: _id });
      stored.splice(0, stored.length, ...structuredClone(messages));
    };
  }
  return store;
}

describe('Agent store failures', () => {
  const answers = (n: number) => scriptedModel(Array.from({ length: n }, (_, i) => ({ text: [`a${i + 1}`] })));
  const reasons = (errors: PagentError[]) => errors.map((e) => (e instanceof StoreError ? e.reason : e.code));

  it('rewrites the whole session with save after a deleted append, then appends again', async () => {
    const store = flakyStore([undefined, 'deleted']);
    const errors: PagentError[] = [];
    const agent = new Agent({ llm: answers(3), store, sessionId: 's1', onStoreError: (e) => errors.push(e) });
    await agent.run('q1');
    await agent.run('q2');
    await agent.run('q3');
    expect(store.log).toEqual(['append q1,a1', 'append q2,a2 -> deleted', 'save q1,a1,q2,a2', 'append q3,a3']);
    expect(store.stored).toEqual(agent.session.messages);
    expect(reasons(errors)).toEqual(['deleted']);
  });

  it('keeps rewriting the whole session until a save after a deleted append succeeds', async () => {
    const store = flakyStore(['deleted'], true, ['quota']);
    const errors: PagentError[] = [];
    const agent = new Agent({ llm: answers(3), store, sessionId: 's1', onStoreError: (e) => errors.push(e) });
    await agent.run('q1');
    await agent.run('q2');
    await agent.run('q3');
    expect(store.log).toEqual(['append q1,a1 -> deleted', 'save q1,a1 -> quota', 'save q1,a1,q2,a2', 'append q3,a3']);
    expect(store.stored).toEqual(agent.session.messages);
    expect(reasons(errors)).toEqual(['deleted', 'quota']);
  });

  it('rewrites the previous session in the background when switching away before the rewrite succeeded', async () => {
    const store = flakyStore(['deleted'], true, ['quota']);
    const agent = new Agent({ llm: answers(2), store, sessionId: 'old' });
    await agent.run('q1');
    agent.useSession('new');
    await agent.run('q2');
    expect(store.log).toEqual(['append q1,a1 -> deleted', 'save q1,a1 -> quota', 'save q1,a1', 'append q2,a2']);
  });

  it('stops saving after a deleted append when the store has no save', async () => {
    const store = flakyStore(['deleted'], false);
    const errors: PagentError[] = [];
    const agent = new Agent({ llm: answers(3), store, sessionId: 's1', onStoreError: (e) => errors.push(e) });
    await agent.run('q1');
    await agent.run('q2');
    expect(store.log).toEqual(['append q1,a1 -> deleted']);
    expect(reasons(errors)).toEqual(['deleted']);
  });

  it.each(['unavailable', 'invalid', 'corrupt'] as const)('makes no further attempts after an %s failure', async (reason) => {
    const store = flakyStore([reason]);
    const errors: PagentError[] = [];
    const calls = [call('c1', 'echo', '{"text": "x"}')];
    const llm = scriptedModel([{ text: ['t0'], toolCalls: calls }, { text: ['t1'] }, { text: ['t2'] }]);
    const agent = new Agent({ llm, tools: [echo], store, sessionId: 's1', onStoreError: (e) => errors.push(e) });
    expect((await agent.run('q1')).content).toBe('t1');
    expect((await agent.run('q2')).content).toBe('t2');
    expect(store.log).toEqual([`append q1,t0,x -> ${reason}`]);
    expect(reasons(errors)).toEqual([reason]);
  });

  it('retries a quota failure at the next turn end with the messages not yet saved', async () => {
    const store = flakyStore(['quota', 'blocked']);
    const errors: PagentError[] = [];
    const calls = [call('c1', 'echo', '{"text": "x"}')];
    const llm = scriptedModel([{ text: ['t0'], toolCalls: calls }, { text: ['t1'] }, { text: ['t2'] }]);
    const agent = new Agent({ llm, tools: [echo], store, sessionId: 's1', onStoreError: (e) => errors.push(e) });
    await agent.run('q1');
    await agent.run('q2');
    expect(store.log).toEqual(['append q1,t0,x -> quota', 'append q1,t0,x,t1 -> blocked', 'append q1,t0,x,t1,q2,t2']);
    expect(store.stored).toEqual(agent.session.messages);
    expect(reasons(errors)).toEqual(['quota', 'blocked']);
  });

  it('reports an error that is not a StoreError as a store PagentError and retries it', async () => {
    let fail = true;
    const appended: ChatMessage[] = [];
    const store: AgentStore = {
      load: async () => undefined,
      append: async (_id, messages) => { if (fail) throw new TypeError('disk on fire'); appended.push(...messages); },
    };
    const errors: PagentError[] = [];
    const agent = new Agent({ llm: answers(2), store, sessionId: 's1', onStoreError: (e) => errors.push(e) });
    await agent.run('q1');
    fail = false;
    await agent.run('q2');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(PagentError);
    expect(errors[0]).toMatchObject({ code: 'store', where: 'store' });
    expect(errors[0]!.message).toContain('disk on fire');
    expect(appended.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'a2']);
  });

  it('does not fail the run when onStoreError throws or is missing', async () => {
    const throwing = new Agent({ llm: answers(1), store: flakyStore(['unavailable']), sessionId: 's1', onStoreError: () => { throw new Error('app bug'); } });
    expect((await throwing.run('q')).stop_reason).toBe('no_tool_calls');
    const silent = new Agent({ llm: answers(1), store: flakyStore(['quota']), sessionId: 's1' });
    expect((await silent.run('q')).stop_reason).toBe('no_tool_calls');
  });

  it('saves again for a new session id after saving stopped for the previous one', async () => {
    const store = flakyStore(['unavailable']);
    const agent = new Agent({ llm: answers(2), store, sessionId: 'old' });
    await agent.run('q1');
    agent.useSession('new');
    await agent.run('q2');
    expect(store.log).toEqual(['append q1,a1 -> unavailable', 'append q2,a2']);
  });
});

/** A store keyed by session id that records every load and append. */
function keyedStore(initial: Record<string, ChatMessage[]> = {}): AgentStore & { data: Map<string, ChatMessage[]>; log: string[] } {
  const data = new Map(Object.entries(initial).map(([k, v]) => [k, structuredClone(v)]));
  const log: string[] = [];
  return {
    data,
    log,
    async load(id) {
      log.push(`load ${id}`);
      const messages = data.get(id);
      return messages ? { messages: structuredClone(messages) } : undefined;
    },
    async append(id, messages) {
      log.push(`append ${id} ${messages.length}`);
      data.set(id, [...(data.get(id) ?? []), ...structuredClone(messages)]);
    },
  };
}

describe('Agent.useSession', () => {
  const storedA: ChatMessage[] = [{ role: 'user', content: 'A question' }, { role: 'assistant', content: 'A answer' }];

  it('continues another stored conversation on the next run, keeping the system prompt', async () => {
    const store = keyedStore({ A: storedA });
    const llm = scriptedModel([{ text: ['new 1'] }, { text: ['a 2'] }]);
    const agent = new Agent({ llm, session: new Session('sys'), store, sessionId: 'new' });
    expect(agent.sessionId).toBe('new');
    await agent.run('first');
    agent.useSession('A');
    expect(agent.sessionId).toBe('A');
    expect(agent.session.messages).toEqual([]);
    expect(agent.session.systemPrompt).toBe('sys');
    await agent.run('follow-up');
    expect(llm.requests[1]!.messages).toEqual([{ role: 'system', content: 'sys' }, ...storedA, { role: 'user', content: 'follow-up' }]);
    expect(store.data.get('A')).toEqual([...storedA, { role: 'user', content: 'follow-up' }, { role: 'assistant', content: 'a 2' }]);
    expect(store.data.get('new')).toEqual([{ role: 'user', content: 'first' }, { role: 'assistant', content: 'new 1' }]);
  });

  it('starts a fresh conversation under a new id: no history sent, nothing restored', async () => {
    const store = keyedStore({ A: storedA });
    const llm = scriptedModel([{ text: ['x'] }, { text: ['y'] }]);
    const agent = new Agent({ llm, store, sessionId: 'A' });
    await agent.run('more');
    expect(llm.requests[0]!.messages).toHaveLength(3);
    agent.useSession('fresh');
    await agent.run('hello');
    expect(llm.requests[1]!.messages).toEqual([{ role: 'user', content: 'hello' }]);
    expect(store.data.get('fresh')).toEqual([{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'y' }]);
    expect(store.log.filter((l) => l.startsWith('load'))).toEqual(['load A', 'load fresh']);
  });

  it('takes a session object to use instead of clearing the current one', async () => {
    const llm = scriptedModel([{ text: ['ok'] }]);
    const agent = new Agent({ llm, session: new Session('old prompt') });
    const next = new Session('new prompt');
    next.append({ role: 'user', content: 'kept' }, { role: 'assistant', content: 'yes' });
    agent.useSession(undefined, next);
    expect(agent.session).toBe(next);
    expect(agent.sessionId).toBeUndefined();
    await agent.run('q');
    expect(llm.requests[0]!.messages.map((m) => m.content)).toEqual(['new prompt', 'kept', 'yes', 'q']);
  });

  it('keeps the session kind: a sliding window stays a sliding window', async () => {
    const session = new SlidingWindowSession('sys', { maxTokens: 1000 });
    const agent = new Agent({ llm: scriptedModel([{ text: ['a'] }]), session });
    await agent.run('q');
    agent.useSession(undefined);
    expect(agent.session).toBe(session);
    expect(session.messages).toEqual([]);
    expect(session.toJSON().kind).toBe('sliding-window');
  });

  it('refuses to switch while a run is in flight, with a busy PagentError', async () => {
    const store = keyedStore();
    const agent = new Agent({ llm: scriptedModel([{ text: ['a', 'b'] }]), store, sessionId: 's1' });
    const events = agent.events('q');
    await events.next();
    let error: unknown;
    try {
      agent.useSession('s2');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PagentError);
    expect(error).toMatchObject({ code: 'busy' });
    expect(agent.sessionId).toBe('s1');
    await events.return(undefined);
    agent.useSession('s2');
    expect(agent.sessionId).toBe('s2');
  });

  it('needs an id when the agent has a store', () => {
    const agent = new Agent({ llm: scriptedModel([]), store: keyedStore(), sessionId: 's1' });
    expect(() => agent.useSession(undefined)).toThrow(TypeError);
    expect(agent.sessionId).toBe('s1');
  });

  it('retries unsaved messages for the conversation they belong to', async () => {
    const data = keyedStore();
    let fail = true;
    const store: AgentStore = {
      load: data.load,
      append: async (id, messages) => {
        if (fail) throw new Error('quota');
        await data.append(id, messages);
      },
    };
    const agent = new Agent({ llm: scriptedModel([{ text: ['a'] }, { text: ['b'] }]), store, sessionId: 'old' });
    await agent.run('one');
    fail = false;
    agent.useSession('next');
    await agent.run('two');
    expect(data.data.get('old')?.map((m) => m.content)).toEqual(['one', 'a']);
    expect(data.data.get('next')?.map((m) => m.content)).toEqual(['two', 'b']);
  });
});

describe('Agent types', () => {
  it('accepts the real LLM client, the session store and sessions of every kind', () => {
    expectTypeOf<LLM>().toExtend<AgentModel>();
    expectTypeOf<LLM>().toExtend<SummaryModel>();
    expectTypeOf<SessionStore>().toExtend<AgentStore>();
    expectTypeOf<SlidingWindowSession>().toExtend<Session>();
    expectTypeOf(tool<{ a: number }>({ name: 'x', description: '', parameters: {}, execute: ({ a }) => String(a) })).toExtend<Tool<never>>();
  });
});

describe('Agent with trimming and compacting sessions', () => {
  it('sends the sliding window, system prompt kept, and never starts it with a tool result', async () => {
    const session = new SlidingWindowSession('sys', { maxTokens: 30, countTokens: (t) => t.length });
    const calls = [call('c1', 'echo', '{"text": "a long tool argument"}')];
    const llm = scriptedModel([{ toolCalls: calls }, { text: ['done'] }, { text: ['again'] }]);
    const agent = new Agent({ llm, session, tools: [echo] });
    await agent.run('first question, quite long');
    await agent.run('next');
    const last = llm.requests[2]!.messages;
    expect(last[0]).toEqual({ role: 'system', content: 'sys' });
    expect(last[1]?.role).not.toBe('tool');
    expect(last.at(-1)).toEqual({ role: 'user', content: 'next' });
    expect(last.length).toBeLessThan(session.messages.length + 1);
    expectValidHistory(last);
  });

  it('compacts a CompactingSession before a model request once it is over the threshold', async () => {
    const summaries: ChatMessage[][] = [];
    const summarizer: SummaryModel = {
      async *stream(request) {
        summaries.push(request.messages);
        yield { type: 'step', step: { content: 'They said hello.' } };
      },
    };
    const session = new CompactingSession('sys', { llm: summarizer, compactAtTokens: 20, countTokens: (t) => t.length });
    const llm = scriptedModel([{ text: ['hello back, friend'] }, { text: ['fine'] }]);
    const agent = new Agent({ llm, session });
    await agent.run('hello there');
    expect(summaries).toHaveLength(0);
    await agent.run('how are you?');
    expect(summaries).toHaveLength(1);
    expect(llm.requests[1]!.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'Summary of the earlier conversation:\nThey said hello.' },
      { role: 'user', content: 'how are you?' },
    ]);
  });
});
