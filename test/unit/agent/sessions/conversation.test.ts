// The conversation both agents keep: a history replaced as a whole (a back end's MESSAGES_SNAPSHOT) is
// rewritten in the store even when an append of the old history is still under way.
import { describe, expect, it } from 'vitest';
import type { AgentStore } from '../../../../src/agent/agent.js';
import { Conversation } from '../../../../src/agent/sessions/conversation.js';
import type { ChatMessage } from '../../../../src/agent/messages.js';

describe('Conversation', () => {
  it('rewrites the stored copy after replace(), also while an append of the old history is in flight', async () => {
    let release!: () => void;
    const appended: ChatMessage[][] = [];
    const whole: ChatMessage[][] = [];
    const store: AgentStore = {
      load: async () => undefined,
      append: (_id, messages) =>
        new Promise<void>((resolve) => {
          appended.push(messages);
          release = resolve;
        }),
      save: async (_id, session) => void whole.push([...session.toJSON().messages]),
    };
    const conversation = new Conversation({ store, sessionId: 'c', owner: 'Test' });
    expect(await conversation.restore()).toBeUndefined();
    conversation.add({ role: 'user', content: 'first' });
    conversation.save();
    await new Promise((r) => setTimeout(r, 0));
    expect(appended).toEqual([[{ role: 'user', content: 'first' }]]);
    // the back end sends the whole conversation while that append is still waiting
    const snapshot: ChatMessage[] = [
      { role: 'user', content: 'kept' },
      { role: 'assistant', content: 'answer' },
    ];
    conversation.replace(snapshot);
    conversation.save();
    release();
    await conversation.whenSaved();
    expect(whole).toEqual([snapshot]);
  });

  it('a failed rewrite is tried again by the next save', async () => {
    let fail = true;
    const whole: ChatMessage[][] = [];
    const store: AgentStore = {
      load: async () => undefined,
      append: async () => undefined,
      save: async (_id, session) => {
        if (fail) throw new Error('quota');
        whole.push([...session.toJSON().messages]);
      },
    };
    const conversation = new Conversation({ store, sessionId: 'c', owner: 'Test', onStoreError: () => {} });
    await conversation.restore();
    conversation.replace([{ role: 'user', content: 'x' }]);
    conversation.save();
    await conversation.whenSaved();
    fail = false;
    conversation.add({ role: 'assistant', content: 'y' });
    conversation.save();
    await conversation.whenSaved();
    expect(whole).toEqual([[{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }]]);
  });
});
