import { describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { tool } from '../../../src/agent/tools/tools.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import type { WireEvent } from '../../../src/wire/events.js';
import { call, scriptedModel } from './scripted-model.js';
import { expectValidHistory } from '../../helpers/history.js';

async function collect(events: AsyncIterable<WireEvent>): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** An echo tool that runs `during` while it executes (to steer in the middle of a tool round). */
function echoWith(during: () => void) {
  return tool<{ text: string }>({
    name: 'echo', description: 'Echo.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: ({ text }) => {
      during();
      return text;
    },
  });
}

describe('Agent.steer', () => {
  it('sends a message steered during a tool round after all the round\'s results, before the next model call', async () => {
    const calls = [call('c1', 'echo', '{"text": "a"}'), call('c2', 'echo', '{"text": "b"}')];
    const llm = scriptedModel([{ toolCalls: calls }, { text: ['Done.'] }]);
    let agent!: Agent;
    let steered = false;
    agent = new Agent({
      llm,
      session: new Session('sys'),
      tools: [echoWith(() => {
        if (!steered) agent.steer('  use French  ');
        steered = true;
      })],
    });
    const seen: string[] = [];
    const events = await collect(agent.events('go', { onSteer: (text) => seen.push(text) }));
    expect(seen).toEqual(['use French']);
    expect(llm.requests[1]!.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: calls },
      { role: 'tool', tool_call_id: 'c1', content: 'a' },
      { role: 'tool', tool_call_id: 'c2', content: 'b' },
      { role: 'user', content: 'use French' },
    ]);
    expectValidHistory(llm.requests[1]!.messages);
    expect(events.at(-1)?.params).toMatchObject({ content: 'Done.', stop_reason: 'no_tool_calls' });
  });

  it('emits the same events as a run without steer on the same model steps', async () => {
    const steps = () => [{ toolCalls: [call('c1', 'echo', '{"text": "a"}')] }, { text: ['Done.'] }];
    const plain = await collect(new Agent({ llm: scriptedModel(steps()), tools: [echoWith(() => undefined)] }).events('go'));
    let agent!: Agent;
    agent = new Agent({ llm: scriptedModel(steps()), tools: [echoWith(() => agent.steer('later'))] });
    const steered = await collect(agent.events('go'));
    const strip = (events: WireEvent[]) =>
      events.map((e) => (e.method === 'ToolResult' ? { ...e, params: { ...e.params, elapsed_ms: 0 } } : e));
    expect(strip(steered)).toEqual(strip(plain));
  });

  it('queues a steer given between runs and sends it after the next run\'s input', async () => {
    const llm = scriptedModel([{ text: ['One.'] }, { text: ['Two.'] }]);
    const agent = new Agent({ llm });
    await agent.run('first');
    agent.steer('and be brief');
    expect(agent.pendingSteers).toEqual(['and be brief']);
    await agent.run('second');
    expect(agent.pendingSteers).toEqual([]);
    expect(llm.requests[1]!.messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'One.' },
      { role: 'user', content: 'second' },
      { role: 'user', content: 'and be brief' },
    ]);
  });

  it('answers a message steered during the final answer with one more model call', async () => {
    let agent!: Agent;
    const llm = scriptedModel([{ text: ['Hello'], beforeStep: () => agent.steer('shorter') }, { text: ['Hi'] }]);
    agent = new Agent({ llm });
    const events = await collect(agent.events('greet'));
    expect(events.filter((e) => e.method === 'TurnEnd').map((e) => e.params)).toEqual([
      { turn: 0, stopped: false, stop_reason: 'continuing' },
      { turn: 1, stopped: true, stop_reason: 'no_tool_calls' },
    ]);
    expect(llm.requests[1]!.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'shorter' },
    ]);
  });

  it('keeps the steer for the next run when the run has no turn left', async () => {
    let agent!: Agent;
    const llm = scriptedModel([{ text: ['Hello'], beforeStep: () => agent.steer('later') }, { text: ['ok'] }]);
    agent = new Agent({ llm, maxTurns: 1 });
    const end = await agent.run('greet');
    expect(end.stop_reason).toBe('no_tool_calls');
    expect(llm.requests).toHaveLength(1);
    expect(agent.pendingSteers).toEqual(['later']);
  });

  it('saves the steered message with the turn it joins', async () => {
    const appended: ChatMessage[][] = [];
    const store = { load: async () => undefined, append: async (_: string, m: ChatMessage[]) => void appended.push(structuredClone(m)) };
    let agent!: Agent;
    const llm = scriptedModel([{ toolCalls: [call('c1', 'echo', '{"text": "a"}')] }, { text: ['ok'] }]);
    agent = new Agent({ llm, store, sessionId: 's', tools: [echoWith(() => agent.steer('also this'))] });
    await agent.run('go');
    expect(appended.flat().map((m) => m.role + ':' + (m.content ?? ''))).toEqual([
      'user:go', 'assistant:', 'tool:a', 'user:also this', 'assistant:ok',
    ]);
  });

  it('ignores empty text and drops waiting messages when the session changes', () => {
    const agent = new Agent({ llm: scriptedModel([]) });
    agent.steer('   ');
    expect(agent.pendingSteers).toEqual([]);
    agent.steer('x');
    agent.useSession(undefined);
    expect(agent.pendingSteers).toEqual([]);
  });
});
