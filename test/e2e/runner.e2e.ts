// Runner features in real pages: a steered message survives a reload; the workspace under a real small quota.
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

describe('steer in a real page', () => {
  it('sends the steered message after the tool round, saves it, and a reload shows it in place', async () => {
    const context = await h.browser.newContext();
    const page = await openPage(context, h.baseUrl);
    const baseURL = `${h.baseUrl}/__store-llm/tools-then-slow/v1`;
    const before = h.model.requests.length;
    h.model.slowChunkMs = 1;
    await page.evaluate(async (url) => {
      const { Agent, LLM, tool, storeFor } = window.pagent;
      let agent!: InstanceType<typeof Agent>;
      let steered = false;
      const lookup = tool({
        name: 'lookup', description: 'Looks something up.',
        parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
        execute: (args) => {
          if (!steered) agent.steer('日本語で答えて 🙏');
          steered = true;
          return `result for ${String(args.q)}`;
        },
      });
      agent = new Agent({ llm: new LLM('scripted', { baseURL: url, retries: 0 }), tools: [lookup], store: storeFor('steer'), sessionId: 'chat' });
      await agent.run('look it up');
    }, baseURL);
    const bodies = h.model.requests.slice(before).map((r) => r.messages);
    // second model call: input, call_a round, then the steered message
    expect(bodies[1]!.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(bodies[1]!.at(-1)).toEqual({ role: 'user', content: '日本語で答えて 🙏' });
    for (const b of bodies) expect(requestProblem(b)).toBeUndefined();

    await page.reload();
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'ready');
    const stored = await page.evaluate(async () => (await window.pagent.storeFor('steer').load('chat'))!.messages as ChatMessage[]);
    const at = stored.findIndex((m) => m.role === 'user' && m.content === '日本語で答えて 🙏');
    expect(stored.slice(0, at + 1).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(requestProblem(stored)).toBeUndefined();
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);
});

describe('workspace under a real small quota', () => {
  it('a write past the quota fails with reason quota and a clear message; earlier files and content stay', async () => {
    const context = await h.persistentContext();
    const page = await openPage(context, h.baseUrl);
    const cdp = await context.newCDPSession(page);
    const origin = new URL(h.baseUrl).origin;
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1024 * 1024 });
    try {
      const result = await page.evaluate(async () => {
        const { createWorkspace, workspaceTools } = window.pagent;
        const ws = await createWorkspace({ name: 'quota' });
        await ws.write('keep.txt', 'small 🐜');
        await ws.write('big.txt', 'v1');
        const bytes = crypto.getRandomValues(new Uint8Array(65536));
        const big = Array.from(bytes, (x) => x.toString(16).padStart(2, '0')).join('').repeat(32); // 4 MB
        let error: { name: string; reason: string; message: string } | undefined;
        try {
          await ws.write('big.txt', big);
        } catch (e) {
          const err = e as { name: string; reason: string; message: string };
          error = { name: err.name, reason: err.reason, message: err.message };
        }
        const write = workspaceTools(ws).find((t) => t.name === 'write_file')!;
        let toolError = '';
        try {
          await (write.execute as (a: unknown, c: unknown) => Promise<unknown>)({ path: 'big2.txt', content: big }, { signal: new AbortController().signal, tool_call_id: 'x' });
        } catch (e) {
          toolError = (e as Error).message;
        }
        return { error, toolError, keep: await ws.read('keep.txt'), previous: await ws.read('big.txt'), files: (await ws.files()).map((f) => f.path) };
      });
      expect(result.error).toMatchObject({ name: 'WorkspaceError', reason: 'quota' });
      expect(result.error!.message).toMatch(/^Workspace write "big\.txt" failed: the browser's storage quota for this site is exhausted/);
      expect(result.toolError).toMatch(/quota/);
      expect(result.keep).toBe('small 🐜');
      expect(result.previous).toBe('v1');
      expect(result.files).not.toContain('big2.txt');
    } finally {
      await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    }
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);
});
