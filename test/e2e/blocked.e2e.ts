// issue 10, item 11: a database blocked from another tab (an upgrade waiting on an old connection) never
// holds back the event stream, and a conversation that cannot be restored says so in the user's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, pageErrors, startHarness, type Harness } from './store/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

const BLOCKED_JA = 'このサイトの別のタブが会話データベースを使用中です。このサイトの他のタブを閉じるか再読み込みしてから、再試行してください。';

describe('a database blocked by another tab', () => {
  it('delivers TurnEnd and RunEnd at once, reports the blocked save, and saves it all once the other tab lets go', async () => {
    const context = await h.browser.newContext();
    const a = await openPage(context, h.baseUrl);
    const b = await openPage(context, h.baseUrl);
    const db = `blocked-${crypto.randomUUID()}`;
    const fast = `${h.baseUrl}/__store-llm/fast/v1`;
    await a.evaluate(
      async ({ db, fast }) => {
        const { Agent, LLM, createStore } = window.pagent;
        const w = window as unknown as Record<string, unknown>;
        const errors: string[] = [];
        const store = createStore(db, 2000);
        const agent = new Agent({ llm: new LLM('scripted', { baseURL: fast }), store, sessionId: 'chat', onStoreError: (e) => errors.push(`${(e as { reason?: string }).reason}`) });
        await agent.run('first');
        Object.assign(w, { agent, store, errors });
      },
      { db, fast },
    );
    await b.evaluate(async (db) => {
      (window as unknown as Record<string, unknown>).hold = await window.pagent.blockDatabase(db);
    }, db);

    const seen = await a.evaluate(async () => {
      const w = window as unknown as { agent: InstanceType<typeof window.pagent.Agent>; errors: string[] };
      const order: string[] = [];
      for await (const e of w.agent.events('second')) {
        if (e.method === 'TurnEnd' || e.method === 'RunEnd') order.push(`${e.method} (store errors so far: ${w.errors.length})`);
      }
      return order;
    });
    // the events came while the save was still waiting for the database (its timeout had not run out)
    expect(seen).toEqual(['TurnEnd (store errors so far: 0)', 'RunEnd (store errors so far: 0)']);
    await expect.poll(() => a.evaluate(() => (window as unknown as { errors: string[] }).errors), { timeout: 10_000 }).toEqual(['blocked']);

    await b.evaluate(() => ((window as unknown as { hold: { release(): Promise<void> } }).hold.release()));
    const saved = await a.evaluate(async () => {
      const w = window as unknown as { agent: InstanceType<typeof window.pagent.Agent>; store: ReturnType<typeof window.pagent.createStore> };
      await w.agent.run('third');
      return (await w.store.load('chat'))!.messages.map((m) => `${m.role}:${String(m.content)}`);
    });
    expect(saved).toEqual(['user:first', 'assistant:了解 ✅', 'user:second', 'assistant:了解 ✅', 'user:third', 'assistant:了解 ✅']);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);

  it('says in Japanese that another tab holds the database when the conversation cannot be restored', async () => {
    const context = await h.browser.newContext();
    const b = await openPage(context, h.baseUrl);
    const db = `blocked-${crypto.randomUUID()}`;
    await b.evaluate(async (db) => {
      const { createStore, Session } = window.pagent;
      const store = createStore(db, 2000);
      const s = new Session();
      s.append({ role: 'user', content: 'saved earlier' }, { role: 'assistant', content: 'yes' });
      await store.save('chat', s);
      store.close();
      (window as unknown as Record<string, unknown>).hold = await window.pagent.blockDatabase(db);
    }, db);
    const a = await openPage(context, h.baseUrl);
    await a.evaluate(
      ({ db, fast }) => {
        const { Agent, LLM, createStore } = window.pagent;
        const store = createStore(db, 1000);
        const chat = document.createElement('pagent-chat');
        chat.lang = 'ja';
        chat.agent = new Agent({ llm: new LLM('scripted', { baseURL: fast }), store, sessionId: 'chat' });
        chat.store = store;
        document.body.append(chat);
      },
      { db, fast: `${h.baseUrl}/__store-llm/fast/v1` },
    );
    const title = a.locator('pagent-chat [part~="error"] .error-title');
    await expect.poll(() => title.first().textContent(), { timeout: 10_000 }).toBe(BLOCKED_JA);
    expect(await a.locator('pagent-chat [part~="error"]').first().getAttribute('data-kind')).toBe('store-blocked');
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);
});
