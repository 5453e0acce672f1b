// <pagent-chat> holding a conversation with a RemoteAgent (`chat.agent = new RemoteAgent(...)`), through its
// own buttons, against the real back ends of test/server: an AI SDK route (remote-ai-sdk.ts:
// validateUIMessages, convertToModelMessages, streamText over ai/test's mock model) and an AG-UI agent
// (remote-ag-ui.ts: RunAgentInputSchema, @ag-ui/encoder). Every request these tests make passes the back
// end's own validation (counted in afterAll).
import { expect as chaiExpect } from '@open-wc/testing';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { RemoteAgent, type RemoteAgentOptions } from '../../../src/agent/remote/remote-agent.js';
import { tool } from '../../../src/agent/tools/tools.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { $, $$, answers, chatFixture, toolCards, until } from './helpers.js';

const api = inject('apiUrl');
type Backend = 'ai-sdk' | 'ag-ui';
interface Logged {
  body: Record<string, unknown>;
  valid: boolean;
  error?: string;
}
const logOf = async (backend: Backend, id: string): Promise<Logged[]> =>
  (await (await fetch(`${api}/remote/log/${backend}?id=${encodeURIComponent(id)}`)).json()) as Logged[];

/** The conversations these tests held, per back end: their requests are checked in afterAll. */
const conversations = { 'ai-sdk': new Set<string>(), 'ag-ui': new Set<string>() };

function remote(protocol: Backend, options: Partial<RemoteAgentOptions> = {}): RemoteAgent {
  const agent = new RemoteAgent({ url: `${api}/remote/${protocol}`, protocol, ...options });
  conversations[protocol].add(agent.sessionId);
  return agent;
}

async function remoteChat(protocol: Backend, options: Partial<RemoteAgentOptions> = {}): Promise<{ el: PagentChat; agent: RemoteAgent }> {
  const agent = remote(protocol, options);
  const el = await chatFixture((c) => (c.agent = agent));
  return { el, agent };
}

afterAll(async () => {
  const counted: Record<Backend, number> = { 'ai-sdk': 0, 'ag-ui': 0 };
  for (const backend of ['ai-sdk', 'ag-ui'] as const) {
    for (const id of conversations[backend]) {
      const log = await logOf(backend, id);
      counted[backend] += log.length;
      expect(log.filter((l) => !l.valid).map((l) => l.error)).toEqual([]);
    }
  }
  // exactly the requests the tests above make: none lost, none sent twice
  expect(counted).toEqual({ 'ai-sdk': 25, 'ag-ui': 54 });
});

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

/** The echo of either back end's script for a message it has no other answer for. */
function echo(protocol: Backend, text: string, earlier: string[], answered: number): string {
  const tail = protocol === 'ai-sdk' ? 'files: none' : 'tool results: 0';
  return `Heard "${text}". Earlier: ${earlier.join(' | ') || 'nothing'}; answers: ${answered}; ${tail}.`;
}

/** [role, text] of each message of a request, in either protocol's format. */
function history(protocol: Backend, body: Record<string, unknown>): Array<[string, string]> {
  const messages = body['messages'] as Array<{ role: string; content?: unknown; parts?: Array<{ type: string; text?: string }> }>;
  return messages.map((m) => [
    m.role,
    protocol === 'ai-sdk' ? (m.parts ?? []).filter((p) => p.type === 'text').map((p) => p.text).join('') : typeof m.content === 'string' ? m.content : '',
  ]);
}

const users = (el: PagentChat): string[] => $$(el, '[part~="user"] [part="message-text"]').map((n) => n.textContent ?? '');
/** The last answer offers Regenerate: its run has ended and its place in the store is known. */
const idle = (el: PagentChat): boolean => $$(el, '[part~="answer"]').at(-1)?.nextElementSibling?.querySelector('[part="regenerate-button"]') != null;
const lastAnswerIs = (el: PagentChat, text: string): boolean => answers(el).at(-1) === text && !el.streaming;

async function say(el: PagentChat, text: string, answer: string): Promise<void> {
  el.send(text);
  await until(() => lastAnswerIs(el, answer), `the answer "${answer}"`);
}

const location = tool({ name: 'get_location', description: "The user's location", parameters: { type: 'object', properties: {} }, execute: () => 'Lyon' });

for (const protocol of ['ai-sdk', 'ag-ui'] as const) {
  describe(`<pagent-chat> with a RemoteAgent over ${protocol === 'ai-sdk' ? 'an AI SDK route' : 'an AG-UI agent'}`, () => {
    it('holds a multi-turn conversation: the second answer shows the back end saw the first turn', async () => {
      const { el, agent } = await remoteChat(protocol);
      await say(el, 'My name is Ada.', echo(protocol, 'My name is Ada.', [], 0));
      await say(el, 'What is my name?', echo(protocol, 'What is my name?', ['My name is Ada.'], 1));
      expect(users(el)).toEqual(['My name is Ada.', 'What is my name?']);
      const log = await logOf(protocol, agent.sessionId);
      expect(log).toHaveLength(2);
      expect(history(protocol, log[1]!.body)).toEqual([
        ['user', 'My name is Ada.'],
        ['assistant', echo(protocol, 'My name is Ada.', [], 0)],
        ['user', 'What is my name?'],
      ]);
      await chaiExpect(el).to.be.accessible();
    });

    it("shows the back end's own tool call as a card with its result, then the answer", async () => {
      const { el } = await remoteChat(protocol);
      await say(el, 'What is the weather in Paris?', 'It is 18 °C in Paris.');
      expect(toolCards(el)).toEqual([['get_weather', 'ok']]);
      expect(JSON.parse($(el, '[part="tool-result"]')!.textContent!)).toEqual({ city: 'Paris', celsius: 18 });
      expect(answers(el)).toEqual(['Checking.', 'It is 18 °C in Paris.']);
    });

    it('runs a tool of the page once, shows its card, and the back end answers with its result', async () => {
      let runs = 0;
      const { el, agent } = await remoteChat(protocol, { tools: [tool({ ...location, execute: () => (runs++, 'Lyon') })] });
      await say(el, 'Where am I?', 'You are in Lyon.');
      expect(runs).toBe(1);
      expect(toolCards(el)).toEqual([['get_location', 'ok']]);
      expect($(el, '[part="tool-result"]')!.textContent).toBe('Lyon');
      expect(await logOf(protocol, agent.sessionId)).toHaveLength(2);
    });

    it("approves and denies the back end's approval requests with the tool card's buttons", async () => {
      const { el } = await remoteChat(protocol);
      el.send('Please delete notes.txt');
      await until(() => $(el, '[part="approve-button"]') !== null, 'the approval buttons');
      expect(toolCards(el)).toEqual([['delete_file', 'awaiting-approval']]);
      await chaiExpect(el).to.be.accessible();
      await userEvent.click($(el, '[part="approve-button"]')!);
      await until(() => lastAnswerIs(el, protocol === 'ai-sdk' ? 'delete_file: deleted notes.txt.' : 'Deleted notes.txt.'), 'the answer after approval');
      expect(toolCards(el)).toEqual([['delete_file', 'ok']]);

      el.send('Please delete secrets.txt');
      await until(() => $(el, '[part="deny-button"]') !== null, 'the approval buttons');
      await userEvent.click($(el, '[part="deny-button"]')!);
      await until(() => lastAnswerIs(el, protocol === 'ai-sdk' ? 'delete_file was denied.' : 'Not deleted.'), 'the answer after the denial');
      expect(toolCards(el)).toEqual([
        ['delete_file', 'ok'],
        ['delete_file', 'denied'],
      ]);
    });

    it('Stop mid-answer keeps the partial answer, and the next request carries it', async () => {
      const { el, agent } = await remoteChat(protocol);
      el.send('Tell me something slow');
      await until(() => (answers(el).at(-1) ?? '').startsWith('Slow '), 'the first words');
      await userEvent.click($(el, '[part="stop-button"]')!);
      await until(() => !el.streaming && $(el, '[part="stopped"]') !== null, 'the stopped mark');
      const partial = answers(el).at(-1)!;
      expect(partial.startsWith('Slow ') && partial !== 'Slow answer that takes a good long while to come to its end.').toBe(true);
      await say(el, 'Go on', echo(protocol, 'Go on', ['Tell me something slow'], 1));
      const log = await logOf(protocol, agent.sessionId);
      const sent = history(protocol, log.at(-1)!.body);
      expect(sent.map(([role]) => role)).toEqual(['user', 'assistant', 'user']);
      // the answer as shown (its rendering drops the trailing space of the last delta)
      expect(sent[1]![1].trimEnd()).toBe(partial);
    });

    it("regenerates and edits through the element's buttons: the back end gets the history shown", async () => {
      const name = `element-remote-${crypto.randomUUID()}`;
      const store = createSessionStore({ name });
      stores.push(store);
      const agent = remote(protocol, { store, sessionId: `regen-${crypto.randomUUID()}` });
      const el = await chatFixture((c) => {
        c.store = store;
        c.agent = agent;
      });
      const a1 = echo(protocol, 'Q1', [], 0);
      const a2 = echo(protocol, 'Q2', ['Q1'], 1);
      await say(el, 'Q1', a1);
      await say(el, 'Q2', a2);
      await until(() => idle(el), 'the message actions');
      await userEvent.click($$(el, '[part="regenerate-button"]').at(-1)!);
      await until(() => idle(el) && $$(el, '[part="branch-position"]').at(-1)?.textContent === '2 of 2', 'the regenerated answer');
      let log = await logOf(protocol, agent.sessionId);
      expect(history(protocol, log.at(-1)!.body)).toEqual([
        ['user', 'Q1'],
        ['assistant', a1],
        ['user', 'Q2'],
      ]);
      if (protocol === 'ai-sdk') expect(log.at(-1)!.body['trigger']).toBe('regenerate-message');
      expect(answers(el)).toEqual([a1, a2]);

      const userActions = $$(el, '[part~="user"]').at(-1)!.nextElementSibling as HTMLElement;
      await userEvent.click(userActions.querySelector('[part="edit-button"]')!);
      await until(() => $(el, '[part="editor-input"]') !== null, 'the editor');
      await userEvent.fill($(el, '[part="editor-input"]')!, 'Q2 edited');
      await userEvent.click($(el, '[part="editor-send"]')!);
      const edited = echo(protocol, 'Q2 edited', ['Q1'], 1);
      await until(() => lastAnswerIs(el, edited) && idle(el), 'the answer to the edit');
      expect(users(el)).toEqual(['Q1', 'Q2 edited']);
      log = await logOf(protocol, agent.sessionId);
      expect(history(protocol, log.at(-1)!.body)).toEqual([
        ['user', 'Q1'],
        ['assistant', a1],
        ['user', 'Q2 edited'],
      ]);
      if (protocol === 'ai-sdk') expect(log.at(-1)!.body['trigger']).toBe('submit-message');
    });

    it('a stored conversation reopened in a new element continues with its history', async () => {
      const name = `element-remote-${crypto.randomUUID()}`;
      const sessionId = `stored-${crypto.randomUUID()}`;
      const store = createSessionStore({ name });
      stores.push(store);
      const first = await chatFixture((c) => {
        c.store = store;
        c.agent = remote(protocol, { store, sessionId });
      });
      const a1 = echo(protocol, 'Remember Lyon', [], 0);
      await say(first, 'Remember Lyon', a1);
      await (first.agent as RemoteAgent).whenSaved();
      first.remove();

      const again = createSessionStore({ name });
      stores.push(again);
      const el = await chatFixture((c) => {
        c.store = again;
        c.agent = remote(protocol, { store: again, sessionId });
      });
      await until(() => answers(el).length === 1, 'the stored conversation');
      expect(users(el)).toEqual(['Remember Lyon']);
      expect(answers(el)).toEqual([a1]);
      await say(el, 'Where?', echo(protocol, 'Where?', ['Remember Lyon'], 1));
      const log = await logOf(protocol, sessionId);
      expect(history(protocol, log.at(-1)!.body)).toEqual([
        ['user', 'Remember Lyon'],
        ['assistant', a1],
        ['user', 'Where?'],
      ]);
    });
  });
}

describe('<pagent-chat> with a RemoteAgent: failures', () => {
  it("a 400 shows an error card with the back end's message; Retry sends the message again once the cause is gone", async () => {
    const { el, agent } = await remoteChat('ai-sdk');
    el.send('Hello [reject once]');
    await until(() => $(el, '[part~="error"]') !== null && !el.streaming, 'the error card');
    expect($(el, '[part="error-details"]')!.textContent).toContain('The back end is busy: send it again');
    expect($(el, '[part="error-details"]')!.textContent).toContain('400');
    expect(users(el)).toEqual(['Hello [reject once]']);
    await userEvent.click($(el, '[part="retry-button"]')!);
    await until(() => lastAnswerIs(el, echo('ai-sdk', 'Hello [reject once]', [], 0)), 'the answer to the retry');
    expect(users(el)).toEqual(['Hello [reject once]']);
    expect($(el, '[part="retry-button"]')).toBeNull();
    const log = await logOf('ai-sdk', agent.sessionId);
    expect(log).toHaveLength(2);
    expect(history('ai-sdk', log[1]!.body)).toEqual([['user', 'Hello [reject once]']]);
  });
});

describe("<pagent-chat> with a RemoteAgent: an AG-UI agent's questions and state", () => {
  const question = (el: PagentChat): HTMLElement | null => $(el, '[part~="question"]');
  const field = <T extends HTMLElement>(el: PagentChat, label: string): T =>
    $$(el, '[part="question-form"] label').find((l) => l.querySelector('.question-label')?.textContent?.replace(' *', '').trim() === label)!.querySelector<T>('input, select, textarea')!;
  const resumeOf = async (id: string): Promise<unknown> => (await logOf('ag-ui', id)).at(-1)!.body['resume'];

  it('a confirmation shows as a confirmation card with its message and Approve / Deny', async () => {
    const { el } = await remoteChat('ag-ui');
    el.send('Please confirm');
    await until(() => $(el, '[part="approve-button"]') !== null, 'the approval buttons');
    expect(toolCards(el)).toEqual([['confirmation', 'awaiting-approval']]);
    expect($(el, '[part~="tool-call"]')!.textContent).toContain('Proceed?');
    await userEvent.click($(el, '[part="approve-button"]')!);
    await until(() => lastAnswerIs(el, 'Confirmed.'), 'the answer');
    expect(toolCards(el)).toEqual([['confirmation', 'ok']]);
    el.send('Please confirm');
    await until(() => $(el, '[part="deny-button"]') !== null, 'the approval buttons');
    await userEvent.click($(el, '[part="deny-button"]')!);
    await until(() => lastAnswerIs(el, 'Not confirmed.'), 'the answer');
  });

  it('an input_required question shows a form from its schema; it is filled and submitted by keyboard, with typed values', async () => {
    const { el, agent } = await remoteChat('ag-ui');
    el.send('Please ask me');
    await until(() => question(el)?.dataset['status'] === 'asked' && el.shadowRoot!.activeElement?.tagName === 'INPUT', 'the form, focused');
    expect($(el, '[part="question-message"]')!.textContent).toBe('Who are you?');
    const labels = $$(el, '[part="question-form"] .question-label').map((l) => l.textContent);
    expect(labels).toEqual(['Name *', 'Age', 'Colour', 'Subscribe']);
    const name = field<HTMLInputElement>(el, 'Name');
    expect(el.shadowRoot!.activeElement).toBe(name);
    expect([name.type, name.required]).toEqual(['text', true]);
    expect(field<HTMLInputElement>(el, 'Age').type).toBe('number');
    expect([...field<HTMLSelectElement>(el, 'Colour').options].map((o) => o.textContent)).toEqual(['', 'red', 'green', 'blue']);
    expect(field<HTMLInputElement>(el, 'Subscribe').type).toBe('checkbox');
    await chaiExpect(el).to.be.accessible();

    // the name is required: the form is not sent without it
    await userEvent.click($(el, '[part="question-submit"]')!);
    expect(question(el)!.dataset['status']).toBe('asked');
    expect(await logOf('ag-ui', agent.sessionId)).toHaveLength(1);

    await userEvent.fill(field(el, 'Age'), '36');
    await userEvent.selectOptions(field(el, 'Colour'), 'blue');
    await userEvent.click(field(el, 'Subscribe'));
    field<HTMLInputElement>(el, 'Name').focus();
    await userEvent.keyboard('Ada{Enter}');
    await until(() => lastAnswerIs(el, 'Thanks, Ada (36, blue, subscribed: true).'), 'the answer');
    expect(await resumeOf(agent.sessionId)).toEqual([{ interruptId: expect.any(String), status: 'resolved', payload: { name: 'Ada', age: 36, color: 'blue', subscribe: true } }]);
    expect(question(el)!.dataset['status']).toBe('answered');
    expect($(el, '[part="question-form"]')).toBeNull();
    expect($$(el, '[part="question-answer"] div').map((row) => `${row.querySelector('dt')!.textContent} ${row.querySelector('dd')!.textContent}`)).toEqual([
      'Name Ada',
      'Age 36',
      'Colour blue',
      'Subscribe Yes',
    ]);
    // focus went from the removed form to the message box
    expect(el.shadowRoot!.activeElement).toBe($(el, 'textarea'));
  });

  it('Dismiss answers the question with nothing: the agent hears it was cancelled', async () => {
    const { el, agent } = await remoteChat('ag-ui');
    el.send('Please ask me');
    await until(() => question(el)?.dataset['status'] === 'asked', 'the form');
    await userEvent.click($(el, '[part="question-dismiss"]')!);
    await until(() => lastAnswerIs(el, 'Cancelled.'), 'the answer');
    expect(question(el)!.dataset['status']).toBe('dismissed');
    expect($(el, '[part="question-status"]')!.textContent).toBe('Dismissed');
    expect(await resumeOf(agent.sessionId)).toEqual([{ interruptId: expect.any(String), status: 'cancelled' }]);
  });

  it('Stop, or a new message, while a question is asked leaves it unanswered, and the conversation goes on', async () => {
    const { el, agent } = await remoteChat('ag-ui');
    el.send('Please ask me');
    await until(() => question(el)?.dataset['status'] === 'asked', 'the form');
    await userEvent.click($(el, '[part="stop-button"]')!);
    await until(() => !el.streaming && question(el)?.dataset['status'] === 'cancelled', 'the question cut');
    expect($(el, '[part="question-form"]')).toBeNull();
    expect($(el, '[part="question-status"]')!.textContent).toBe('Not answered');
    await say(el, 'Hello', 'Cancelled.');
    expect(await resumeOf(agent.sessionId)).toEqual([{ interruptId: expect.any(String), status: 'cancelled' }]);

    el.send('Please ask me');
    await until(() => $$(el, '[part~="question"]').at(-1)?.dataset['status'] === 'asked', 'the second form');
    el.send('Never mind');
    await until(() => lastAnswerIs(el, 'Cancelled.') && $$(el, '[part~="question"]').at(-1)?.dataset['status'] === 'cancelled', 'the next answer');
    expect(users(el).at(-1)).toBe('Never mind');
  });

  it('an element that leaves the DOM while a question is asked leaves it unanswered; the agent goes on in another', async () => {
    const { el, agent } = await remoteChat('ag-ui');
    el.send('Please ask me');
    await until(() => question(el)?.dataset['status'] === 'asked', 'the form');
    el.remove();
    await until(() => question(el)?.dataset['status'] === 'cancelled', 'the question cut');
    const next = await chatFixture((c) => (c.agent = agent));
    await say(next, 'Hello', 'Cancelled.');
    expect(await resumeOf(agent.sessionId)).toEqual([{ interruptId: expect.any(String), status: 'cancelled' }]);
  });

  it('a schema it cannot show as fields is answered as JSON, checked for being JSON', async () => {
    const { el, agent } = await remoteChat('ag-ui');
    el.send('Please ask for an address');
    await until(() => question(el)?.dataset['status'] === 'asked', 'the form');
    const json = field<HTMLTextAreaElement>(el, 'Your answer (JSON)');
    expect(el.shadowRoot!.activeElement).toBe(json);
    await userEvent.fill(json, '{"name": "Ada", "address": {');
    await userEvent.click($(el, '[part="question-submit"]')!);
    expect(json.validationMessage).toBe('This is not valid JSON.');
    expect(question(el)!.dataset['status']).toBe('asked');
    await userEvent.fill(json, '{"name": "Ada", "address": {"city": "Lyon"}}');
    await userEvent.click($(el, '[part="question-submit"]')!);
    await until(() => lastAnswerIs(el, 'Got {"name":"Ada","address":{"city":"Lyon"}}.'), 'the answer');
    expect(await resumeOf(agent.sessionId)).toEqual([{ interruptId: expect.any(String), status: 'resolved', payload: { name: 'Ada', address: { city: 'Lyon' } } }]);
  });

  it('a question that expired ends the run with an error card saying so; the next message goes on', async () => {
    const { el } = await remoteChat('ag-ui');
    el.send('This is expired');
    await until(() => $(el, '[part~="error"]') !== null && !el.streaming, 'the error card');
    expect($(el, '[part="error-details"]')!.textContent).toMatch(/question expired at \d{4}-/);
    expect(question(el)).toBeNull();
    await say(el, 'hello again', 'No answer.');
  });

  it("speaks the element's language (ja, zh-CN)", async () => {
    for (const [lang, submit, dismiss, heading] of [
      ['ja', '送信', 'スキップ', '質問'],
      ['zh-CN', '提交', '跳过', '问题'],
    ] as const) {
      const { el } = await remoteChat('ag-ui');
      el.setAttribute('lang', lang);
      el.send('Please ask me');
      await until(() => question(el)?.dataset['status'] === 'asked', 'the form');
      expect([$(el, '[part="question-submit"]')!.textContent, $(el, '[part="question-dismiss"]')!.textContent, $(el, '[part="question-title"]')!.textContent]).toEqual([
        submit,
        dismiss,
        heading,
      ]);
      await userEvent.click($(el, '[part="question-dismiss"]')!);
      await until(() => lastAnswerIs(el, 'Cancelled.'), 'the answer');
    }
  });

  it('dispatches pagent-state with the state after each snapshot and patch, and the next request sends it back', async () => {
    const { el, agent } = await remoteChat('ag-ui', { state: { count: 10 } });
    const states: unknown[] = [];
    const listener = (e: CustomEvent<{ state: unknown }>): void => void states.push(structuredClone(e.detail.state));
    // composed and bubbling: the page hears it at the document
    document.addEventListener('pagent-state', listener);
    try {
      await say(el, 'count', 'Count is 11.');
      expect(states).toEqual([{ count: 11 }, { count: 11, last: 'count' }]);
      await say(el, 'count again', 'Count is 12.');
      expect((await logOf('ag-ui', agent.sessionId)).at(-1)!.body['state']).toEqual({ count: 11, last: 'count' });
      expect(states.at(-1)).toEqual({ count: 12, last: 'count again' });
    } finally {
      document.removeEventListener('pagent-state', listener);
    }
  });

  it('a state patch that cannot apply is marked in the wire log as a decode error; the run goes on', async () => {
    const { el } = await remoteChat('ag-ui', { state: { a: 1 } });
    el.wireLog = true;
    const states: unknown[] = [];
    el.addEventListener('pagent-state', (e) => states.push(e.detail.state));
    await say(el, 'bad patch', 'Patched.');
    expect(states).toEqual([]);
    await userEvent.click($(el, '[part="wire-log"] summary')!);
    await until(() => $(el, '[part~="wire-line-error"]') !== null, 'the marked line');
    expect($$(el, '[part~="wire-line-error"]').map((l) => l.querySelector('.wire-error')!.textContent)).toEqual([expect.stringMatching(/^decode error: .+/)]);
  });
});

describe('<pagent-chat> with a RemoteAgent: screenshots', () => {
  const SCREENS = '../../../test-results/screens';
  for (const [theme, width] of [['light', 720], ['dark', 720], ['light', 375]] as const) {
    it(`${theme} at ${width} px: a question's form, its answer, and an approval card`, async () => {
      const { el } = await remoteChat('ag-ui');
      el.theme = theme;
      el.style.width = `${width}px`;
      el.style.height = '640px';
      await page.viewport(Math.max(width + 40, 400), 760);
      el.send('Please ask me');
      await until(() => $(el, '[part~="question"]')?.dataset['status'] === 'asked', 'the form');
      await page.screenshot({ element: el, path: `${SCREENS}/question-${theme}-${width}.png` });
      await userEvent.fill($(el, '[part="question-form"] input[type="text"]')!, 'Ada Lovelace');
      await userEvent.fill($(el, '[part="question-form"] input[type="number"]')!, '36');
      await userEvent.click($(el, '[part="question-submit"]')!);
      await until(() => lastAnswerIs(el, 'Thanks, Ada Lovelace (36, undefined, subscribed: false).'), 'the answer');
      el.send('Please confirm');
      await until(() => $(el, '[part="approve-button"]') !== null, 'the approval buttons');
      await page.screenshot({ element: el, path: `${SCREENS}/question-answered-${theme}-${width}.png` });
      await userEvent.click($(el, '[part="approve-button"]')!);
      await until(() => lastAnswerIs(el, 'Confirmed.'), 'the answer');

      const other = await remoteChat('ai-sdk');
      other.el.theme = theme;
      other.el.style.width = `${width}px`;
      other.el.style.height = '420px';
      other.el.send('Please delete notes.txt');
      await until(() => $(other.el, '[part="approve-button"]') !== null, 'the approval buttons');
      await page.screenshot({ element: other.el, path: `${SCREENS}/approval-${theme}-${width}.png` });
      await userEvent.click($(other.el, '[part="deny-button"]')!);
      await until(() => lastAnswerIs(other.el, 'delete_file was denied.'), 'the answer');
    });
  }
});
