// One conversation, one runner, in one page's element: a message sent the moment the element is made —
// before the chunk that holds the conversation's Web Lock and posts its run to other tabs has come — still
// runs under that lock (two pages are tested in test/e2e/never-lose.e2e.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentModel } from '../../../src/agent/agent.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { conversationLock } from '../../../src/chat/tabs/lock.js';
import '../../../src/chat/element.js';
import { answers, until } from './helpers.js';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  document.querySelectorAll('pagent-chat').forEach((el) => el.remove());
});

describe('<pagent-chat> runs a conversation under its Web Lock', () => {
  it('from the first message, sent before the keep-alive chunk came', async () => {
    const store = createSessionStore({ name: `tabs-${crypto.randomUUID()}` });
    stores.push(store);
    let answering!: () => void;
    const asked = new Promise<void>((r) => (answering = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const llm: AgentModel = {
      async *stream() {
        answering();
        await released;
        yield { type: 'text', text: 'Hello.' };
        yield { type: 'step', step: { content: 'Hello.', reasoning_content: '', tool_calls: [], finish_reason: 'stop', usage: null } };
      },
    };
    const el = document.createElement('pagent-chat') as PagentChat;
    el.store = store;
    el.agent = new Agent({ llm, store, sessionId: 'c' });
    document.body.append(el);
    el.send('Hi');
    await asked;
    const held = (await navigator.locks.query()).held?.map((lock) => lock.name);
    release();
    expect(held).toContain(conversationLock(store, 'c'));
    await until(() => answers(el).at(-1) === 'Hello.' && !el.streaming, 'the answer');
  });
});
