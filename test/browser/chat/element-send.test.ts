// Sending from <pagent-chat>: what happens to the user's message in every situation (issue 10, items 1, 8, 9, 10).
import { describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { Session } from '../../../src/agent/sessions/session.js';
import { PagentError } from '../../../src/errors.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import { scriptedModel } from '../../unit/agent/scripted-model.js';
import { $, $$, answers, chatFixture, until } from './helpers.js';

const api = inject('apiUrl');
const users = (el: HTMLElement & { shadowRoot: ShadowRoot | null }): string[] =>
  [...el.shadowRoot!.querySelectorAll('[part~="user"]')].map((n) => n.textContent?.trim() ?? '');

describe('send() while the stored conversation is still opening (item 1)', () => {
  it('waits for the open, then runs: the message is shown, sent once and saved after the restored history', async () => {
    const store = createSessionStore({ name: `send-open-${crypto.randomUUID()}` });
    const earlier = new Session();
    earlier.append({ role: 'user', content: 'earlier question' }, { role: 'assistant', content: 'earlier answer' });
    await store.save('s1', earlier);
    const llm = scriptedModel([{ text: ['Answer ', 'now'] }]);
    const agent = new Agent({ llm, store, sessionId: 's1' });
    const el = await chatFixture((e) => {
      e.agent = agent;
      e.store = store;
    });
    // the element is opening 's1' from the store right now; the user sends at once
    el.send('new question');
    await until(() => answers(el).at(-1) === 'Answer now', 'the answer');
    await until(() => !el.streaming, 'the end of the run');
    expect(users(el)).toEqual(['earlier question', 'new question']);
    expect(answers(el)).toEqual(['earlier answer', 'Answer now']);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.messages.map((m) => m.content)).toEqual(['earlier question', 'earlier answer', 'new question']);
    await expect.poll(async () => (await store.load('s1'))?.messages.map((m) => m.content)).toEqual([
      'earlier question',
      'earlier answer',
      'new question',
      'Answer now',
    ]);
    expect($(el, '[part~="stopped"]')).toBeNull();
    store.close();
  });
});

describe('stop before the server sends its first line (item 8)', () => {
  it('ends the message with a stopped mark, never a bare bubble', async () => {
    const el = await chatFixture((e) => {
      e.src = `${api}/wire/script`;
      // the server answers only after 5 s: the stop comes before any line (and before the headers)
      e.body = () => ({ headersDelayMs: 5000, headers: { 'Content-Type': 'application/x-ndjson' }, chunks: [] });
    });
    el.send('Hello?');
    await until(() => el.streaming, 'the run to start');
    el.stop();
    await until(() => !el.streaming, 'the run to end');
    await el.updateComplete;
    expect(users(el)).toEqual(['Hello?']);
    expect($$(el, '[part~="stopped"]')).toHaveLength(1);
  });

  it('also after the headers arrived but before the first line', async () => {
    const el = await chatFixture((e) => {
      e.src = `${api}/wire/script`;
      e.body = () => ({ headers: { 'Content-Type': 'application/x-ndjson' }, chunks: ['\n'], end: 'hang' });
    });
    el.send('Hello?');
    // wait until the response is in (the request settled into reading the body)
    await new Promise((r) => setTimeout(r, 300));
    el.stop();
    await until(() => !el.streaming, 'the run to end');
    await el.updateComplete;
    expect($$(el, '[part~="stopped"]')).toHaveLength(1);
  });
});

describe('send() with no source (item 10)', () => {
  it('says in the timeline that there is nothing to send to', async () => {
    const el = await chatFixture();
    el.send('Anyone there?');
    await el.updateComplete;
    expect(users(el)).toEqual(['Anyone there?']);
    const error = $(el, '[part~="error"]');
    expect(error).not.toBeNull();
    expect(error!.textContent).toContain('No source');
    expect(el.streaming).toBe(false);
  });

  it('stays quiet when the page handles the message itself (pagent-send cancelled)', async () => {
    const el = await chatFixture();
    el.addEventListener('pagent-send', (e) => e.preventDefault());
    el.send('handled elsewhere');
    await el.updateComplete;
    expect($(el, '[part~="error"]')).toBeNull();
  });
});

describe('Retry (item 9)', () => {
  it('re-runs the failed turn once, in place: one user bubble, the message once in the model history, no live Retry left', async () => {
    const llm = scriptedModel([
      { text: ['Par'], error: new PagentError('HTTP 503 from POST https://x/v1/chat/completions: busy.', { code: 'http', status: 503, where: 'llm' }) },
      { text: ['Recovered.'] },
    ]);
    const el = await chatFixture((e) => (e.agent = new Agent({ llm })));
    el.send('Try this');
    await until(() => $(el, '[part="retry-button"]') !== null, 'the error card');
    await until(() => !el.streaming, 'the failed run to end');
    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await until(() => answers(el).at(-1) === 'Recovered.', 'the retried answer');
    await until(() => !el.streaming, 'the end of the retried run');
    expect(users(el)).toEqual(['Try this']);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]!.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Try this']);
    // the old card stays as a record, without a Retry button
    expect($$(el, '[part~="error"]')).toHaveLength(1);
    expect($(el, '[part="retry-button"]')).toBeNull();
  });

  it('runs the retry once even when Retry is clicked twice', async () => {
    let calls = 0;
    const llm = scriptedModel((n) => {
      calls = n + 1;
      return n === 0 ? { error: new PagentError('boom', { code: 'provider', where: 'llm' }) } : { text: ['ok'] };
    });
    const el = await chatFixture((e) => (e.agent = new Agent({ llm })));
    el.send('Go');
    await until(() => $(el, '[part="retry-button"]') !== null && !el.streaming, 'the error card');
    const retry = $<HTMLButtonElement>(el, '[part="retry-button"]')!;
    retry.click();
    retry.click();
    await until(() => answers(el).at(-1) === 'ok', 'the answer');
    await until(() => !el.streaming, 'the end');
    expect(calls).toBe(2);
    expect(users(el)).toEqual(['Go']);
  });
});

describe('moving the element in the DOM (item 4)', () => {
  /** An agent whose run streams one word, waits for `release`, then finishes. */
  function slowAgent() {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const llm = scriptedModel([{ text: ['Half '], beforeStep: () => released }]);
    let aborted = false;
    const agent = new Agent({ llm });
    const events = agent.events.bind(agent);
    agent.events = (input, options) => {
      options?.signal?.addEventListener('abort', () => (aborted = true));
      return events(input, options);
    };
    return { agent, release, aborted: () => aborted };
  }

  it('keeps the run going when the element is moved, even within the same task', async () => {
    const { agent, release, aborted } = slowAgent();
    const el = await chatFixture((e) => (e.agent = agent));
    const other = document.createElement('div');
    document.body.append(other);
    el.send('Go');
    await until(() => answers(el)[0]?.startsWith('Half') === true, 'the first word');
    other.append(el); // disconnect + connect in one task
    await new Promise((r) => setTimeout(r, 50));
    expect(aborted()).toBe(false);
    release();
    await until(() => !el.streaming, 'the end of the run');
    expect($(el, '[part~="stopped"]')).toBeNull();
    expect(answers(el).map((a) => a.trim())).toEqual(['Half']);
    other.remove();
  });

  it('still stops the run when the element is removed for good', async () => {
    const { agent, aborted } = slowAgent();
    const el = await chatFixture((e) => (e.agent = agent));
    el.send('Go');
    await until(() => answers(el)[0]?.startsWith('Half') === true, 'the first word');
    el.remove();
    await until(() => aborted(), 'the abort');
  });
});
