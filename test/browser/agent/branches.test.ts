// Regenerate, edit and branch switching with a real Agent, store and local scripted model server: the
// request bodies the server received are exactly the active path.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import type { ScriptedResponse } from '../../server/replay.js';
import { expectValidHistory } from '../../helpers/history.js';

const api = inject('apiUrl');
const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1767225600, model: 'scripted',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const text = (t: string): ScriptedResponse => ({ chunks: [chunk({ role: 'assistant', content: t }), chunk({}, 'stop')] });
const call = (id: string, args: string): ScriptedResponse => ({
  chunks: [chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name: 'echo', arguments: args } }] }), chunk({}, 'tool_calls')],
});
const echo = tool<{ text: string }>({
  name: 'echo', description: 'Echo the text back.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: ({ text: t }) => t,
});

async function scripted(responses: ScriptedResponse[]): Promise<{ llm: LLM; requests: () => Promise<Array<{ messages: ChatMessage[] }>> }> {
  const key = crypto.randomUUID();
  await fetch(`${api}/replay/_script/${key}`, { method: 'POST', body: JSON.stringify({ responses }) });
  return {
    llm: new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, retries: 0 }),
    requests: async () => (await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Array<{ messages: ChatMessage[] }>,
  };
}

const opened: SessionStore[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});
const contents = (messages: readonly ChatMessage[]): unknown[] => messages.map((m) => (m.role === 'assistant' && m.tool_calls ? `call:${m.tool_calls[0]!.id}` : m.content));

describe('Agent branches', () => {
  it('regenerates the last answer and resends an edited message as branches; each request carries the active path only', async () => {
    const name = `agent-branches-${crypto.randomUUID()}`;
    const store = createSessionStore({ name });
    opened.push(store);
    const { llm, requests } = await scripted([
      call('c1', '{"text":"one"}'), text('First answer.'), // Q1 with a tool round
      text('Second answer.'), // Q2
      text('Second answer, again.'), // regenerate Q2
      text('Answer to the edit.'), // edit Q2
      text('After switching back.'), // a turn on the first branch
    ]);
    const agent = new Agent({ llm, tools: [echo], store, sessionId: 'c' });
    await agent.run('Q1');
    await agent.run('Q2');
    // regenerate: keep Q2 (message 4), run it again as a retry
    await agent.rewind(5);
    await agent.run('Q2', { retry: true });
    // edit Q2: keep the messages before it, send the new text
    await agent.rewind(4);
    await agent.run('Q2 edited');
    await agent.whenSaved();

    const bodies = await requests();
    const sent = bodies.map((b) => contents(b.messages));
    const q1 = ['Q1', 'call:c1', 'one', 'First answer.'];
    expect(sent[2]).toEqual([...q1, 'Q2']);
    expect(sent[3]).toEqual([...q1, 'Q2']); // the regenerated answer's request: the old answer is not in it
    expect(sent[4]).toEqual([...q1, 'Q2 edited']);
    for (const b of bodies) expectValidHistory(b.messages);

    const tree = (await store.loadTree('c'))!;
    // Q2 has two versions (the first with two answers); nothing was overwritten
    const byText = (t: string): number => tree.nodes.find((n) => n.message.content === t)!.seq;
    expect(tree.nodes.filter((n) => n.parent === byText('Q2')).map((n) => n.message.content)).toEqual(['Second answer.', 'Second answer, again.']);
    expect(tree.nodes.find((n) => n.seq === byText('Q2 edited'))!.parent).toBe(byText('First answer.'));
    expect(contents((await store.load('c'))!.messages)).toEqual([...q1, 'Q2 edited', 'Answer to the edit.']);

    // switch back to the first Q2 and go on: the request holds that branch (with its chosen answer)
    await store.switchBranch('c', byText('Q2'));
    agent.useSession('c');
    await agent.run('Q3');
    await agent.whenSaved();
    expect(contents((await requests())[5]!.messages)).toEqual([...q1, 'Q2', 'Second answer, again.', 'Q3']);

    // a new store and agent on the same database: the same path
    const reopened = createSessionStore({ name });
    opened.push(reopened);
    expect(contents((await reopened.load('c'))!.messages)).toEqual([...q1, 'Q2', 'Second answer, again.', 'Q3', 'After switching back.']);
    expect((await reopened.loadTree('c'))!.nodes).toHaveLength(tree.nodes.length + 2);
  });

  it('rewinds a conversation it has not restored yet (opened from the list) after restoring it', async () => {
    const store = createSessionStore({ name: `agent-branches-${crypto.randomUUID()}` });
    opened.push(store);
    await store.append('c', [{ role: 'user', content: 'Q' }, { role: 'assistant', content: 'A' }]);
    const { llm, requests } = await scripted([text('A again')]);
    const agent = new Agent({ llm, store, sessionId: 'c' });
    await agent.rewind(1);
    await agent.run('Q', { retry: true });
    await agent.whenSaved();
    expect(contents((await requests())[0]!.messages)).toEqual(['Q']);
    const tree = (await store.loadTree('c'))!;
    expect(tree.nodes.map((n) => [n.message.content, n.parent])).toEqual([['Q', null], ['A', 0], ['A again', 0]]);
  });
});
