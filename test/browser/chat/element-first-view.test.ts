// The first view and the first message (issue 10, item 16).
import { describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { PagentError } from '../../../src/errors.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import { scriptedModel } from '../../unit/agent/scripted-model.js';
import { $, $$, answers, chatFixture, pushAll, textRun, until } from './helpers.js';

describe('the empty state', () => {
  it('invites the user to write, in the element language, with the suggestions in it', async () => {
    const el = await chatFixture((c) => {
      c.lang = 'ja';
      for (const text of ['東京の天気は？', '考えてから答えて']) {
        const chip = document.createElement('button');
        chip.slot = 'suggestions';
        chip.textContent = text;
        c.append(chip);
      }
    });
    const empty = $(el, '[part="empty"]')!;
    expect(empty).not.toBeNull();
    expect(empty.textContent).toContain('何でも聞いてください。');
    const slot = empty.querySelector<HTMLSlotElement>('slot[name="suggestions"]')!;
    expect(slot.assignedElements().map((c) => c.textContent)).toEqual(['東京の天気は？', '考えてから答えて']);
    // inside the timeline, which takes the room
    expect(empty.closest('[part="timeline"]')).not.toBeNull();

    await pushAll(el, textRun('東京の天気は？', ['晴れ']));
    expect($(el, '[part="empty"]')).toBeNull();
    const row = $(el, '.composer-suggestions slot[name="suggestions"]') as HTMLSlotElement;
    expect(row.assignedElements()).toHaveLength(2);
  });

  it('keeps the suggestions to one row once the conversation runs, so they never eat the timeline (375 px)', async () => {
    const el = await chatFixture((c) => {
      c.style.width = '375px';
      c.style.height = '518px';
      for (const text of ['Weather in Tokyo', 'Show reasoning', 'Show an error', 'Ask for approval', 'Say hello']) {
        const chip = document.createElement('button');
        chip.slot = 'suggestions';
        chip.textContent = text;
        c.append(chip);
      }
    });
    await pushAll(el, textRun('q', ['a']));
    const chips = [...el.querySelectorAll('[slot="suggestions"]')].map((c) => c.getBoundingClientRect());
    const tops = new Set(chips.map((r) => Math.round(r.top)));
    expect(tops.size).toBe(1);
    const timeline = $(el, '[part="timeline"]')!.getBoundingClientRect();
    expect(timeline.height).toBeGreaterThan(518 * 0.55);
  });
});

describe('a failed first message', () => {
  it('leaves no stored conversation behind; a successful retry stores it whole', async () => {
    const store = createSessionStore({ name: `first-${crypto.randomUUID()}` });
    const llm = scriptedModel([{ error: new PagentError('HTTP 401 from POST x: bad key.', { code: 'http', status: 401, where: 'llm' }) }, { text: ['Hello!'] }]);
    const agent = new Agent({ llm, store, sessionId: 'first' });
    const el = await chatFixture((c) => {
      c.agent = agent;
      c.store = store;
    });
    el.send('Hi');
    await until(() => $(el, '[part~="error"]') !== null && !el.streaming, 'the error card');
    await agent.whenSaved();
    expect(await store.list()).toEqual([]);
    await el.updateComplete;
    expect($$(el, '[part="session"]')).toEqual([]);

    $<HTMLButtonElement>(el, '[part="retry-button"]')!.click();
    await until(() => answers(el).at(-1) === 'Hello!' && !el.streaming, 'the answer');
    await agent.whenSaved();
    expect((await store.load('first'))!.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]);
    await until(() => $$(el, '[part="session"]').length === 1, 'the conversation in the list');
    expect($(el, '[part="session"]')!.getAttribute('aria-current')).toBe('true');
    store.close();
  });
});
