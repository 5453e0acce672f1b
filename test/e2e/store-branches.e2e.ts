// Branches in real pages: two tabs branching one conversation at once lose no branch, each tab hears the
// other's writes, and after a real reload the store and the element show the same branches, active path
// and text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, pageErrors, startHarness, type Harness } from './store/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('branches across tabs and reloads', () => {
  it('two tabs branching the same conversation keep every branch; a reload shows the same tree, path and text', async () => {
    const context = await h.browser.newContext();
    const a = await openPage(context, h.baseUrl);
    const b = await openPage(context, h.baseUrl);
    await a.evaluate(async () => {
      const { storeFor, watch } = window.pagent;
      watch('tabs');
      await storeFor('tabs').append('c', [
        { role: 'user', content: 'Q1' }, { role: 'assistant', content: 'A1' },
        { role: 'user', content: 'Q2' }, { role: 'assistant', content: 'A2' },
      ]);
    });
    // tab A regenerates A2 while tab B edits Q2, ten times each, at once
    await Promise.all([
      a.evaluate(async () => {
        const store = window.pagent.storeFor('tabs');
        for (let i = 0; i < 10; i++) await store.append('c', [{ role: 'assistant', content: `A2 take ${i}` }], { parent: 2 });
      }),
      b.evaluate(async () => {
        const store = window.pagent.storeFor('tabs');
        for (let i = 0; i < 10; i++) await store.append('c', [{ role: 'user', content: `Q2 edit ${i}` }, { role: 'assistant', content: `A for edit ${i}` }], { parent: 1 });
      }),
    ]);
    await b.evaluate(() => window.pagent.storeFor('tabs').switchBranch('c', 3));
    // A heard B's appends and switch through the BroadcastChannel
    await a.waitForFunction(() => window.pagent.changes.some((c) => c.type === 'branch' && c.remote));
    const remoteAppends = await a.evaluate(() => window.pagent.changes.filter((c) => c.type === 'append' && c.remote).length);
    expect(remoteAppends).toBe(10);

    const read = () =>
      a.evaluate(async () => {
        const store = window.pagent.storeFor('tabs');
        const tree = (await store.loadTree('c'))!;
        const path = (await store.load('c'))!;
        return { nodes: tree.nodes.map((n) => [n.seq, n.parent, n.message.content]), head: tree.head, path: path.messages.map((m) => m.content) };
      });
    const before = await read();
    expect(before.nodes).toHaveLength(4 + 10 + 20);
    for (let i = 0; i < 10; i++) {
      expect(before.nodes.some(([, parent, text]) => parent === 2 && text === `A2 take ${i}`)).toBe(true);
      expect(before.nodes.some(([, parent, text]) => parent === 1 && text === `Q2 edit ${i}`)).toBe(true);
    }
    expect(before.path).toEqual(['Q1', 'A1', 'Q2', 'A2']);

    await a.reload();
    await a.waitForFunction(() => document.querySelector('#status')?.textContent === 'ready');
    expect(await read()).toEqual(before);

    // the element on the reloaded page shows the active path and where it is among the versions
    const shown = await a.evaluate(async () => {
      const { Agent, LLM, storeFor } = window.pagent;
      const el = document.createElement('pagent-chat') as HTMLElement & { store: unknown; agent: unknown };
      el.store = storeFor('tabs');
      el.agent = new Agent({ llm: new LLM('none', { baseURL: `${location.origin}/nowhere/v1` }), store: storeFor('tabs'), sessionId: 'c' });
      document.body.append(el);
      const root = el.shadowRoot!;
      const positions = () => [...root.querySelectorAll('[part="branch-position"]')].map((n) => n.textContent);
      for (let i = 0; i < 200 && positions().length < 2; i++) await new Promise((r) => setTimeout(r, 25));
      return {
        users: [...root.querySelectorAll('[part~="user"] [part="message-text"]')].map((n) => n.textContent),
        answers: [...root.querySelectorAll('[part~="answer-text"]')].map((n) => n.textContent),
        positions: positions(),
      };
    });
    expect(shown).toEqual({ users: ['Q1', 'Q2'], answers: ['A1', 'A2'], positions: ['1 of 11', '1 of 11'] });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
