import { describe, expect, it } from 'vitest';
import { Agent, type AgentStore } from '../../../../src/agent/agent.js';
import type { ChatMessage } from '../../../../src/agent/messages.js';
import { tool } from '../../../../src/agent/tools/tools.js';
import { PagentError, StoreError } from '../../../../src/errors.js';
import type { WireEvent } from '../../../../src/wire/events.js';
import { call, scriptedModel } from '../scripted-model.js';

/** A store whose appends wait until `open()` is called (a database another tab keeps blocked). */
function blockedStore() {
  const waiting: Array<{ messages: ChatMessage[]; settle: (err?: unknown) => void }> = [];
  const saved: ChatMessage[] = [];
  const store: AgentStore = {
    load: async () => undefined,
    append: (_id, messages) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({
          messages,
          settle: (err) => {
            if (err) reject(err);
            else {
              saved.push(...messages);
              resolve();
            }
          },
        });
      }),
  };
  return { store, waiting, saved };
}

const echo = tool({ name: 'echo', description: '', parameters: { type: 'object' }, execute: () => 'x' });

// issue 10, item 11: saving never holds back the event stream; failures go to onStoreError.
describe('the agent saves in the background', () => {
  it('delivers every TurnEnd and the RunEnd while the database is still blocked', async () => {
    const { store, waiting, saved } = blockedStore();
    const errors: PagentError[] = [];
    const llm = scriptedModel([{ toolCalls: [call('c1', 'echo', '{}')] }, { text: ['done'] }]);
    const agent = new Agent({ llm, tools: [echo], store, sessionId: 's1', onStoreError: (e) => errors.push(e) });
    const events: WireEvent[] = [];
    for await (const e of agent.events('q')) events.push(e);
    expect(events.map((e) => e.method).slice(-3)).toEqual(['StepEnd', 'TurnEnd', 'RunEnd']);
    expect(events.filter((e) => e.method === 'TurnEnd')).toHaveLength(2);
    // one write in flight, the next queued behind it; nothing saved yet, nothing lost
    expect(waiting).toHaveLength(1);
    expect(saved).toEqual([]);
    waiting[0]!.settle();
    await expect.poll(() => waiting.length).toBe(2);
    waiting[1]!.settle();
    await agent.whenSaved();
    expect(saved.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(errors).toEqual([]);
  });

  it('reports a blocked save to onStoreError (not the event stream) and saves the messages with the next turn', async () => {
    const { store, waiting, saved } = blockedStore();
    const errors: PagentError[] = [];
    const agent = new Agent({ llm: scriptedModel([{ text: ['a1'] }, { text: ['a2'] }]), store, sessionId: 's1', onStoreError: (e) => errors.push(e) });
    const first: WireEvent[] = [];
    for await (const e of agent.events('q1')) first.push(e);
    expect(first.some((e) => e.method === 'RunError')).toBe(false);
    waiting[0]!.settle(new StoreError('blocked', 'Session store append "s1" failed: the database did not open', { sessionId: 's1' }));
    await agent.whenSaved();
    expect(errors.map((e) => (e as StoreError).reason)).toEqual(['blocked']);
    for await (const _ of agent.events('q2')) void _;
    waiting[1]!.settle();
    await agent.whenSaved();
    expect(saved.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'a2']);
  });

  it('run() resolves once its turns are saved', async () => {
    const appended: string[] = [];
    const store: AgentStore = { load: async () => undefined, append: async (_id, messages) => void appended.push(...messages.map((m) => String(m.content))) };
    const agent = new Agent({ llm: scriptedModel([{ text: ['a'] }]), store, sessionId: 's1' });
    await agent.run('q');
    expect(appended).toEqual(['q', 'a']);
  });
});
