// Message actions through the real element, Agent, session store and the local scripted model server:
// copy, regenerate, edit and resend, switching versions, by mouse and by keyboard; the request bodies the
// server received carry exactly the active path, and a new element on the same database shows the same.
import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import type { PagentChat } from '../../../src/chat/element.js';
import type { ScriptedResponse } from '../../server/replay.js';
import { $, $$, answers, chatFixture, until } from './helpers.js';

const api = inject('apiUrl');
const SCREENS = '../../../test-results/screens';
const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1767225600, model: 'scripted',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const text = (t: string): ScriptedResponse => ({ chunks: [chunk({ role: 'assistant', content: t }), chunk({}, 'stop')] });

async function scripted(responses: ScriptedResponse[]): Promise<{ llm: LLM; bodies: () => Promise<unknown[][]> }> {
  const key = crypto.randomUUID();
  await fetch(`${api}/replay/_script/${key}`, { method: 'POST', body: JSON.stringify({ responses }) });
  return {
    llm: new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, retries: 0 }),
    bodies: async () =>
      ((await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Array<{ messages: ChatMessage[] }>).map((b) =>
        b.messages.map((m) => m.content)),
  };
}

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

async function setup(responses: ScriptedResponse[], name = `element-branches-${crypto.randomUUID()}`) {
  const { llm, bodies } = await scripted(responses);
  const store = createSessionStore({ name });
  stores.push(store);
  const agent = new Agent({ llm, store, sessionId: 'c' });
  const el = await chatFixture((c) => {
    c.store = store;
    c.agent = agent;
  });
  return { el, agent, store, bodies, name };
}

const users = (el: PagentChat): string[] => $$(el, '[part~="user"] [part="message-text"]').map((n) => n.textContent ?? '');
const actionsOf = (el: PagentChat, role: 'user' | 'answer', i: number): HTMLElement =>
  $$(el, `[part~="${role}"]`).at(i)!.nextElementSibling as HTMLElement;
const position = (el: PagentChat, role: 'user' | 'answer', i: number): string | undefined =>
  // undefined while a rerun has not shown that message yet
  $$(el, `[part~="${role}"]`).at(i)?.nextElementSibling?.querySelector('[part="branch-position"]')?.textContent ?? undefined;
/** The last answer offers Regenerate: its run has ended and its place in the store is known. */
const idle = (el: PagentChat): boolean => $$(el, '[part~="answer"]').at(-1)?.nextElementSibling?.querySelector('[part="regenerate-button"]') != null;

async function ask(el: PagentChat, q: string, a: string): Promise<void> {
  el.send(q);
  await until(() => answers(el).at(-1) === a && idle(el), `the answer "${a}"`);
}

async function reopened(name: string): Promise<PagentChat> {
  const store = createSessionStore({ name });
  stores.push(store);
  const el = await chatFixture((c) => {
    c.store = store;
    c.agent = new Agent({ llm: new LLM('none', { baseURL: `${api}/nowhere/v1`, retries: 0 }), store, sessionId: 'c' });
  });
  await until(() => idle(el), 'the reopened conversation');
  return el;
}

describe('<pagent-chat> message actions with an Agent and a store', () => {
  it('regenerates the last answer and switches versions by mouse; requests carry the active path; a new element shows the same', async () => {
    const { el, bodies, name } = await setup([text('A1'), text('A2'), text('A2, second try')]);
    await ask(el, 'Q1', 'A1');
    await ask(el, 'Q2', 'A2');
    expect($$(el, '[part="regenerate-button"]')).toHaveLength(1); // the last answer only
    await userEvent.click(actionsOf(el, 'answer', 1).querySelector('[part="regenerate-button"]')!);
    await until(() => answers(el).at(-1) === 'A2, second try' && position(el, 'answer', 1) === '2 of 2', 'the regenerated answer');
    expect(users(el)).toEqual(['Q1', 'Q2']);
    expect((await bodies())[2]).toEqual(['Q1', 'A1', 'Q2']);
    await chaiExpect(el).to.be.accessible();

    await userEvent.click(actionsOf(el, 'answer', 1).querySelector('[aria-label="Previous version"]')!);
    await until(() => answers(el).at(-1) === 'A2' && position(el, 'answer', 1) === '1 of 2', 'the first version');
    expect(users(el)).toEqual(['Q1', 'Q2']);

    // a new element and store on the same database: the same branches, active path and text
    const again = await reopened(name);
    expect(users(again)).toEqual(['Q1', 'Q2']);
    expect(answers(again)).toEqual(['A1', 'A2']);
    expect(position(again, 'answer', 1)).toBe('1 of 2');
  });

  it('edits and resends a user message by keyboard (IME-safe, Escape cancels), then switches versions by keyboard', async () => {
    const { el, bodies, name } = await setup([text('A1'), text('A2'), text('A2 for the edit'), text('A3')]);
    await ask(el, 'Q1', 'A1');
    await ask(el, 'Q2', 'A2');
    const editButton = (): HTMLElement => actionsOf(el, 'user', 1).querySelector<HTMLElement>('[part="edit-button"]')!;
    editButton().focus();
    await userEvent.keyboard('{Enter}');
    await until(() => el.shadowRoot!.activeElement?.matches('[part="editor-input"]') === true, 'the editor has focus');
    await userEvent.keyboard('{Escape}');
    await until(() => el.shadowRoot!.activeElement === editButton(), 'focus back on the edit button');
    expect(users(el)).toEqual(['Q1', 'Q2']);

    editButton().focus();
    await userEvent.keyboard('{Enter}');
    await until(() => $(el, '[part="editor-input"]') !== null, 'the editor');
    const field = $<HTMLTextAreaElement>(el, '[part="editor-input"]')!;
    field.value = 'Q2 edited';
    // Enter while an input method composes does not send
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, composed: true }));
    await el.updateComplete;
    expect($(el, '[part="editor-input"]')).not.toBeNull();
    field.focus();
    await userEvent.keyboard('{Enter}');
    await until(() => answers(el).at(-1) === 'A2 for the edit' && idle(el), 'the answer to the edit');
    expect(users(el)).toEqual(['Q1', 'Q2 edited']);
    expect(position(el, 'user', 1)).toBe('2 of 2');
    expect((await bodies())[2]).toEqual(['Q1', 'A1', 'Q2 edited']);

    // back to the first version by keyboard: the whole path below it comes back
    actionsOf(el, 'user', 1).querySelector<HTMLElement>('[aria-label="Previous version"]')!.focus();
    await userEvent.keyboard('{Enter}');
    await until(() => users(el).at(-1) === 'Q2' && answers(el).at(-1) === 'A2' && position(el, 'user', 1) === '1 of 2', 'the first version of Q2');
    await until(() => el.shadowRoot!.activeElement?.closest('[part="branch-switcher"]') != null, 'focus on the switcher');
    // the next request is that path only
    await ask(el, 'Q3', 'A3');
    expect((await bodies())[3]).toEqual(['Q1', 'A1', 'Q2', 'A2', 'Q3']);

    const again = await reopened(name);
    expect(users(again)).toEqual(['Q1', 'Q2', 'Q3']);
    expect(position(again, 'user', 1)).toBe('1 of 2');
  });

  it('copies an answer as its Markdown source by mouse and a user message by keyboard, also when the Clipboard API is denied', async () => {
    const { el } = await setup([text('It is **18 °C**.')]);
    await ask(el, 'Weather?', 'It is 18 °C.');
    const copied: unknown[] = [];
    el.addEventListener('pagent-copy', (e) => copied.push(e.detail));
    await userEvent.click(actionsOf(el, 'answer', 0).querySelector('[part="message-copy-button"]')!);
    await until(() => actionsOf(el, 'answer', 0).querySelector('[part="message-copy-button"]')!.textContent!.trim() === 'Copied', 'the feedback');
    expect(copied).toEqual([{ text: 'It is **18 °C**.', role: 'assistant' }]);

    const clipboard = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } });
    let viaFallback = '';
    const onCopy = (e: ClipboardEvent): void => {
      viaFallback = (e.composedPath()[0] as HTMLTextAreaElement).value;
    };
    document.addEventListener('copy', onCopy, true);
    try {
      actionsOf(el, 'user', 0).querySelector<HTMLElement>('[part="message-copy-button"]')!.focus();
      await userEvent.keyboard('{Enter}');
      await until(() => actionsOf(el, 'user', 0).querySelector('[part="message-copy-button"]')!.textContent!.trim() === 'Copied', 'the fallback feedback');
    } finally {
      document.removeEventListener('copy', onCopy, true);
      delete (navigator as { clipboard?: unknown }).clipboard;
      if (clipboard) Object.defineProperty(Navigator.prototype, 'clipboard', clipboard);
    }
    expect(copied.at(-1)).toEqual({ text: 'Weather?', role: 'user' });
    expect(viaFallback).toBe('Weather?');
  });

  it('lets the page veto a regenerate and an edit with preventDefault', async () => {
    const { el, bodies } = await setup([text('A1'), text('A1 again')]);
    await ask(el, 'Q1', 'A1');
    const seen: string[] = [];
    for (const type of ['pagent-regenerate', 'pagent-edit', 'pagent-branch'] as const) {
      el.addEventListener(type, (e) => {
        seen.push(type);
        e.preventDefault();
      });
    }
    await userEvent.click($(el, '[part="regenerate-button"]')!);
    await userEvent.click($(el, '[part="edit-button"]')!);
    $<HTMLTextAreaElement>(el, '[part="editor-input"]')!.value = 'changed';
    await userEvent.click($(el, '[part="editor-send"]')!);
    expect(seen).toEqual(['pagent-regenerate', 'pagent-edit']);
    expect(await bodies()).toHaveLength(1);
    expect(answers(el)).toEqual(['A1']);
  });

  it('lets the page veto a version switch with preventDefault: the shown path, the stored active path and the model stay', async () => {
    const { el, store, bodies } = await setup([text('A1'), text('A1, second try')]);
    await ask(el, 'Q1', 'A1');
    await userEvent.click($(el, '[part="regenerate-button"]')!);
    await until(() => answers(el).at(-1) === 'A1, second try' && position(el, 'answer', 0) === '2 of 2' && idle(el), 'the second version');
    const stored = (await store.load('c'))!.messages.map((m) => m.content);
    expect(stored).toEqual(['Q1', 'A1, second try']);
    const seen: unknown[] = [];
    el.addEventListener('pagent-branch', (e) => {
      seen.push(e.detail);
      e.preventDefault();
    });
    await userEvent.click(actionsOf(el, 'answer', 0).querySelector('[aria-label="Previous version"]')!);
    await new Promise((r) => setTimeout(r, 200));
    await el.updateComplete;
    expect(seen).toHaveLength(1);
    expect(answers(el)).toEqual(['A1, second try']);
    expect(position(el, 'answer', 0)).toBe('2 of 2');
    expect((await store.load('c'))!.messages.map((m) => m.content)).toEqual(stored);
    expect(await bodies()).toHaveLength(2);
  });

  it('offers only Copy for a src source (no branches there)', async () => {
    const el = await chatFixture((c) => (c.src = `${api}/wire/plain`));
    el.push({ method: 'RunBegin', params: { user_input: 'Hi' } });
    el.push({ method: 'TextDelta', params: { text: 'Hello' } });
    el.push({ method: 'RunEnd', params: { content: 'Hello', tool_calls: [], reasoning_content: '', usage: null } });
    // the actions come with their chunk, loaded on the first render
    await until(() => $$(el, '[part="message-copy-button"]').length === 2, 'Copy on both messages');
    expect($$(el, '[part="edit-button"], [part="regenerate-button"], [part="branch-switcher"]')).toHaveLength(0);
  });
});

describe('<pagent-chat> changes from another tab', () => {
  it('shows the version another store instance switched to, and what it appended, when idle; the next request is that path', async () => {
    const { el, bodies, name } = await setup([text('A1'), text('A1, second try'), text('A3')]);
    await ask(el, 'Q1', 'A1');
    await userEvent.click($(el, '[part="regenerate-button"]')!);
    await until(() => answers(el).at(-1) === 'A1, second try' && position(el, 'answer', 0) === '2 of 2' && idle(el), 'the second version');
    // another tab: a second store on the same database
    const other = createSessionStore({ name });
    stores.push(other);
    const tree = (await other.loadTree('c'))!;
    const first = tree.nodes.find((n) => n.message.content === 'A1')!;
    await other.switchBranch('c', first.seq);
    await until(() => answers(el).at(-1) === 'A1' && position(el, 'answer', 0) === '1 of 2' && idle(el), 'the version switched elsewhere');
    expect(users(el)).toEqual(['Q1']);

    await other.append('c', [{ role: 'user', content: 'Q2' }, { role: 'assistant', content: 'A2' }]);
    await until(() => answers(el).at(-1) === 'A2' && idle(el), 'the turn added elsewhere');
    expect(users(el)).toEqual(['Q1', 'Q2']);
    expect(answers(el)).toEqual(['A1', 'A2']);
    // the agent continues what is shown
    await ask(el, 'Q3', 'A3');
    expect((await bodies())[2]).toEqual(['Q1', 'A1', 'Q2', 'A2', 'Q3']);
  });

  it('moves to a new conversation when another tab deletes the one shown, says so, and never writes it back', async () => {
    const { el, bodies, name } = await setup([text('A1'), text('A2')]);
    await ask(el, 'Q1', 'A1');
    await until(() => $$(el, '[part~="session-open"]').length === 1, 'the conversation in the list');
    const other = createSessionStore({ name });
    stores.push(other);
    await other.delete('c');
    await until(() => answers(el).length === 0 && $$(el, '[part~="session-open"]').length === 0, 'a new conversation');
    expect(users(el)).toEqual([]);
    // said in the element's live region (the list's search has one of its own)
    expect($$(el, '.sr-only[role="status"]').map((r) => r.textContent)).toContain('This conversation was deleted in another tab. A new one has started.');
    // the next question starts afresh: the model gets only it, and the deleted conversation stays deleted
    await ask(el, 'Q2', 'A2');
    expect((await bodies())[1]).toEqual(['Q2']);
    expect(await other.load('c')).toBeUndefined();
    // clearing the store elsewhere does the same to the new conversation
    await until(() => $$(el, '[part~="session-open"]').length === 1, 'the new conversation in the list');
    await other.clear();
    await until(() => answers(el).length === 0 && $$(el, '[part~="session-open"]').length === 0, 'a new conversation again');
  });

  it('leaves the timeline alone while a run is going', async () => {
    const slow: ScriptedResponse = { chunks: [chunk({ role: 'assistant', content: 'A1' }), chunk({}, 'stop')], delayMs: 400 };
    const { el, name } = await setup([slow]);
    const other = createSessionStore({ name });
    stores.push(other);
    await other.append('c', [{ role: 'user', content: 'Q0' }, { role: 'assistant', content: 'A0' }]);
    await until(() => answers(el).at(-1) === 'A0', 'the stored turn');
    el.send('Q1');
    // the run has begun: its agent continues the stored conversation and has stored the question
    await expect.poll(async () => (await other.load('c'))!.messages.map((m) => m.content), { timeout: 5_000 }).toEqual(['Q0', 'A0', 'Q1']);
    expect(el.streaming).toBe(true);
    await other.append('c', [{ role: 'user', content: 'Elsewhere' }]);
    await until(() => answers(el).at(-1) === 'A1' && idle(el), 'the answer');
    expect(users(el)).toEqual(['Q0', 'Q1']);
  });
});

describe('<pagent-chat> Retry of a stopped last run (src)', () => {
  const line = (method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n';
  const ndjson = { 'Content-Type': 'application/x-ndjson' };

  it('offers Retry on a stopped answer; it sends the same body once more, shows the new answer, and goes away', async () => {
    const key = crypto.randomUUID();
    const scripts = [
      // the first run streams a little, then hangs until the user stops it
      { headers: ndjson, chunks: [line('RunBegin', { user_input: 'Q' }), line('TextDelta', { text: 'Partial' })], end: 'hang' },
      { headers: ndjson, chunks: [line('RunBegin', { user_input: 'Q' }), line('TextDelta', { text: 'Full answer' }), line('RunEnd', { content: 'Full answer', tool_calls: [], reasoning_content: '', usage: null })] },
    ];
    const url = `${api}/wire/recorded/${key}`;
    const received = async (): Promise<unknown[]> => ((await (await fetch(url)).json()) as string[]).map((b) => JSON.parse(b));
    const el = await chatFixture((c) => (c.src = `${url}?s=${encodeURIComponent(JSON.stringify(scripts))}`));
    const sent: unknown[] = [];
    el.addEventListener('pagent-send', (e) => sent.push(e.detail));
    const notes = { name: 'notes.txt', type: 'text/plain', size: 5, kind: 'text' as const, part: { type: 'text' as const, text: 'notes' } };
    el.send('Q', [notes]);
    await until(() => answers(el).at(-1) === 'Partial', 'the partial answer');
    expect($(el, '[part="resend-button"]')).toBeNull(); // not while the run goes
    await userEvent.click($(el, '[part="stop-button"]')!);
    await until(() => !el.streaming && $(el, '[part="resend-button"]') !== null, 'Retry under the stopped answer');
    const retry = $<HTMLButtonElement>(el, '[part="resend-button"]')!;
    // the stopped answer's action row carries it, reachable by keyboard, named "Retry"
    expect(retry.closest('[part="message-actions"]')).toBe(actionsOf(el, 'answer', 0));
    expect(retry.textContent!.trim()).toBe('Retry');
    await chaiExpect(el).to.be.accessible();
    const first = await received();
    expect(first).toHaveLength(1);

    retry.focus();
    await userEvent.keyboard('{Enter}');
    await until(() => answers(el).at(-1) === 'Full answer' && !el.streaming, 'the new answer');
    const bodies = await received();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
    expect((bodies[0] as { content: unknown }).content).toEqual([{ type: 'text', text: 'Q' }, notes.part]);
    // shown once, in place: one user message, the stopped answer kept, then the new one
    expect(users(el)).toEqual(['Q']);
    expect(answers(el)).toEqual(['Partial', 'Full answer']);
    expect(sent).toEqual([{ text: 'Q', attachments: [notes] }, { text: 'Q', retry: true }]);
    // used once: gone, and no other row offers it
    expect($$(el, '[part="resend-button"]')).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(await received()).toHaveLength(2);
  });

  it('localises Retry (ja, zh-CN) and offers none after a finished run', async () => {
    for (const [lang, label] of [['ja', '再試行'], ['zh-CN', '重试']] as const) {
      const el = await chatFixture((c) => {
        c.setAttribute('lang', lang);
        c.src = `${api}/wire/plain`;
      });
      el.push({ method: 'RunBegin', params: { user_input: 'Q' } });
      await until(() => el.streaming, 'the run to show'); // Stop is pressed on a run that shows
      el.stop();
      await until(() => $(el, '[part="resend-button"]') !== null, `Retry in ${lang}`);
      expect($(el, '[part="resend-button"]')!.textContent!.trim()).toBe(label);
      // stopped before any answer: the user message's row carries it
      expect($(el, '[part="resend-button"]')!.closest('[part="message-actions"]')).toBe(actionsOf(el, 'user', 0));
    }
    const finished = await chatFixture((c) => (c.src = `${api}/wire/plain`));
    finished.push({ method: 'RunBegin', params: { user_input: 'Hi' } });
    finished.push({ method: 'RunEnd', params: { content: 'Hello', tool_calls: [], reasoning_content: '', usage: null } });
    await until(() => $$(finished, '[part="message-copy-button"]').length === 2, 'the actions');
    expect($(finished, '[part="resend-button"]')).toBeNull();
  });

  it('offers no Retry after a stopped run of an agent source (it is not sent again as is)', async () => {
    const { el } = await setup([]);
    el.push({ method: 'RunBegin', params: { user_input: 'Q' } });
    await until(() => el.streaming, 'the run to show');
    el.stop();
    const copy = (): Element | null | undefined => $$(el, '[part~="user"]').at(0)?.nextElementSibling?.querySelector('[part="message-copy-button"]');
    await until(() => !el.streaming && copy() != null, 'the actions');
    expect(users(el)).toEqual(['Q']);
    expect($(el, '[part="resend-button"]')).toBeNull();
  });

  it('keeps events pushed while the stored conversation of the agent loads, and shows it when nothing was', async () => {
    const name = `element-branches-${crypto.randomUUID()}`;
    const seeded = createSessionStore({ name });
    stores.push(seeded);
    await seeded.append('c', [{ role: 'user', content: 'Stored' }, { role: 'assistant', content: 'Stored answer' }]);
    const { llm } = await scripted([]);
    const open = async (gated: boolean): Promise<{ el: PagentChat; release: () => void }> => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const store = createSessionStore({ name });
      stores.push(store);
      // the same store, its loads held until the test lets them go
      const slow = new Proxy(store, {
        get: (target, key) =>
          key === 'load' && gated
            ? async (id: string) => (await gate, target.load(id))
            : (Reflect.get(target, key) as unknown),
      });
      const agent = new Agent({ llm, store: slow, sessionId: 'c' });
      const el = await chatFixture((c) => {
        c.store = slow;
        c.agent = agent;
      });
      return { el, release };
    };
    const pushed = await open(true);
    pushed.el.push({ method: 'RunBegin', params: { user_input: 'Pushed' } });
    pushed.el.push({ method: 'RunEnd', params: { content: 'Pushed answer', tool_calls: [], reasoning_content: '', usage: null } });
    await until(() => answers(pushed.el).at(-1) === 'Pushed answer', 'the pushed run');
    pushed.release();
    await new Promise((r) => setTimeout(r, 200));
    expect(users(pushed.el)).toEqual(['Pushed']);
    expect(answers(pushed.el)).toEqual(['Pushed answer']);
    // with nothing pushed, the stored conversation shows once it has loaded
    const quiet = await open(true);
    quiet.release();
    await until(() => answers(quiet.el).at(-1) === 'Stored answer', 'the stored conversation');
    expect(users(quiet.el)).toEqual(['Stored']);
  });

});

describe('<pagent-chat> message actions: screenshots', () => {
  for (const [theme, width] of [['light', 720], ['dark', 720], ['light', 375]] as const) {
    it(`${theme} at ${width} px: actions, the version switcher and the editor`, async () => {
      const { el } = await setup([text('Paris is **sunny**, 18 °C.'), text('Paris: sunny and 18 °C, light wind.')]);
      el.theme = theme;
      el.style.width = `${width}px`;
      el.style.height = '560px';
      await ask(el, 'What is the weather in Paris?', 'Paris is sunny, 18 °C.');
      await userEvent.click($(el, '[part="regenerate-button"]')!);
      await until(() => position(el, 'answer', 0) === '2 of 2' && idle(el), 'the second version');
      await page.viewport(Math.max(width + 40, 400), 700);
      await page.screenshot({ element: el, path: `${SCREENS}/actions-${theme}-${width}.png` });
      await userEvent.click($(el, '[part="edit-button"]')!);
      await until(() => $(el, '[part="editor-input"]') !== null, 'the editor');
      await page.screenshot({ element: el, path: `${SCREENS}/editor-${theme}-${width}.png` });
    });
  }
});
