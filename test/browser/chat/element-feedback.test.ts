// 👍/👎 under answers (events, veto, keyboard and screen-reader names, kept in the store and its export,
// shown again on reopening) and the context meter (from the run's usage, else the estimate).
import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import type { PagentChat, PagentFeedbackDetail } from '../../../src/chat/element.js';
import { scriptedModel } from '../../unit/agent/scripted-model.js';
import { $, $$, END, chatFixture, pushAll, textRun, until } from './helpers.js';

const stores: SessionStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const up = (el: PagentChat, i = 0): HTMLButtonElement => $$<HTMLButtonElement>(el, '[part~="feedback-up"]')[i]!;
const down = (el: PagentChat, i = 0): HTMLButtonElement => $$<HTMLButtonElement>(el, '[part~="feedback-down"]')[i]!;

async function answered(lang?: string): Promise<{ el: PagentChat; events: PagentFeedbackDetail[] }> {
  const el = await chatFixture((c) => lang && c.setAttribute('lang', lang));
  const events: PagentFeedbackDetail[] = [];
  el.addEventListener('pagent-feedback', (e) => events.push(e.detail));
  await pushAll(el, textRun('Weather?', ['Sunny ', 'today.']));
  await until(() => $$(el, '[part~="feedback-up"]').length === 1, 'the feedback buttons');
  return { el, events };
}

describe('<pagent-chat> feedback', () => {
  it('rates an answer 👍: the event, aria-pressed, the thanks announced; named buttons in a named group', async () => {
    const { el, events } = await answered();
    const group = $(el, '[part~="feedback"]')!;
    expect(group.getAttribute('role')).toBe('group');
    expect(group.getAttribute('aria-label')).toBe('Feedback');
    expect(group.closest('[part~="message-actions"]')).not.toBeNull();
    expect(up(el).getAttribute('aria-label')).toBe('Good answer');
    expect(down(el).getAttribute('aria-label')).toBe('Bad answer');
    expect(up(el).getAttribute('aria-pressed')).toBe('false');
    up(el).click();
    await until(() => up(el).getAttribute('aria-pressed') === 'true', 'the pressed 👍');
    expect(events).toEqual([{ messageId: expect.stringMatching(/^a\d+$/), rating: 'up', text: 'Sunny today.' }]);
    expect($(el, '.sr-only[role="status"]')!.textContent).toBe('Thanks for your feedback.');
    await chaiExpect(el).to.be.accessible();
  });

  it('a cancelled event leaves the answer unrated', async () => {
    const { el, events } = await answered();
    el.addEventListener('pagent-feedback', (e) => e.preventDefault());
    up(el).click();
    await until(() => events.length === 1, 'the event');
    await el.updateComplete;
    expect(up(el).getAttribute('aria-pressed')).toBe('false');
  });

  it('👎 opens a comment form reachable by keyboard; Send rates with the comment, Escape without (ja)', async () => {
    const { el, events } = await answered('ja');
    expect(down(el).getAttribute('aria-label')).toBe('良くない回答');
    down(el).focus();
    down(el).click();
    await until(() => $(el, '[part~="feedback-comment"]') !== null, 'the comment form');
    const comment = $<HTMLTextAreaElement>(el, '[part~="feedback-comment"]')!;
    await until(() => el.shadowRoot!.activeElement === comment, 'focus in the comment box');
    expect(comment.getAttribute('aria-label')).toBe('何が問題でしたか？（任意）');
    expect(down(el).getAttribute('aria-expanded')).toBe('true');
    comment.value = '  雨でした  ';
    $<HTMLButtonElement>(el, '[part~="feedback-send"]')!.click();
    await until(() => down(el).getAttribute('aria-pressed') === 'true', 'the pressed 👎');
    expect(events).toEqual([{ messageId: expect.any(String), rating: 'down', comment: '雨でした', text: 'Sunny today.' }]);
    await until(() => el.shadowRoot!.activeElement === down(el), 'focus back on 👎');
    // another answer: Escape in the form rates 👎 without a comment
    await pushAll(el, textRun('Tomorrow?', ['Rain.']));
    await until(() => $$(el, '[part~="feedback-down"]').length === 2, 'the second answer’s buttons');
    down(el, 1).click();
    await until(() => $(el, '[part~="feedback-comment"]') !== null, 'the second form');
    $(el, '[part~="feedback-comment"]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await until(() => events.length === 2, 'the second event');
    expect(events[1]).toEqual({ messageId: expect.any(String), rating: 'down', text: 'Rain.' });
  });

  it('the page can hide it', async () => {
    const { el } = await answered();
    el.feedback = false;
    await el.updateComplete;
    expect($(el, '[part~="feedback"]')).toBeNull();
  });

  it('keeps the rating with the stored answer: store, export, and shown again when reopened', async () => {
    const store = createSessionStore({ name: `feedback-${crypto.randomUUID()}` });
    stores.push(store);
    const agent = new Agent({ llm: scriptedModel([{ text: ['Hello ', 'there.'] }]), store, sessionId: 'c' });
    const el = await chatFixture((c) => {
      c.store = store;
      c.agent = agent;
    });
    const events: PagentFeedbackDetail[] = [];
    el.addEventListener('pagent-feedback', (e) => events.push(e.detail));
    el.send('Hi');
    await until(() => $$(el, '[part~="feedback-up"]').length === 1 && !el.streaming, 'the answer');
    up(el).click();
    await expect.poll(async () => (await store.loadTree('c'))?.nodes[1]?.feedback).toEqual({ rating: 'up' });
    expect(events).toEqual([{ messageId: 'c:1', rating: 'up', text: 'Hello there.' }]);
    const file = JSON.parse(await store.export('c')) as { tree: { nodes: Array<{ feedback?: unknown }> } };
    expect(file.tree.nodes[1]!.feedback).toEqual({ rating: 'up' });
    el.remove();
    const again = await chatFixture((c) => {
      c.store = store;
      c.agent = new Agent({ llm: scriptedModel([]), store, sessionId: 'c' });
    });
    await until(() => $$(again, '[part~="feedback-up"]').length === 1 && up(again).getAttribute('aria-pressed') === 'true', 'the stored 👍 shown');
  });
});

const meter = (el: PagentChat): HTMLElement | null => $(el, '[part~="context-meter"]');

describe('<pagent-chat> context meter', () => {
  it('shows how full the conversation is from the last RunEnd usage, warning past 80 %', async () => {
    const el = await chatFixture((c) => (c.contextWindow = 1000));
    await until(() => meter(el) !== null, 'the meter');
    const usage = { prompt_tokens: 700, completion_tokens: 150, total_tokens: 850 };
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'Hi' } },
      { method: 'TurnBegin', params: { turn: 0 } },
      { method: 'StepEnd', params: { ...END, content: 'Hello.', usage } },
      { method: 'RunEnd', params: { ...END, content: 'Hello.', usage } },
    ]);
    await until(() => meter(el)!.getAttribute('aria-valuenow') === '850', 'the count from usage');
    const m = meter(el)!;
    expect(m.getAttribute('role')).toBe('meter');
    expect(m.getAttribute('aria-valuemax')).toBe('1000');
    expect(m.getAttribute('aria-label')).toBe('Context used');
    expect(m.getAttribute('aria-valuetext')).toBe('850 of 1,000 tokens (85%)');
    expect(m.dataset['level']).toBe('warning');
    expect(m.tabIndex).toBe(0);
    // the figure is there for hover and focus
    expect(getComputedStyle($(el, '[part~="context-figure"]')!).visibility).toBe('hidden');
    m.focus();
    await chaiExpect(el).to.be.accessible();
  });

  it('estimates from the text when no usage came (countTokens), in the reader’s language', async () => {
    const el = await chatFixture((c) => {
      c.setAttribute('lang', 'zh-CN');
      c.contextWindow = 100;
    });
    // 40 ASCII characters ≈ 10 tokens and 10 CJK characters = 10 tokens (about 4 ASCII characters a token, one a CJK character)
    await pushAll(el, textRun('a'.repeat(40), ['天气晴朗温度二十一度']));
    await until(() => meter(el)?.getAttribute('aria-valuenow') === '20', 'the estimate');
    expect(meter(el)!.getAttribute('aria-valuetext')).toBe('20 / 100 个 token（20%）');
    expect(meter(el)!.dataset['level']).toBe('ok');
  });

  it('knows the window of a preset model; none without a window', async () => {
    const plain = await chatFixture();
    await new Promise((r) => setTimeout(r, 50));
    expect(meter(plain)).toBeNull();
    const { OpenAI } = await import('../../../src/agent/llm/presets.js');
    const el = await chatFixture((c) => (c.agent = new Agent({ llm: OpenAI('gpt-4o', { apiKey: 'k' }) })));
    await until(() => meter(el) !== null, 'the meter for gpt-4o');
    expect(meter(el)!.getAttribute('aria-valuemax')).toBe('128000');
  });
});
