// Keyboard and focus (issue 10, item 15): focus never drops to <body>, rename keeps what was typed, delete
// asks first, and Deny does not look like Approve.
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { PagentChat } from '../../../src/chat/element.js';
import { $, $$, chatFixture, END, until } from './helpers.js';

const active = (el: PagentChat): Element | null => el.shadowRoot!.activeElement;

function memoryStore() {
  const sessions = new Map([
    ['s1', { title: 'Paris weather', messages: [{ role: 'user' as const, content: 'Paris?' }, { role: 'assistant' as const, content: '18 °C' }] }],
    ['s2', { title: 'Greetings', messages: [{ role: 'user' as const, content: 'Hello' }, { role: 'assistant' as const, content: 'Hi!' }] }],
  ]);
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  return {
    sessions,
    list: async () => [...sessions].map(([id, s], i) => ({ id, title: s.title, messageCount: s.messages.length, updatedAt: 1_700_000_000_000 - i })),
    load: async (id: string) => sessions.get(id),
    rename: async (id: string, title: string) => {
      sessions.get(id)!.title = title;
      changed();
    },
    delete: async (id: string) => {
      sessions.delete(id);
      changed();
    },
    subscribe: (l: () => void) => (listeners.add(l), () => listeners.delete(l)),
  };
}

async function listFixture() {
  const store = memoryStore();
  const el = await chatFixture((c) => (c.store = store));
  await until(() => $$(el, '[part="session"]').length === 2, 'the list');
  return { el, store };
}

describe('focus after Stop (item 15)', () => {
  it('moves focus from the Stop button to the message box, not to <body>', async () => {
    const el = await chatFixture((c) => {
      c.client = {
        stream: () =>
          (async function* () {
            yield { method: 'RunBegin' as const, params: { user_input: 'Go' } };
            yield { method: 'TextDelta' as const, params: { text: 'Partial' } };
            await new Promise(() => undefined);
          })(),
      };
      c.stopGraceMs = 10;
    });
    el.send('Go');
    await until(() => $(el, '[part="stop-button"]') !== null, 'the stop button');
    const stop = $<HTMLButtonElement>(el, '[part="stop-button"]')!;
    stop.focus();
    await userEvent.keyboard('{Enter}');
    await until(() => $(el, '[part="stop-button"]') === null, 'the end of the run');
    await el.updateComplete;
    expect(active(el)?.getAttribute('part')).toBe('input');
    expect(document.activeElement).toBe(el);
  });
});

describe('renaming a conversation (item 15)', () => {
  it('Escape cancels and puts focus back on the rename button of that row', async () => {
    const { el, store } = await listFixture();
    const rename = $$<HTMLButtonElement>(el, '[part="session-rename"]')[1]!;
    rename.focus();
    await userEvent.keyboard('{Enter}');
    await el.updateComplete;
    expect(active(el)?.getAttribute('part')).toBe('session-title-input');
    await userEvent.keyboard('changed');
    await userEvent.keyboard('{Escape}');
    await el.updateComplete;
    expect($(el, '[part="session-title-input"]')).toBeNull();
    expect(active(el)).toBe($$(el, '[part="session-rename"]')[1]);
    expect(store.sessions.get('s2')!.title).toBe('Greetings');
  });

  it('saves the title when the field loses focus, not only on Enter', async () => {
    const { el, store } = await listFixture();
    $$<HTMLButtonElement>(el, '[part="session-rename"]')[0]!.click();
    await el.updateComplete;
    await userEvent.keyboard('Weather in Paris');
    await userEvent.keyboard('{Tab}');
    await until(() => store.sessions.get('s1')!.title === 'Weather in Paris', 'the saved title');
    await until(() => $$(el, '[part="session-title"]').some((t) => t.textContent === 'Weather in Paris'), 'the new title in the list');
  });

  it('saves once on Enter (the blur that follows does not save again) and keeps focus in the list', async () => {
    const { el, store } = await listFixture();
    let renames = 0;
    const rename = store.rename;
    store.rename = async (id, title) => {
      renames++;
      await rename(id, title);
    };
    $$<HTMLButtonElement>(el, '[part="session-rename"]')[0]!.click();
    await el.updateComplete;
    await userEvent.keyboard('Paris{Enter}');
    await until(() => store.sessions.get('s1')!.title === 'Paris', 'the saved title');
    await el.updateComplete;
    expect(renames).toBe(1);
    expect(active(el)?.getAttribute('part')).toBe('session-rename');
  });
});

describe('deleting a conversation (item 15)', () => {
  it('asks first: Cancel (focused) keeps it, Delete removes it and focus stays in the list', async () => {
    const { el, store } = await listFixture();
    $$<HTMLButtonElement>(el, '[part="session-delete"]')[0]!.click();
    await el.updateComplete;
    expect(store.sessions.has('s1')).toBe(true);
    const confirm = $(el, '[part="session-confirm"]')!;
    expect(confirm.textContent).toContain('Delete “Paris weather”?');
    expect(active(el)?.getAttribute('part')).toBe('session-delete-cancel');
    await userEvent.keyboard('{Enter}');
    await el.updateComplete;
    expect($(el, '[part="session-confirm"]')).toBeNull();
    expect(store.sessions.has('s1')).toBe(true);
    expect(active(el)).toBe($$(el, '[part="session-delete"]')[0]);

    await userEvent.keyboard('{Enter}');
    await el.updateComplete;
    $<HTMLButtonElement>(el, '[part="session-delete-confirm"]')!.focus();
    await userEvent.keyboard('{Enter}');
    await until(() => $$(el, '[part="session"]').length === 1, 'the deletion');
    await el.updateComplete;
    expect(store.sessions.has('s1')).toBe(false);
    expect(active(el)?.getAttribute('part')).toBe('session-open');
  });

  it('Escape cancels the question', async () => {
    const { el, store } = await listFixture();
    $$<HTMLButtonElement>(el, '[part="session-delete"]')[1]!.click();
    await el.updateComplete;
    await userEvent.keyboard('{Escape}');
    await el.updateComplete;
    expect($(el, '[part="session-confirm"]')).toBeNull();
    expect(store.sessions.size).toBe(2);
  });
});

describe('approval buttons (item 15)', () => {
  it('shows Deny as a secondary button, unlike the primary Approve', async () => {
    const el = await chatFixture();
    el.push({ method: 'RunBegin', params: { user_input: 'rm' } });
    el.push({ method: 'ToolCallBegin', params: { tool_call_id: 'c1', name: 'remove', arguments: '{}' } });
    const decision = el.requestApproval({ tool_call_id: 'c1', name: 'remove', arguments: '{}' });
    await el.updateComplete;
    const approve = getComputedStyle($(el, '[part="approve-button"]')!);
    const deny = getComputedStyle($(el, '[part="deny-button"]')!);
    expect(deny.backgroundColor).not.toBe(approve.backgroundColor);
    expect(deny.color).not.toBe(approve.color);
    $<HTMLButtonElement>(el, '[part="approve-button"]')!.focus();
    await userEvent.keyboard('{Enter}');
    expect(await decision).toBe(true);
    await el.updateComplete;
    // the approval row is gone: focus moves to the message box rather than <body>
    expect(active(el)?.getAttribute('part')).toBe('input');
    el.push({ method: 'RunEnd', params: { ...END, stop_reason: 'cancelled' } });
  });
});
