/** Helpers shared by the <pagent-chat> browser tests. */
import { fixture, html } from '@open-wc/testing';
import '../../../src/chat/pagent-chat.js';
import type { PagentChat } from '../../../src/chat/element.js';
import type { WireEvent } from '../../../src/wire/events.js';

export const END = { content: '', tool_calls: [], reasoning_content: '', usage: null };

/** A fresh element without frame batching, so every update lands at the next microtask. */
export async function chatFixture(setup?: (el: PagentChat) => void): Promise<PagentChat> {
  const el = await fixture<PagentChat>(html`<pagent-chat style="height: 420px"></pagent-chat>`);
  el.frameBatching = false;
  setup?.(el);
  await el.updateComplete;
  return el;
}

/**
 * Waits for the tool renderers chunk, which the element fetches once `renderers` is set (tool calls show the
 * default card until it is there): the module, then a few tasks for the element's own `import()` of it to
 * settle (the browser does not promise which of two imports of one module settles first), then its update.
 */
export async function renderersLoaded(el: PagentChat): Promise<void> {
  await import('../../../src/chat/tool-calls/renderers.js');
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
  await el.updateComplete;
}

/** Pushes events and waits for the render. */
export async function pushAll(el: PagentChat, events: WireEvent[]): Promise<void> {
  for (const e of events) el.push(e);
  await el.updateComplete;
}

export const shadow = (el: PagentChat): ShadowRoot => el.shadowRoot!;
export const $ = <T extends Element = HTMLElement>(el: PagentChat, sel: string): T | null => shadow(el).querySelector<T>(sel);
export const $$ = <T extends Element = HTMLElement>(el: PagentChat, sel: string): T[] => [...shadow(el).querySelectorAll<T>(sel)];

/** The rendered answer texts, in order. */
export const answers = (el: PagentChat): string[] => $$(el, '[part~="answer-text"]').map((n) => n.textContent ?? '');
/** Tool cards as [name, status]. */
export const toolCards = (el: PagentChat): Array<[string, string]> =>
  $$(el, '[part~="tool-call"]').map((n) => [n.querySelector('[part="tool-name"]')?.textContent ?? '', n.dataset['status'] ?? '']);

/** Waits until `check` returns true (polling each frame), failing after `frames` frames. */
export async function until(check: () => boolean, what: string, frames = 600): Promise<void> {
  for (let i = 0; i < frames; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A simple pagent run with an answer. */
export function textRun(input: string, answer: string[]): WireEvent[] {
  return [
    { method: 'RunBegin', params: { user_input: input } },
    { method: 'TurnBegin', params: { turn: 0 } },
    ...answer.map((text): WireEvent => ({ method: 'TextDelta', params: { text } })),
    { method: 'StepEnd', params: { ...END, content: answer.join('') } },
    { method: 'TurnEnd', params: { turn: 0, stopped: true } },
    { method: 'RunEnd', params: { ...END, content: answer.join(''), stop_reason: 'no_tool_calls' } },
  ];
}
