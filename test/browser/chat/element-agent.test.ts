import { expect as chaiExpect } from '@open-wc/testing';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentModel, type AgentModelEvent, type AgentModelRequest } from '../../../src/agent/agent.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import { $, $$, answers, chatFixture, toolCards, until } from './helpers.js';

/** A model that answers each request with the next scripted step. */
function scriptedModel(steps: Array<{ text?: string[]; calls?: Array<[string, string, string]> }>): AgentModel {
  let n = 0;
  return {
    async *stream(): AsyncIterable<AgentModelEvent> {
      const step = steps[n++] ?? { text: ['(no more steps)'] };
      for (const text of step.text ?? []) yield { type: 'text', text };
      yield {
        type: 'step',
        step: {
          content: (step.text ?? []).join(''),
          reasoning_content: '',
          tool_calls: (step.calls ?? []).map(([id, name, args]) => ({ id, type: 'function' as const, function: { name, arguments: args } })),
          finish_reason: step.calls ? 'tool_calls' : 'stop',
          usage: null,
        },
      };
    },
  };
}

const unique = (p: string): string => `${p}-${Math.random().toString(36).slice(2)}`;

describe('<pagent-chat> with an in-browser Agent', () => {
  it('asks for approval on the tool card with no approve function from the page, and runs the tool when approved', async () => {
    const ran: string[] = [];
    const remove = tool({
      name: 'remove_file',
      description: 'Deletes a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      needsApproval: true,
      execute: (args: { path: string }) => {
        ran.push(args.path);
        return `removed ${args.path}`;
      },
    });
    const el = await chatFixture();
    el.agent = new Agent({
      llm: scriptedModel([{ calls: [['c1', 'remove_file', '{"path": "a.txt"}']] }, { text: ['Removed ', 'a.txt.'] }]),
      tools: [remove],
    });
    el.send('Delete a.txt');
    await until(() => $(el, '[part="approve-button"]') !== null, 'the approval buttons');
    expect(toolCards(el)).toEqual([['remove_file', 'awaiting-approval']]);
    expect(ran).toEqual([]);
    await chaiExpect(el).to.be.accessible();
    $<HTMLButtonElement>(el, '[part="approve-button"]')!.click();
    await until(() => answers(el).at(-1) === 'Removed a.txt.', 'the final answer');
    expect(ran).toEqual(['a.txt']);
    expect(toolCards(el)).toEqual([['remove_file', 'ok']]);
    expect($(el, '[part="tool-result"]')!.textContent).toBe('removed a.txt');
  });

  it('answers a denied call with a failed result the model sees, and never runs the tool', async () => {
    let ran = 0;
    const risky = tool({ name: 'risky', description: '', parameters: { type: 'object' }, needsApproval: true, execute: () => { ran++; return 'done'; } });
    const llm = scriptedModel([{ calls: [['c1', 'risky', '{}']] }, { text: ['Understood, I will not.'] }]);
    const el = await chatFixture();
    // the page's own approve is replaced by the element's buttons for the runs the element starts
    el.agent = new Agent({ llm, tools: [risky], approve: () => true });
    const results: Array<{ ok?: boolean | undefined; content: string }> = [];
    el.addEventListener('pagent-event', (e) => {
      if (e.detail.event.method === 'ToolResult') results.push(e.detail.event.params as { ok?: boolean; content: string });
    });
    el.send('Do the risky thing');
    await until(() => $(el, '[part="deny-button"]') !== null, 'the approval buttons');
    expect(toolCards(el)).toEqual([['risky', 'awaiting-approval']]);
    $<HTMLButtonElement>(el, '[part="deny-button"]')!.click();
    await until(() => answers(el).at(-1) === 'Understood, I will not.', 'the final answer');
    expect(ran).toBe(0);
    expect(results).toEqual([{ tool_call_id: 'c1', name: 'risky', content: 'risky error: denied by the user', ok: false, elapsed_ms: expect.any(Number) }]);
    expect(toolCards(el)).toEqual([['risky', 'denied']]);
    expect($(el, '[part="approve-button"]')).toBeNull();
    expect($(el, '[part="tool-result"]')!.textContent).toBe('risky error: denied by the user');
  });

  it('denies pending approvals when the run is stopped', async () => {
    const el = await chatFixture();
    const risky = tool({ name: 'risky', description: '', parameters: { type: 'object' }, needsApproval: true, execute: () => 'done' });
    el.agent = new Agent({
      llm: scriptedModel([{ calls: [['c1', 'risky', '{}']] }, { text: ['after'] }]),
      tools: [risky],
    });
    el.send('go');
    await until(() => $(el, '[part="approve-button"]') !== null, 'the approval buttons');
    $<HTMLButtonElement>(el, '[part="stop-button"]')!.click();
    await until(() => !el.streaming, 'the run to stop');
    await el.updateComplete;
    expect($(el, '[part="approve-button"]')).toBeNull();
    expect(toolCards(el)[0]![1]).not.toBe('ok');
  });
});

describe('<pagent-chat> with a session store', () => {
  it('lists stored conversations and reopens, renames and deletes them', async () => {
    const store = createSessionStore({ name: unique('chat-store') });
    await store.append('s1', [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '18' },
      { role: 'assistant', content: 'It is 18 °C.' },
    ]);
    await store.append('s2', [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi!' },
    ]);
    await store.rename('s1', 'Paris weather');
    const el = await chatFixture((c) => (c.store = store));
    await until(() => $$(el, '[part="session"]').length === 2, 'the session list');
    const titles = () => $$(el, '[part="session-title"]').map((b) => b.textContent);
    expect(titles()).toContain('Paris weather');

    $$<HTMLButtonElement>(el, '[part="session-open"]').find((b) => b.querySelector('[part="session-title"]')?.textContent === 'Paris weather')!.click();
    await until(() => answers(el).length === 1, 'the reopened conversation');
    expect($(el, '[part~="user"]')!.textContent!.trim()).toBe('Weather in Paris?');
    expect(answers(el)).toEqual(['It is 18 °C.']);
    expect(toolCards(el)).toEqual([['get_weather', 'ok']]);

    const s2 = () => $$(el, '[part="session"]').find((li) => li.querySelector('[part="session-title"]')?.textContent !== 'Paris weather')!;
    s2().querySelector<HTMLButtonElement>('[part="session-rename"]')!.click();
    await el.updateComplete;
    const input = $<HTMLInputElement>(el, '[part="session-title-input"]')!;
    input.value = 'Greetings';
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await until(() => titles().includes('Greetings'), 'the new title');
    expect((await store.list()).map((x) => x.title).sort()).toEqual(['Greetings', 'Paris weather']);

    $$(el, '[part="session"]').find((li) => li.textContent!.includes('Paris weather'))!.querySelector<HTMLButtonElement>('[part="session-delete"]')!.click();
    await el.updateComplete;
    $<HTMLButtonElement>(el, '[part="session-delete-confirm"]')!.click(); // delete asks first
    await until(() => $$(el, '[part="session"]').length === 1, 'the deletion');
    expect((await store.list()).map((x) => x.id)).toEqual(['s2']);
    expect($$(el, '[part~="message"]')).toEqual([]);
    await store.append('s3', [{ role: 'user', content: 'Saved elsewhere' }]);
    await until(() => $$(el, '[part="session"]').length === 2, 'the list to follow the store');
    await chaiExpect(el).to.be.accessible();
  });
});

/** A model that answers every request with "reply <n>" and records the messages it was sent; `hang` waits for the abort. */
function recordingModel(hang: (n: number) => boolean = () => false): AgentModel & { requests: ChatMessage[][] } {
  const requests: ChatMessage[][] = [];
  return {
    requests,
    async *stream(request: AgentModelRequest): AsyncIterable<AgentModelEvent> {
      const n = requests.push(structuredClone(request.messages));
      const text = `reply ${n}`;
      yield { type: 'text', text };
      if (hang(n)) {
        await new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true }));
      }
      yield { type: 'step', step: { content: text, reasoning_content: '', tool_calls: [], finish_reason: 'stop', usage: null } };
    },
  };
}

describe('<pagent-chat> continuing stored conversations with an Agent', () => {
  const storedA: ChatMessage[] = [
    { role: 'user', content: 'Capital of France?' },
    { role: 'assistant', content: 'Paris.' },
  ];
  const sessionRow = (el: HTMLElement & { shadowRoot: ShadowRoot | null }, title: string) =>
    [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="session"]')].find((li) => li.querySelector('[part="session-title"]')?.textContent === title);
  const current = (el: HTMLElement & { shadowRoot: ShadowRoot | null }) =>
    [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="session"][aria-current="true"]')].map((li) => li.querySelector('[part="session-title"]')?.textContent);

  it('reopening a conversation continues it (its history is sent, the store grows) and New conversation starts without history', async () => {
    const store = createSessionStore({ name: unique('chat-continue') });
    await store.append('A', storedA);
    await store.rename('A', 'France');
    const llm = recordingModel();
    const agent = new Agent({ llm, session: new Session('sys'), store, sessionId: unique('first') });
    const el = await chatFixture((c) => {
      c.store = store;
      c.agent = agent;
    });
    await until(() => sessionRow(el, 'France') !== undefined, 'the stored conversation in the list');
    expect(current(el)).toEqual([]);

    sessionRow(el, 'France')!.querySelector<HTMLButtonElement>('[part="session-open"]')!.click();
    await until(() => answers(el).length === 1, 'the reopened conversation');
    await el.updateComplete;
    expect(current(el)).toEqual(['France']);
    el.send('And of Italy?');
    await until(() => answers(el).at(-1) === 'reply 1', 'the answer');
    expect(llm.requests[0]).toEqual([{ role: 'system', content: 'sys' }, ...storedA, { role: 'user', content: 'And of Italy?' }]);
    expect(agent.sessionId).toBe('A');
    expect((await store.load('A'))!.messages).toEqual([...storedA, { role: 'user', content: 'And of Italy?' }, { role: 'assistant', content: 'reply 1' }]);
    expect(answers(el)).toEqual(['Paris.', 'reply 1']);

    $<HTMLButtonElement>(el, '[part="new-button"]')!.click();
    await el.updateComplete;
    expect($$(el, '[part~="message"]')).toEqual([]);
    expect(current(el)).toEqual([]);
    el.send('Hello');
    await until(() => answers(el).at(-1) === 'reply 2', 'the answer in the new conversation');
    expect(llm.requests[1]).toEqual([{ role: 'system', content: 'sys' }, { role: 'user', content: 'Hello' }]);
    const fresh = agent.sessionId!;
    expect(fresh).not.toBe('A');
    expect((await store.load(fresh))!.messages).toEqual([{ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'reply 2' }]);
    expect((await store.load('A'))!.messages).toHaveLength(4);
    await until(() => $$(el, '[part="session"]').length === 2, 'the new conversation in the list');
    await until(() => current(el).length === 1 && current(el)[0] !== 'France', 'the new conversation highlighted');
    await chaiExpect(el).to.be.accessible();
  });

  it('reopening a conversation while a run streams stops it, lets the agent save, then continues the reopened one', async () => {
    const store = createSessionStore({ name: unique('chat-switch') });
    await store.append('A', storedA);
    await store.rename('A', 'France');
    const llm = recordingModel((n) => n === 1);
    const agent = new Agent({ llm, store, sessionId: 'B' });
    const errors: string[] = [];
    const el = await chatFixture((c) => {
      c.store = store;
      c.agent = agent;
    });
    el.addEventListener('pagent-error', (e) => errors.push(e.detail.error.message));
    await until(() => sessionRow(el, 'France') !== undefined, 'the stored conversation in the list');
    el.send('Tell me a long story');
    await until(() => llm.requests.length === 1 && $(el, '[part~="answer"]') !== null, 'the streaming answer');
    expect(el.streaming).toBe(true);
    sessionRow(el, 'France')!.querySelector<HTMLButtonElement>('[part="session-open"]')!.click();
    await until(() => answers(el).length === 1 && answers(el)[0] === 'Paris.', 'the reopened conversation');
    el.send('And of Italy?');
    await until(() => answers(el).at(-1) === 'reply 2', 'the answer');
    expect(errors).toEqual([]);
    expect(llm.requests[1]).toEqual([...storedA, { role: 'user', content: 'And of Italy?' }]);
    // the stopped run was saved under its own conversation, with its partial answer
    expect((await store.load('B'))!.messages).toEqual([{ role: 'user', content: 'Tell me a long story' }, { role: 'assistant', content: 'reply 1' }]);
  });

  it('sending while an Agent run streams stops it, and the new message runs once the agent has saved the cut turn', async () => {
    const store = createSessionStore({ name: unique('chat-resend') });
    const llm = recordingModel((n) => n === 1);
    const agent = new Agent({ llm, store, sessionId: 'S' });
    const errors: string[] = [];
    const el = await chatFixture((c) => (c.agent = agent));
    el.addEventListener('pagent-error', (e) => errors.push(e.detail.error.message));
    el.send('first');
    await until(() => llm.requests.length === 1 && $(el, '[part~="answer"]') !== null, 'the streaming answer');
    el.send('second');
    await until(() => answers(el).at(-1) === 'reply 2', 'the second answer');
    expect(errors).toEqual([]);
    expect(llm.requests[1]).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'reply 1' },
      { role: 'user', content: 'second' },
    ]);
    expect($$(el, '[part="stopped"]')).toHaveLength(1);
  });

  it('shows the stored conversation an agent continues when it is set with the store', async () => {
    const store = createSessionStore({ name: unique('chat-show') });
    await store.append('A', storedA);
    const el = await chatFixture((c) => {
      c.store = store;
      c.agent = new Agent({ llm: recordingModel(), store, sessionId: 'A' });
    });
    await until(() => answers(el).length === 1, 'the conversation');
    expect(answers(el)).toEqual(['Paris.']);
    await until(() => current(el).length === 1, 'the highlight');
  });
});

describe('<pagent-chat> stopping and deleting Agent runs', () => {
  it('deleting the conversation that is streaming keeps it deleted once the cancelled run has saved', async () => {
    const store = createSessionStore({ name: unique('chat-delete-live') });
    const llm = recordingModel((n) => n === 2);
    const agent = new Agent({ llm, store, sessionId: 'B' });
    const errors: string[] = [];
    const el = await chatFixture((c) => {
      c.store = store;
      c.agent = agent;
    });
    el.addEventListener('pagent-error', (e) => errors.push(e.detail.error.message));
    // the element first opens the (still empty) conversation the agent continues
    await new Promise((r) => setTimeout(r, 50));
    el.send('first');
    await until(() => answers(el).at(-1) === 'reply 1', 'the first answer');
    await until(() => $$(el, '[part="session"]').length === 1, 'the conversation in the list');
    el.send('second');
    await until(() => llm.requests.length === 2 && el.streaming, 'the streaming second run');
    $<HTMLButtonElement>(el, '[part="session-delete"]')!.click();
    await el.updateComplete;
    $<HTMLButtonElement>(el, '[part="session-delete-confirm"]')!.click(); // delete asks first
    await until(() => $$(el, '[part="session"]').length === 0, 'the deletion');
    await new Promise((r) => setTimeout(r, 200));
    expect((await store.list()).map((s) => s.id)).not.toContain('B');
    expect(await store.load('B')).toBeUndefined();
    expect(agent.sessionId).not.toBe('B');
    expect(errors).toEqual([]);
    el.send('third');
    await until(() => answers(el).at(-1) === 'reply 3', 'an answer in the new conversation');
    expect(llm.requests[2]).toEqual([{ role: 'user', content: 'third' }]);
  });

  it("Stop during a tool call keeps the Agent's own cancelled RunEnd with the step's content and tool calls", async () => {
    let release!: () => void;
    const slow = tool({
      name: 'slow',
      description: '',
      parameters: { type: 'object' },
      execute: (_args: unknown, ctx?: { signal?: AbortSignal }) =>
        new Promise<string>((resolve, reject) => {
          release = () => resolve('late');
          ctx?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        }),
    });
    const el = await chatFixture((c) => {
      c.stopGraceMs = 2000;
      c.agent = new Agent({ llm: scriptedModel([{ text: ['Checking.'], calls: [['c1', 'slow', '{}']] }]), tools: [slow] });
    });
    const ends: Array<Record<string, unknown>> = [];
    el.addEventListener('pagent-run-end', (e) => ends.push(e.detail.params as unknown as Record<string, unknown>));
    el.send('Go');
    await until(() => toolCards(el).length === 1 && release !== undefined, 'the running tool');
    el.stop();
    await until(() => ends.length === 1, 'the run end');
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({
      stop_reason: 'cancelled',
      content: 'Checking.',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'slow', arguments: '{}' } }],
    });
    expect(el.streaming).toBe(false);
    expect($$(el, '[part="stopped"]')).toHaveLength(1);
  });
});
