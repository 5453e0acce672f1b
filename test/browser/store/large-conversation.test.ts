import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { Agent } from '../../../src/agent/agent.js';
import { Session } from '../../../src/agent/sessions/session.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { scriptedModel } from '../../unit/agent/scripted-model.js';
import { uniqueName } from './helpers.js';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

// Past the count of arguments a call can take in Chromium (about 80,000 with the default stack, fewer when the stack is deeper): a
// conversation this long is what a spread of its messages into a call fails on.
const COUNT = 100_000;

function conversation(count: number): ChatMessage[] {
  return Array.from({ length: count }, (_, i): ChatMessage => (i % 2 === 0 ? { role: 'user', content: `q${i}` } : { role: 'assistant', content: `a${i}` }));
}

describe(`a conversation of ${COUNT.toLocaleString('en')} messages`, () => {
  it('imports; the agent restores it whole, continues it and regenerates its last answer', { timeout: 120_000 }, async () => {
    const store = createSessionStore({ name: uniqueName('large') });
    stores.push(store);
    const messages = conversation(COUNT);
    const file = {
      format: 'pagent-web/session',
      version: 1,
      id: 'long',
      title: 'long',
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
      session: { version: 1, kind: 'session', systemPrompt: 'Be brief.', messages },
    };
    const id = await store.import(JSON.stringify(file));

    // the agent restores it through store.load (one read of the whole conversation) and continues it
    const model = scriptedModel([{ text: ['still here'] }, { text: ['here again'] }]);
    const agent = new Agent({ llm: model, store, sessionId: id, session: new Session('Be brief.') });
    await agent.run('one more');
    expect(agent.session.messages).toHaveLength(COUNT + 2);
    expect(agent.session.messages[COUNT - 1]).toEqual(messages[COUNT - 1]);
    const sent = model.requests[0]!.messages;
    expect(sent).toHaveLength(COUNT + 2);
    expect(sent[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(sent[COUNT]).toEqual(messages[COUNT - 1]);
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'one more' });
    // regenerating the answer keeps every message before it
    await agent.rewind(COUNT + 1);
    await agent.run('one more', { retry: true });
    expect(model.requests[1]!.messages).toEqual(sent);
    const [summary] = await store.list();
    expect(summary).toMatchObject({ id, messageCount: COUNT + 2 });
  });
});
