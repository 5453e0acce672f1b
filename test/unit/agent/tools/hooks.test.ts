import { describe, expect, it } from 'vitest';
import { Agent } from '../../../../src/agent/agent.js';
import type { ToolHooks } from '../../../../src/agent/tools/hooks.js';
import { tool } from '../../../../src/agent/tools/tools.js';
import type { ParamsOf, WireEvent } from '../../../../src/wire/events.js';
import { call, scriptedModel } from '../scripted-model.js';

async function collect(events: AsyncIterable<WireEvent>, onEvent?: (e: WireEvent) => void): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of events) {
    out.push(e);
    onEvent?.(e);
  }
  return out;
}
const results = (events: WireEvent[]) =>
  events.filter((e) => e.method === 'ToolResult').map((e) => {
    const { elapsed_ms: _, ...p } = e.params as ParamsOf<'ToolResult'>;
    return p;
  });

function recorder() {
  const log: string[] = [];
  const echo = tool<{ text: string }>({
    name: 'echo', description: 'Echo.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: ({ text }) => {
      log.push(`tool ${text}`);
      return text;
    },
  });
  return { log, echo };
}

async function runWith(hooks: ToolHooks, args = '{"text": "hi"}') {
  const { log, echo } = recorder();
  const llm = scriptedModel([{ toolCalls: [call('c1', 'echo', args)] }, { text: ['ok'] }]);
  const agent = new Agent({ llm, tools: [echo], hooks });
  const events = await collect(agent.events('go'), (e) => log.push(e.method));
  return { log, events, llm };
}

describe('tool hooks', () => {
  it('allow: runs the tool between ToolCallBegin and ToolResult, hooks in order around it', async () => {
    const order: string[] = [];
    const { log, events } = await runWith({
      before: [(ctx) => void order.push(`before1 ${ctx.name} ${ctx.arguments}`), async () => void order.push('before2')],
      after: [(ctx) => void order.push(`after1 ${ctx.content} ${ctx.ok}`), () => void order.push('after2')],
    });
    expect(order).toEqual(['before1 echo {"text": "hi"}', 'before2', 'after1 hi true', 'after2']);
    expect(log.slice(log.indexOf('ToolCallBegin'), log.indexOf('ToolResult') + 1)).toEqual(['ToolCallBegin', 'tool hi', 'ToolResult']);
    expect(results(events)).toEqual([{ tool_call_id: 'c1', name: 'echo', content: 'hi', ok: true }]);
  });

  it('deny: a failed ToolResult carrying the message, the tool and later hooks skipped', async () => {
    const later: string[] = [];
    const { log, events, llm } = await runWith({
      before: [() => ({ deny: 'not on weekends' }), () => void later.push('before2')],
      after: [() => void later.push('after')],
    });
    expect(log).not.toContain('tool hi');
    expect(later).toEqual([]);
    expect(results(events)).toEqual([{ tool_call_id: 'c1', name: 'echo', content: 'not on weekends', ok: false }]);
    expect(llm.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'not on weekends' });
  });

  it('replace: a successful ToolResult with the given content, the tool not run', async () => {
    const { log, events } = await runWith({ before: [async () => ({ replace: 'cached: hi' })] });
    expect(log).not.toContain('tool hi');
    expect(results(events)).toEqual([{ tool_call_id: 'c1', name: 'echo', content: 'cached: hi', ok: true }]);
  });

  it('after: replaces content and ok, each hook seeing the previous one\'s outcome', async () => {
    const seen: string[] = [];
    const { events } = await runWith({
      after: [
        (ctx) => ({ content: ctx.content.toUpperCase() }),
        (ctx) => {
          seen.push(ctx.content);
          return { content: `${ctx.content}!`, ok: false };
        },
      ],
    });
    expect(seen).toEqual(['HI']);
    expect(results(events)).toEqual([{ tool_call_id: 'c1', name: 'echo', content: 'HI!', ok: false }]);
  });

  it('after hooks see tool faults too (invalid arguments)', async () => {
    const seen: Array<[string, boolean]> = [];
    await runWith({ after: [(ctx) => void seen.push([ctx.content, ctx.ok])] }, '{"text": 1}');
    expect(seen).toEqual([["echo error: invalid arguments: 'text' must be string, got integer", false]]);
  });

  it('a throwing hook fails that call with a clear message and the run goes on', async () => {
    const before = await runWith({ before: [() => { throw new Error('policy store offline'); }] });
    expect(results(before.events)).toEqual([
      { tool_call_id: 'c1', name: 'echo', content: 'echo error: tool hook failed: policy store offline', ok: false },
    ]);
    expect(before.log).not.toContain('tool hi');
    expect(before.events.at(-1)?.params).toMatchObject({ content: 'ok', stop_reason: 'no_tool_calls' });
    const after = await runWith({ after: [async () => Promise.reject(new Error('redactor crashed'))] });
    expect(results(after.events)).toEqual([
      { tool_call_id: 'c1', name: 'echo', content: 'echo error: tool hook failed: redactor crashed', ok: false },
    ]);
  });

  it('abort during a hook ends the run cancelled; the hook saw the signal abort', async () => {
    const controller = new AbortController();
    let hookSignal: AbortSignal | undefined;
    const { log, echo } = recorder();
    const llm = scriptedModel([{ toolCalls: [call('c1', 'echo', '{"text": "hi"}')] }]);
    const agent = new Agent({
      llm, tools: [echo],
      hooks: {
        before: [(ctx) => {
          hookSignal = ctx.signal;
          controller.abort();
          return new Promise(() => undefined); // never settles: only the abort ends the wait
        }],
      },
    });
    const events = await collect(agent.events('go', { signal: controller.signal }));
    expect(hookSignal?.aborted).toBe(true);
    expect(log).not.toContain('tool hi');
    expect(events.slice(-3).map((e) => e.method)).toEqual(['ToolCallBegin', 'TurnEnd', 'RunEnd']);
    expect(events.at(-1)?.params).toMatchObject({ stop_reason: 'cancelled' });
    expect(agent.session.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'error: cancelled before the tool finished' });
  });

  it('runs before the approval prompt: a denied call never asks approve()', async () => {
    let asked = 0;
    const guarded = tool({ name: 'rm', description: 'Remove.', parameters: { type: 'object' }, needsApproval: true, execute: () => 'gone' });
    const llm = scriptedModel([{ toolCalls: [call('c1', 'rm', '{}')] }, { text: ['ok'] }]);
    const agent = new Agent({ llm, tools: [guarded], approve: () => (asked++, true), hooks: { before: [() => ({ deny: 'read-only mode' })] } });
    const events = await collect(agent.events('go'));
    expect(asked).toBe(0);
    expect(results(events)[0]).toMatchObject({ content: 'read-only mode', ok: false });
  });
});
