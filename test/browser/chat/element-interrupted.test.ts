// An answer a reload cut, reopened in the element: shown as it was saved and marked interrupted, with
// Continue (localised), which finishes it through the agent; calls that waited for approval wait again;
// a new message, Regenerate and Edit still work.
import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { RemoteAgent } from '../../../src/agent/remote/remote-agent.js';
import { Agent, type AgentModel, type AgentModelRequest } from '../../../src/agent/agent.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { expectValidHistory } from '../../helpers/history.js';
import { $, $$, answers, chatFixture, toolCards, until } from './helpers.js';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

/** A model answering each request with the next text, recording the requests. */
function model(replies: string[]): AgentModel & { requests: ChatMessage[][] } {
  const requests: ChatMessage[][] = [];
  return {
    requests,
    async *stream(request: AgentModelRequest) {
      requests.push(structuredClone(request.messages));
      const text = replies[requests.length - 1] ?? 'no more';
      for (const word of text.split(/(?<= )/)) {
        await new Promise((r) => setTimeout(r, 1));
        yield { type: 'text', text: word };
      }
      yield { type: 'step', step: { content: text, reasoning_content: '', tool_calls: [], finish_reason: 'stop', usage: null } };
    },
  };
}

/** A stored conversation whose last turn a reload cut: `messages` stored, `pieces` in flight. */
async function interrupted(messages: ChatMessage[], pieces: Parameters<SessionStore['savePieces']>[1]): Promise<SessionStore> {
  const store = createSessionStore({ name: `interrupted-${crypto.randomUUID()}` });
  stores.push(store);
  await store.append('c', messages);
  await store.savePieces('c', pieces, 0);
  return store;
}

async function open(store: SessionStore, agent: Agent, lang?: string): Promise<PagentChat> {
  const el = await chatFixture((c) => {
    if (lang) c.setAttribute('lang', lang);
    c.store = store;
    c.agent = agent;
  });
  await until(() => $(el, '[part="interrupted"]') !== null, 'the interrupted mark');
  return el;
}

describe('<pagent-chat> reopens an answer a reload cut', () => {
  it('shows the partial answer marked interrupted; Continue finishes it and the store keeps the whole answer', async () => {
    const store = await interrupted([{ role: 'user', content: 'Tell me a story' }], [{ type: 'reasoning', text: 'A short one.' }, { type: 'text', text: 'Once upon a time ' }]);
    const llm = model(['there was a fox.']);
    const el = await open(store, new Agent({ llm, store, sessionId: 'c' }));
    expect(answers(el)).toEqual(['Once upon a time']);
    expect($(el, '[part="interrupted"] .stopped')!.textContent).toBe('Interrupted: the page closed before this answer finished.');
    const button = $<HTMLButtonElement>(el, '[part="continue-button"]')!;
    expect(button.textContent!.trim()).toBe('Continue');
    expect(button.getAttribute('aria-label')).toBe('Continue the interrupted answer');
    await chaiExpect(el).to.be.accessible();

    const sends: unknown[] = [];
    el.addEventListener('pagent-send', (e) => sends.push(e.detail));
    button.click();
    await until(() => answers(el).at(-1) === 'Once upon a time there was a fox.' && !el.streaming, 'the continued answer');
    expect(sends).toEqual([{ text: '', continue: true }]);
    expect($(el, '[part="interrupted"]')).toBeNull();
    // the request ended with the partial answer, for the model to continue
    expect(llm.requests[0]!.at(-1)).toEqual({ role: 'assistant', content: 'Once upon a time ', reasoning_content: 'A short one.' });
    await expect.poll(async () => (await store.load('c'))!.messages.map((m) => m.content)).toEqual(['Tell me a story', 'Once upon a time there was a fox.']);
    expect(await store.loadTurn('c')).toBeUndefined();
  });

  it('speaks the reader’s language: zh-CN and ja', async () => {
    for (const [lang, mark, label] of [
      ['zh-CN', '已中断：这个回答完成之前页面关闭了。', '继续'],
      ['ja', '中断：この回答が終わる前にページが閉じられました。', '続ける'],
    ] as const) {
      const store = await interrupted([{ role: 'user', content: 'q' }], [{ type: 'text', text: 'partial' }]);
      const el = await open(store, new Agent({ llm: model([]), store, sessionId: 'c' }), lang);
      expect($(el, '[part="interrupted"] .stopped')!.textContent).toBe(mark);
      expect($(el, '[part="continue-button"]')!.textContent!.trim()).toBe(label);
    }
  });

  it('a call that waited for approval waits again; approving it runs the tool and the turn goes on', async () => {
    let ran = 0;
    const remind = tool({ name: 'remind', description: 'Sets a reminder', parameters: { type: 'object' }, needsApproval: true, execute: () => ((ran += 1), 'reminder set') });
    const call = { id: 'r1', type: 'function' as const, function: { name: 'remind', arguments: '{"at":"9:00"}' } };
    const store = await interrupted([{ role: 'user', content: 'Remind me at nine' }], [{ type: 'call', call }, { type: 'approval', id: 'r1' }]);
    const llm = model(['Done: 9:00.']);
    const el = await open(store, new Agent({ llm, tools: [remind], store, sessionId: 'c' }));
    expect(toolCards(el)).toEqual([['remind', 'awaiting-approval']]);
    $<HTMLButtonElement>(el, '[part="approve-button"]')!.click();
    await until(() => answers(el).at(-1) === 'Done: 9:00.' && !el.streaming, 'the answer after the approval');
    expect(ran).toBe(1);
    expect(toolCards(el)).toEqual([['remind', 'ok']]);
    expectValidHistory(llm.requests[0]!);
    await expect.poll(async () => (await store.load('c'))!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a question the page went away from before any of its answer was saved shows interrupted too; Continue asks for the answer', async () => {
    // the user's message is stored once the run has gone on one window; the first piece of the answer had not been written
    const store = await interrupted([{ role: 'user', content: 'Tell me a story' }], []);
    const llm = model(['Once upon a time.']);
    const el = await open(store, new Agent({ llm, store, sessionId: 'c' }));
    expect(answers(el).filter((a) => a !== '')).toEqual([]);
    $<HTMLButtonElement>(el, '[part="continue-button"]')!.click();
    await until(() => answers(el).at(-1) === 'Once upon a time.' && !el.streaming, 'the answer');
    expect($(el, '[part="interrupted"]')).toBeNull();
    // the request is the stored question, asked once
    expect(llm.requests).toEqual([[{ role: 'user', content: 'Tell me a story' }]]);
    await expect.poll(async () => (await store.load('c'))!.messages).toEqual([
      { role: 'user', content: 'Tell me a story' },
      { role: 'assistant', content: 'Once upon a time.' },
    ]);
  });

  it('a tool round whose answer had not begun when the page went shows interrupted; Continue asks for the answer with the results', async () => {
    const call = { id: 'x1', type: 'function' as const, function: { name: 'lookup', arguments: '{}' } };
    const store = await interrupted([{ role: 'user', content: 'Look it up' }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'x1', content: 'found' }], []);
    const llm = model(['It was found.']);
    const el = await open(store, new Agent({ llm, store, sessionId: 'c' }));
    expect(toolCards(el)).toHaveLength(1);
    $<HTMLButtonElement>(el, '[part="continue-button"]')!.click();
    await until(() => answers(el).at(-1) === 'It was found.' && !el.streaming, 'the answer');
    expect(llm.requests).toHaveLength(1);
    expectValidHistory(llm.requests[0]!);
    expect(llm.requests[0]!.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    await expect.poll(async () => (await store.load('c'))!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a new message instead of Continue keeps the partial answer before it, and the request is valid', async () => {
    const call = { id: 'x1', type: 'function' as const, function: { name: 'lookup', arguments: '{}' } };
    const store = await interrupted([{ role: 'user', content: 'Look it up' }], [{ type: 'text', text: 'Looking. ' }, { type: 'call', call }]);
    const llm = model(['Fine, without it.']);
    const el = await open(store, new Agent({ llm, store, sessionId: 'c' }));
    el.send('Never mind');
    await until(() => answers(el).at(-1) === 'Fine, without it.' && !el.streaming, 'the next answer');
    expect($(el, '[part="continue-button"]')).toBeNull();
    expectValidHistory(llm.requests[0]!);
    expect(llm.requests[0]!.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(llm.requests[0]![2]).toEqual({ role: 'tool', tool_call_id: 'x1', content: 'error: interrupted before the tool finished' });
  });

  it('Regenerate on the interrupted answer answers the question again; Edit sends a new version of it', async () => {
    const store = await interrupted([{ role: 'user', content: 'First question' }], [{ type: 'text', text: 'A half' }]);
    const llm = model(['A whole answer.', 'An answer to the edit.']);
    const el = await open(store, new Agent({ llm, store, sessionId: 'c' }));
    const regenerate = (): HTMLButtonElement | null => $$(el, '[part~="answer"]').at(-1)?.nextElementSibling?.querySelector('[part="regenerate-button"]') ?? null;
    await until(() => regenerate() !== null, 'Regenerate on the interrupted answer');
    regenerate()!.click();
    await until(() => answers(el).at(-1) === 'A whole answer.' && !el.streaming, 'the regenerated answer');
    expect(llm.requests[0]).toEqual([{ role: 'user', content: 'First question' }]);
    await expect.poll(async () => (await store.load('c'))!.messages.map((m) => m.content)).toEqual(['First question', 'A whole answer.']);

    const edit = (): HTMLButtonElement | null => $$(el, '[part~="user"]').at(0)?.nextElementSibling?.querySelector('[part="edit-button"]') ?? null;
    await until(() => edit() !== null, 'Edit');
    edit()!.click();
    await until(() => $(el, '[part="editor-input"]') !== null, 'the editor');
    const input = $<HTMLTextAreaElement>(el, '[part="editor-input"]')!;
    input.value = 'Edited question';
    $<HTMLButtonElement>(el, '[part="editor-send"]')!.click();
    await until(() => answers(el).at(-1) === 'An answer to the edit.' && !el.streaming, 'the answer to the edit');
    expect(llm.requests[1]).toEqual([{ role: 'user', content: 'Edited question' }]);
  });
});

describe('<pagent-chat> reopens a RemoteAgent conversation whose AI SDK run was in flight', () => {
  const url = `${inject('apiUrl')}/remote/ai-sdk`;
  const story = Array.from({ length: 40 }, (_, i) => `part${i}`).join(' ');

  /** Starts the long story with a RemoteAgent whose page then goes (its connection is cut, its run never read again). */
  async function cutRun(name: string, sessionId: string): Promise<void> {
    const kill = new AbortController();
    const agent = new RemoteAgent({ url, protocol: 'ai-sdk', sessionId, store: createSessionStore({ name, inFlightSaveMs: 20 }), fetch: (input, init) => fetch(input, { ...init, signal: kill.signal }) });
    const events = agent.events('Tell me a long story')[Symbol.asyncIterator]();
    let text = '';
    while (!text.includes('part5 ')) {
      const next = await events.next();
      if (next.value?.method === 'TextDelta') text += next.value.params.text;
    }
    const store = createSessionStore({ name });
    stores.push(store);
    await expect.poll(async () => (await store.loadTurn(sessionId))?.content ?? '', { timeout: 5_000 }).toMatch(/^part0 /);
    kill.abort();
  }

  it('resumes the stream the back end kept: the rest of the answer shows, and the store keeps it whole', async () => {
    const name = `remote-reopen-${crypto.randomUUID()}`;
    const sessionId = crypto.randomUUID();
    await cutRun(name, sessionId);
    const store = createSessionStore({ name });
    stores.push(store);
    const el = await chatFixture((c) => {
      c.store = store;
      c.agent = new RemoteAgent({ url, protocol: 'ai-sdk', sessionId, store });
    });
    await until(() => answers(el).at(-1) === story && !el.streaming, 'the resumed answer');
    expect($(el, '[part="interrupted"]')).toBeNull();
    await expect.poll(async () => (await store.load(sessionId))!.messages.map((m) => m.content)).toEqual(['Tell me a long story', `${story} `]);
  });

  it('with nothing left to resume (the stream ended), shows the saved part interrupted, and Continue asks the back end again', async () => {
    const name = `remote-reopen-${crypto.randomUUID()}`;
    const sessionId = crypto.randomUUID();
    await cutRun(name, sessionId);
    // the route finishes its generation; then its resume endpoint answers 204
    await expect.poll(async () => (await fetch(`${url}/${sessionId}/stream`, { method: 'GET' }).then(async (r) => (await r.body?.cancel(), r.status))), { timeout: 10_000 }).toBe(204);
    const store = createSessionStore({ name });
    stores.push(store);
    const el = await chatFixture((c) => {
      c.store = store;
      c.agent = new RemoteAgent({ url, protocol: 'ai-sdk', sessionId, store });
    });
    await until(() => $(el, '[part="continue-button"]') !== null, 'Continue');
    expect(answers(el).at(-1)).toMatch(/^part0 part1 /);
    $<HTMLButtonElement>(el, '[part="continue-button"]')!.click();
    const partial = answers(el).at(-1)!;
    await until(() => !el.streaming && answers(el).at(-1) === story, 'the continued answer');
    // the run shows the saved part first, then what the back end sent
    expect(answers(el).slice(-2)).toEqual([partial, story]);
    const log = (await (await fetch(`${inject('apiUrl')}/remote/log/ai-sdk?id=${sessionId}`)).json()) as Array<{ valid: boolean; body: { messages: Array<{ role: string }> } }>;
    expect(log.map((l) => l.valid)).toEqual([true, true]);
    // the second request carried the saved part as the conversation's last message
    expect(log[1]!.body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
