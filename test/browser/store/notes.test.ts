// Memory saved in the session store (real IndexedDB in Chromium): beside the sessions, never listed with them.
import { describe, expect, it } from 'vitest';
import { Memory } from '../../../src/agent/sessions/memory.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { createSessionStore } from '../../../src/store/session-store.js';

describe('Memory in the session store', () => {
  it('saves and loads notes under a key, outside the conversation list, and clear() removes them', async () => {
    const store = createSessionStore({ name: `notes-${crypto.randomUUID()}` });
    const notes = new Memory(['User prefers metric units.', 'Name: 佐藤']);
    await notes.save(store, 'profile');
    await store.save('chat-1', new Session('sys'));
    expect((await Memory.load(store, 'profile')).notes).toEqual(['User prefers metric units.', 'Name: 佐藤']);
    expect((await store.list()).map((s) => s.id)).toEqual(['chat-1']);
    expect((await Memory.load(store, 'nobody')).notes).toEqual([]);
    await store.clear();
    expect(await store.loadNotes('profile')).toBeUndefined();
    store.close();
  });
});
