// Agent.steer in Chromium against the local scripted OpenAI-compatible server (test/server/replay.ts):
// the request bodies the server recorded show where the steered message went.
import { describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { tool } from '../../../src/agent/tools/tools.js';
import type { WireEvent } from '../../../src/wire/events.js';
import type { ScriptedResponse } from '../../server/replay.js';
import { expectValidHistory } from '../../helpers/history.js';

const api = inject('apiUrl');
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-steer', object: 'chat.completion.chunk', created: 1767225600, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }],
});
const text = (t: string): ScriptedResponse => ({ chunks: [chunk({ role: 'assistant', content: t }), chunk({}, 'stop')] });
const calls = (...list: Array<[string, string]>): ScriptedResponse => ({
  chunks: [chunk({ role: 'assistant', content: null }), ...list.map(([id, args], index) => chunk({ tool_calls: [{ index, id, type: 'function', function: { name: 'lookup', arguments: args } }] })), chunk({}, 'tool_calls')],
});

async function scripted(responses: ScriptedResponse[]) {
  const key = crypto.randomUUID();
  await fetch(`${api}/replay/_script/${key}`, { method: 'POST', body: JSON.stringify({ responses }) });
  return {
    llm: new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, retries: 0 }),
    bodies: async () => ((await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Array<{ messages: ChatMessage[] }>).map((b) => b.messages),
  };
}

async function run(agent: Agent, input: string): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of agent.events(input)) out.push(e);
  return out;
}

describe('Agent.steer over HTTP', () => {
  it('in the middle of a tool round of two calls: after both results, before the next request', async () => {
    const { llm, bodies } = await scripted([calls(['c1', '{"q":"a"}'], ['c2', '{"q":"b"}']), text('Done.')]);
    let agent!: Agent;
    const lookup = tool({
      name: 'lookup', description: 'Look up.', parameters: { type: 'object', properties: { q: { type: 'string' } } },
      execute: ({ q }: { q?: string }) => {
        if (q === 'a') agent.steer('Only the first result matters');
        return `result ${q}`;
      },
    });
    agent = new Agent({ llm, session: new Session('sys'), tools: [lookup] });
    const events = await run(agent, 'look both up');
    const sent = await bodies();
    expect(sent[1]!.map((m) => `${m.role}:${m.content ?? ''}`)).toEqual([
      'system:sys', 'user:look both up', 'assistant:', 'tool:result a', 'tool:result b', 'user:Only the first result matters',
    ]);
    sent.forEach(expectValidHistory);
    expect(events.at(-1)?.params).toMatchObject({ content: 'Done.', stop_reason: 'no_tool_calls' });
  });

  it('between turns: a steer given after a run goes after the next input; the events match a run without steer', async () => {
    const plain = await scripted([text('One.'), text('Two.')]);
    const plainAgent = new Agent({ llm: plain.llm });
    await run(plainAgent, 'first');
    const plainEvents = await run(plainAgent, 'second');

    const { llm, bodies } = await scripted([text('One.'), text('Two.')]);
    const agent = new Agent({ llm });
    await run(agent, 'first');
    agent.steer('and keep it short');
    const events = await run(agent, 'second');
    expect(events).toEqual(plainEvents);
    const sent = await bodies();
    expect(sent[1]).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'One.' },
      { role: 'user', content: 'second' },
      { role: 'user', content: 'and keep it short' },
    ]);
    expect((await plain.bodies())[1]).toEqual(sent[1]!.slice(0, 3));
  });
});
