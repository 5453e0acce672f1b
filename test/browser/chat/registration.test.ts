import { describe, expect, it } from 'vitest';
import { PagentChat } from '../../../src/chat/element.js';

// One page, in order: the page registers the class under tags of its own first, then some other module
// imports pagent-chat.js (a registry takes each constructor once; define() would throw NotSupportedError).
describe('registering <pagent-chat>', () => {
  it('leaves the class under the page’s own tag when pagent-chat.js is imported later', async () => {
    class Subclassed extends PagentChat {}
    customElements.define('my-chat', PagentChat);
    customElements.define('my-sub-chat', Subclassed);

    const module = await import('../../../src/chat/pagent-chat.js');

    expect(module.PagentChat).toBe(PagentChat);
    expect(customElements.get('pagent-chat')).toBeUndefined();
    expect(customElements.get('my-chat')).toBe(PagentChat);
    const el = document.createElement('my-chat') as PagentChat;
    expect(el).toBeInstanceOf(PagentChat);
    el.frameBatching = false;
    document.body.append(el);
    await el.updateComplete;
    const step = { content: 'Hello from my-chat', tool_calls: [], reasoning_content: '', usage: null };
    el.push({ method: 'RunBegin', params: { user_input: 'hi' } });
    el.push({ method: 'TurnBegin', params: { turn: 0 } });
    el.push({ method: 'TextDelta', params: { text: 'Hello from my-chat' } });
    el.push({ method: 'StepEnd', params: step });
    el.push({ method: 'TurnEnd', params: { turn: 0, stopped: true } });
    el.push({ method: 'RunEnd', params: { ...step, stop_reason: 'no_tool_calls' } });
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('[part~="answer-text"]')?.textContent).toContain('Hello from my-chat');
    el.remove();
  });
});
