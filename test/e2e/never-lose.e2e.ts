// Never lose an answer, in real pages: a real page.reload() at random points of a streamed answer and
// of a tool round, 20 times; after each, what the page showed is there again (minus at most the last
// in-flight save window), marked interrupted; Continue's request passes the model's history check and
// finishes the story, and the store holds the whole answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seededRandom } from '../helpers/random.js';
import { openPage, pageErrors, STORY, startHarness, type Harness } from './store/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The in-flight save's window (createSessionStore's default). */
const WINDOW_MS = 250;

interface Shown {
  /** The words of the last answer shown. */
  words: string[];
  /** Tool cards as [name, status]. */
  tools: Array<[string, string]>;
  interrupted: boolean;
  continuable: boolean;
  streaming: boolean;
}

const shown = (page: Page): Promise<Shown> =>
  page.evaluate(() => {
    const el = document.querySelector('pagent-chat') as HTMLElement & { streaming: boolean };
    const root = el.shadowRoot!;
    const answer = [...root.querySelectorAll('[part~="answer-text"]')].at(-1)?.textContent ?? '';
    return {
      words: answer.split(/\s+/).filter(Boolean),
      tools: [...root.querySelectorAll<HTMLElement>('[part~="tool-call"]')].map((c): [string, string] => [c.querySelector('[part="tool-name"]')?.textContent ?? '', c.dataset['status'] ?? '']),
      interrupted: root.querySelector('[part="interrupted"]') !== null,
      continuable: root.querySelector('[part="continue-button"]') !== null,
      streaming: el.streaming,
    };
  });

const storyWords = STORY.map((w) => w.trim());

describe('reload at random points of a run', () => {
  it('20 reloads mid-answer and mid-tool-round: the text shown is kept (minus at most one save window), the next request is valid, Continue completes it', async () => {
    const random = seededRandom(2025);
    const context = await h.browser.newContext();
    const page = await openPage(context, h.baseUrl);
    const refusedBefore = h.model.refused.length;
    const losses: number[] = [];
    let interrupted = 0;
    for (let i = 0; i < 20; i++) {
      const tools = i % 2 === 1;
      const script = tools ? 'story-tools' : 'story';
      const id = `reload-${i}`;
      // a tool round: the call's arguments stream, then the tool takes 400 ms; the answer: 60 words
      h.model.storyCallSent = undefined;
      await page.evaluate(([id, script]) => window.pagent.mountChat('never-lose', id!, script!, 400).send('Tell me the story 📖'), [id, script]);
      const duringTools = tools && random() < 0.5;
      const words = 1 + Math.floor(random() * (STORY.length - 12));
      if (duringTools) {
        // the call is shown (its arguments streamed), then a random moment of the round
        await expect.poll(async () => (await shown(page)).tools.length, { timeout: 10_000 }).toBe(1);
        await page.waitForTimeout(Math.floor(random() * 350));
      } else {
        await expect.poll(async () => (await shown(page)).words.length >= words, { timeout: 10_000 }).toBe(true);
      }
      const before = await shown(page);
      const reloadAt = Date.now();
      const callSent = h.model.storyCallSent;
      await page.reload();
      await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'ready');
      await page.evaluate(([id, script]) => void window.pagent.mountChat('never-lose', id!, script!, 400), [id, script]);
      // the reopened conversation shows the interrupted answer with Continue (for a question whose answer had
      // no piece saved yet: the question, with Continue), or, when the run ended before the page went, the
      // whole answer — or the store holds nothing of it: the page went within the run's first save window
      // (the loss check below then covers every word shown)
      const storedNothing = (): Promise<boolean> =>
        page.evaluate(async (id) => (await window.pagent.storeFor('never-lose').load(id)) === undefined, id);
      await expect.poll(async () => {
        const now = await shown(page);
        return now.continuable || (!now.streaming && now.words.length === STORY.length) || (await storedNothing());
      }, { timeout: 20_000 }).toBe(true);
      const after = await shown(page);
      if (!after.continuable && after.words.length === 0 && (await storedNothing())) {
        for (const word of before.words) expect(reloadAt - h.model.storySent.get(`${word} `)!, `"${word}" lost by reload ${i}`).toBeLessThanOrEqual(WINDOW_MS + 250);
        expect(before.tools).toEqual([]);
        losses.push(before.words.length);
        await page.evaluate(() => document.querySelector('pagent-chat')!.remove());
        continue;
      }

      // the answer shown before the reload is there, but for words written in the last save window
      if (before.words.length > 0) {
        expect(before.words.slice(0, after.words.length)).toEqual(after.words.slice(0, before.words.length));
        const lost = before.words.slice(after.words.length);
        for (const word of lost) expect(reloadAt - h.model.storySent.get(`${word} `)!, `"${word}" lost by reload ${i}`).toBeLessThanOrEqual(WINDOW_MS + 250);
        losses.push(lost.length);
      }
      // the tool call shown is there — unless the model had not sent it whole (its card shows while its
      // arguments stream) or sent it within the last save window; a result that came is kept
      if (before.tools.length > 0 && after.tools.length === 0) {
        expect(callSent === undefined || reloadAt - callSent <= WINDOW_MS + 250, `the call lost by reload ${i} was sent ${reloadAt - callSent!} ms before it`).toBe(true);
      } else {
        expect(after.tools.map(([name]) => name)).toEqual(before.tools.map(([name]) => name));
        if (before.tools[0]?.[1] === 'ok') expect(after.tools[0]![1]).toBe('ok');
      }

      if (after.continuable) {
        expect(after.interrupted).toBe(true);
        interrupted += 1;
        await page.locator('pagent-chat [part="continue-button"]').click();
      }
      await expect.poll(async () => {
        const now = await shown(page);
        return !now.streaming && now.words.join(' ');
      }, { timeout: 15_000 }).toBe(storyWords.join(' '));
      const stored = await page.evaluate(async (id) => {
        const store = window.pagent.storeFor('never-lose');
        return { messages: (await store.load(id))!.messages, turn: await store.loadTurn(id) };
      }, id);
      expect(stored.turn).toBeUndefined();
      const last = stored.messages.at(-1)!;
      expect(last.role).toBe('assistant');
      expect(last.content).toBe(STORY.join(''));
      expect(stored.messages[0]).toEqual({ role: 'user', content: 'Tell me the story 📖' });
      if (tools) expect(stored.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      // the next page starts clean
      await page.evaluate(() => document.querySelector('pagent-chat')!.remove());
    }
    // every request the model received was a valid history (it refuses the others with a 400)
    expect(h.model.refused.slice(refusedBefore)).toEqual([]);
    console.log(`never-lose: ${interrupted} of 20 reloads cut the run; words lost per reload mid-answer: ${losses.join(', ')}`);
    expect(interrupted).toBeGreaterThanOrEqual(15);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 240_000);
});

describe('one conversation, one runner, in two real pages', () => {
  it('a run in A shows live in B; a send in B meanwhile starts no second run; both end with the same stored tree', async () => {
    const context = await h.browser.newContext();
    const a = await openPage(context, h.baseUrl);
    const b = await openPage(context, h.baseUrl);
    for (const page of [a, b]) await page.evaluate(() => void window.pagent.mountChat('two-tabs', 'shared', 'story'));
    // the story waits after its tenth word until released: the checks below happen while A's run goes on
    let release!: () => void;
    h.model.storyHold = new Promise<void>((r) => (release = r));
    const storyRequests = (): number => h.model.requests.filter((r) => r.script === 'story').length;
    const before = storyRequests();

    await a.locator('pagent-chat textarea').fill('Tell me the story 📖');
    await a.locator('pagent-chat textarea').press('Enter');
    // B follows A's run as it streams: the question, then the answer growing, while A still runs
    await expect.poll(async () => (await shown(b)).words.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
    expect((await shown(a)).streaming).toBe(true);
    expect(await b.locator('pagent-chat [part~="user"] [part="message-text"]').allTextContents()).toEqual(['Tell me the story 📖']);
    expect(await b.locator('pagent-chat [part="tabs-note"]').textContent()).toBe('Answering in another tab…');

    // a send in B during A's run is refused with a note; its text stays in the box
    await b.locator('pagent-chat textarea').fill('Me too 🙋');
    await b.locator('pagent-chat textarea').press('Enter');
    await expect.poll(() => b.locator('pagent-chat [part="tabs-note"]').textContent()).toBe('This conversation is answering in another tab. Send your message once it has finished.');
    expect(await b.locator('pagent-chat textarea').inputValue()).toBe('Me too 🙋');
    release();

    // both pages end with the whole answer, shown and stored once
    for (const page of [a, b]) {
      await expect.poll(async () => {
        const now = await shown(page);
        return !now.streaming && now.words.join(' ');
      }, { timeout: 15_000 }).toBe(storyWords.join(' '));
    }
    expect(storyRequests() - before).toBe(1);
    await expect.poll(() => b.locator('pagent-chat [part="tabs-note"]').count()).toBe(0);
    const tree = (page: typeof a) => page.evaluate(async () => {
      const t = (await window.pagent.storeFor('two-tabs').loadTree('shared'))!;
      return { head: t.head, nodes: t.nodes.map((n) => [n.seq, n.parent, n.message.role, n.message.content]) };
    });
    const treeA = await tree(a);
    expect(await tree(b)).toEqual(treeA);
    expect(treeA.nodes.map(([, , role]) => role)).toEqual(['user', 'assistant']);

    // now B may run it, and A follows
    h.model.storyHold = new Promise<void>((r) => (release = r));
    await b.locator('pagent-chat textarea').press('Enter');
    await expect.poll(async () => (await shown(a)).streaming, { timeout: 10_000 }).toBe(true);
    release();
    h.model.storyHold = undefined;
    await expect.poll(() => a.locator('pagent-chat [part~="user"] [part="message-text"]').allTextContents(), { timeout: 10_000 }).toEqual(['Tell me the story 📖', 'Me too 🙋']);
    for (const page of [a, b]) await expect.poll(async () => !(await shown(page)).streaming && (await shown(page)).words.length, { timeout: 15_000 }).toBe(STORY.length);
    expect(await tree(a)).toEqual(await tree(b));
    expect((await tree(a)).nodes.map(([, , role]) => role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);
});
