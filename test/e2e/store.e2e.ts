import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/agent/messages.js';
import { openPage, pageErrors, requestProblem, startHarness, type Harness } from './store/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

const roles = (messages: readonly ChatMessage[]): string[] => messages.map((m) => m.role);

describe('session store in real pages', () => {
  it('keeps every finished turn across a reload in the middle of a streamed answer, and the next request is valid', async () => {
    const context = await h.browser.newContext();
    const page = await openPage(context, h.baseUrl);
    const slow = `${h.baseUrl}/__store-llm/tools-then-slow/v1`;
    const streaming = h.model.slowStreaming();
    await page.evaluate((baseURL) => {
      const { Agent, LLM, tool, storeFor } = window.pagent;
      const lookup = tool({
        name: 'lookup',
        description: 'Looks something up.',
        parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
        execute: (args) => `result for ${String(args.q)} 📄`,
      });
      const llm = new LLM('scripted', { baseURL, apiKey: 'sk-e2e-reload-secret' });
      const agent = new Agent({ llm, tools: [lookup], store: storeFor('reload'), sessionId: 'run-1' });
      void agent.run('調べて 🚀').catch(() => undefined);
    }, slow);
    // two tool turns finished; the third model call is streaming its answer, and its first words are saved
    await streaming;
    await page.waitForFunction(async () => ((await window.pagent.storeFor('reload').loadTurn('run-1'))?.content ?? '').startsWith('word0 '));
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'ready');

    const fast = `${h.baseUrl}/__store-llm/fast/v1`;
    const after = await page.evaluate(async (baseURL) => {
      const { Agent, LLM, storeFor } = window.pagent;
      const store = storeFor('reload');
      const stored = [...((await store.load('run-1'))?.messages ?? [])];
      const agent = new Agent({ llm: new LLM('scripted', { baseURL }), store, sessionId: 'run-1' });
      const end = await agent.run('続けて');
      const saved = [...(await store.load('run-1'))!.messages];
      const dump = await store.export('run-1');
      return { stored, answer: end.content, saved, dump };
    }, fast);

    expect(roles(after.stored)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(after.stored[0]).toEqual({ role: 'user', content: '調べて 🚀' });
    expect(after.stored[1]).toMatchObject({ role: 'assistant', reasoning_content: '調べる call_a 🔎', tool_calls: [{ id: 'call_a' }] });
    expect(after.stored[2]).toEqual({ role: 'tool', tool_call_id: 'call_a', content: 'result for call_a 📄' });
    expect(after.stored[4]).toEqual({ role: 'tool', tool_call_id: 'call_b', content: 'result for call_b 📄' });
    expect(JSON.stringify(after.stored)).not.toContain('word0');

    const next = h.model.requests.at(-1)!;
    expect(next.script).toBe('fast');
    // the answer the reload cut goes first, as it stood (saved as it streamed), then the new message
    expect(roles(next.messages)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user']);
    expect(String(next.messages[5]!.content)).toMatch(/^word0 /);
    expect(requestProblem(next.messages)).toBeUndefined();
    expect(after.answer).toBe('了解 ✅');
    expect(roles(after.saved)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(after.dump).not.toContain('sk-e2e-reload-secret');
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows a write from one page in another and loses no message when two pages append at once', async () => {
    const context = await h.browser.newContext();
    const a = await openPage(context, h.baseUrl);
    const b = await openPage(context, h.baseUrl);
    await a.evaluate(() => window.pagent.watch('tabs'));
    await b.evaluate(() => window.pagent.storeFor('tabs').append('shared', [{ role: 'user', content: 'from B 🅱️' }]));
    await expect
      .poll(() => a.evaluate(() => window.pagent.changes.filter((c) => c.remote).map((c) => ({ ...c }))))
      .toEqual([{ type: 'append', id: 'shared', from: 0, count: 1, messageCount: 1, parent: null, head: 0, remote: true }]);
    expect(await a.evaluate(async () => (await window.pagent.storeFor('tabs').load('shared'))!.messages[0]!.content)).toBe(
      'from B 🅱️',
    );

    const appendMany = async (prefix: string) => {
      const store = window.pagent.storeFor('tabs');
      for (let i = 0; i < 30; i++) await store.append('shared', [{ role: 'user', content: `${prefix}${i}` }]);
    };
    await Promise.all([a.evaluate(appendMany, 'a'), b.evaluate(appendMany, 'b')]);
    const contents = await b.evaluate(async () =>
      (await window.pagent.storeFor('tabs').load('shared'))!.messages.map((m) => String(m.content)),
    );
    expect(contents).toHaveLength(61);
    expect(new Set(contents).size).toBe(61);
    expect(contents.filter((c) => /^a\d+$/.test(c))).toEqual(Array.from({ length: 30 }, (_, i) => `a${i}`));
    expect(contents.filter((c) => /^b\d+$/.test(c))).toEqual(Array.from({ length: 30 }, (_, i) => `b${i}`));
    // page A heard about every append page B made
    await expect
      .poll(() => a.evaluate(() => window.pagent.changes.filter((c) => c.remote && c.type === 'append').length))
      .toBe(31);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);

  it('fails with reason quota under a real small quota, leaving the in-memory session and other sessions intact', async () => {
    const context = await h.persistentContext();
    const page = await openPage(context, h.baseUrl);
    const cdp = await context.newCDPSession(page);
    const origin = new URL(h.baseUrl).origin;
    // set before the origin's first IndexedDB write: set later, Chromium did not hold writes to it in our runs
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1024 * 1024 });
    await page.evaluate(() => window.pagent.storeFor('quota').append('other', [{ role: 'user', content: 'small 🐜' }]));
    try {
      const result = await page.evaluate(async () => {
        const { Session, storeFor } = window.pagent;
        const store = storeFor('quota');
        // 4 MB of incompressible text: over the 1 MB quota
        const bytes = crypto.getRandomValues(new Uint8Array(65536));
        const block = Array.from(bytes, (x) => x.toString(16).padStart(2, '0')).join('');
        const big = block.repeat(32);
        const session = new Session('sys');
        session.append({ role: 'user', content: 'hi' }, { role: 'assistant', content: big });
        let error: { name: string; reason: string; message: string; code: string } | undefined;
        try {
          await store.append('big', [...session.messages]);
        } catch (e) {
          const err = e as { name: string; reason: string; message: string; code: string };
          error = { name: err.name, reason: err.reason, message: err.message, code: err.code };
        }
        const list = await store.list();
        const other = (await store.load('other'))?.messages.map((m) => m.content);
        await store.append('other', [{ role: 'assistant', content: 'still writable ✅' }]);
        return {
          error,
          sessionIntact: session.messages.length === 2 && session.messages[1]!.content === big,
          ids: list.map((s) => s.id),
          other,
          otherAfter: (await store.load('other'))?.messages.map((m) => m.content),
          estimate: await store.estimate(),
        };
      });
      expect(result.error).toMatchObject({ name: 'StoreError', reason: 'quota', code: 'store' });
      expect(result.error!.message).toMatch(/append "big".*quota/);
      expect(result.sessionIntact).toBe(true);
      expect(result.ids).toEqual(['other']);
      expect(result.other).toEqual(['small 🐜']);
      expect(result.otherAfter).toEqual(['small 🐜', 'still writable ✅']);
      expect(result.estimate.usage).toBeGreaterThan(0);
    } finally {
      await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    }
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);
});
