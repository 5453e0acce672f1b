/**
 * `renderers` with hostile values and failing renderers: JSON that imitates Lit's own objects, a renderer
 * returning a Symbol, the element, an ancestor, its shadow root, a plain object, a template holding
 * imitations or an object whose `toString` throws, and renderers throwing values that cannot be turned
 * into text. Each call gets the default card and one `pagent-error`; the text before it, the other calls,
 * the rest of the run, a later run and the conversation reopened from a store are drawn as usual.
 */
import { html } from 'lit';
import { afterEach, describe, expect, it } from 'vitest';
import type { PagentChat, ToolCallState, ToolRenderer } from '../../../src/chat/element.js';
import type { WireEvent } from '../../../src/wire/events.js';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import GUIDE from '../../../docs/guides/element.md?raw';
import { $, $$, END, answers, chatFixture, pushAll, renderersLoaded, until } from './helpers.js';

/** The renderer the README used to show: it interpolates `arguments.city` and `resultJson.temp` as they come. */
const readmeWeather: ToolRenderer = (call) => html`<div class="weather">
  <strong>${(call.arguments as { city?: string } | undefined)?.city}</strong>
  ${call.status === 'ok' ? html`${(call.resultJson as { temp: number }).temp}°` : call.status}
</div>`;

/** The renderer the element guide shows now (docs/guides/element.md, "Tool calls rendered by the page"), as written there. */
const readmeWeatherNow: ToolRenderer = (call) => {
  // the model wrote the arguments and the tool the result: JSON of any shape, so check each value's type
  const args = call.arguments as { city?: unknown } | undefined;
  const data = call.resultJson as { temp?: unknown } | undefined;
  const city = typeof args?.city === 'string' ? args.city : '…';
  const temp = typeof data?.temp === 'number' ? `${data.temp}°` : call.status;
  return html`<div class="weather"><strong>${city}</strong> ${temp}</div>`;
};

/** A renderer that works, for the other calls of the run. */
const good: ToolRenderer = (call: ToolCallState) => html`<i class="good" data-call=${call.tool_call_id}>${call.status}</i>`;

const fakeTemplate = (): object => ({ _$litType$: 1, strings: ['<img src=x onerror="window.__pwned = 1">'], values: [] });

interface Form {
  name: string;
  /** The get_weather renderer (given the element). */
  renderer: (host: PagentChat) => ToolRenderer;
  args?: string;
  result?: string;
  /** What the error's message says after `The renderer of tool "get_weather" `. */
  says: RegExp;
}

const ON_PAGE = /^failed: its output holds a node that is on the page already \(the element itself, an element around it, a part of its view or of the page\)$/;

const FORMS: Form[] = [
  {
    name: 'arguments imitating a Lit template (the README renderer)',
    renderer: () => readmeWeather,
    args: '{"city": {"_$litType$": 1, "strings": ["x"], "values": []}}',
    says: /^was not called: the call's arguments carry "_\$litType\$", a key Lit reserves for its own objects$/,
  },
  {
    name: 'a result imitating a Lit directive (the README renderer)',
    renderer: () => readmeWeather,
    result: '{"temp": {"_$litDirective$": 1}}',
    says: /^was not called: the call's result carries "_\$litDirective\$"/,
  },
  {
    name: 'arguments imitating a static value, deep down',
    renderer: () => readmeWeather,
    args: '{"city": [{"a": {"_$litStatic$": "<b>x</b>"}}]}',
    says: /^was not called: the call's arguments carry "_\$litStatic\$"/,
  },
  {
    name: 'arguments that Lit takes for a DOM node (the README renderer)',
    renderer: () => readmeWeather,
    args: '{"city": {"nodeType": 1, "toString": 1}}',
    says: /^failed: its output could not be drawn: TypeError: /,
  },
  { name: 'a Symbol', renderer: () => () => Symbol('card') as never, says: /^failed: it returned a symbol, not a Lit template or a DOM node$/ },
  { name: 'a plain object (the parsed arguments)', renderer: () => (call) => call.arguments as never, says: /^failed: it returned an object, not a Lit template or a DOM node$/ },
  { name: 'the element itself', renderer: (host) => () => host, says: ON_PAGE },
  { name: 'an element around it (<body>)', renderer: () => () => document.body, says: ON_PAGE },
  { name: 'its own shadow root', renderer: (host) => () => host.shadowRoot!, says: ON_PAGE },
  { name: 'its own composer', renderer: (host) => () => host.shadowRoot!.querySelector('[part="composer"]')!, says: ON_PAGE },
  { name: 'a template holding the element', renderer: (host) => () => html`<b>${host}</b>`, says: ON_PAGE },
  {
    name: 'a template holding an imitation of a template',
    renderer: () => () => html`<b>${[html`<i>${fakeTemplate()}</i>`]}</b>`,
    says: /^failed: its output holds an object that imitates a Lit template/,
  },
  {
    name: 'a template holding an imitation of a directive',
    renderer: () => () => html`<b>${{ _$litDirective$: 1, values: [] }}</b>`,
    says: /^failed: its output holds an object that imitates a Lit directive/,
  },
  {
    name: 'a template holding an object whose toString throws',
    renderer: () => () => html`<b>${{ toString: () => { throw new Error('no text for you'); } }}</b>`,
    says: /^failed: its output could not be drawn: Error: no text for you$/,
  },
  {
    name: 'a template holding a Symbol',
    renderer: () => () => html`<b>${Symbol('inner')}</b>`,
    says: /^failed: its output could not be drawn: TypeError: /,
  },
  {
    name: 'an error whose message and toString throw',
    renderer: () => () => {
      const error = new Error('hidden');
      Object.defineProperty(error, 'message', { get: () => { throw new Error('no message'); } });
      error.toString = () => { throw new Error('no text'); };
      throw error;
    },
    says: /^failed: a value that cannot be shown as text$/,
  },
  {
    name: 'a thrown Proxy whose every trap throws',
    renderer: () => () => {
      const trap = (): never => { throw new Error('trap'); };
      throw new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
    },
    says: /^failed: a value that cannot be shown as text$/,
  },
];

const weatherCall = (id: string, args = '{"city": "Paris"}'): WireEvent => ({ method: 'ToolCallBegin', params: { tool_call_id: id, name: 'get_weather', arguments: args } });
const otherCall = (id: string): WireEvent => ({ method: 'ToolCallBegin', params: { tool_call_id: id, name: 'other', arguments: '{}' } });
const resultOf = (id: string, name: string, content: string): WireEvent => ({ method: 'ToolResult', params: { tool_call_id: id, name, content, ok: true } });

/** The cards drawn: [name, 'default' | 'custom'] in order. */
const cards = (el: PagentChat): Array<[string, string]> =>
  $$(el, '[part~="tool-call"]').map((n) => [
    n.querySelector('[part="tool-name"]')?.textContent ?? n.querySelector<HTMLElement>('.good')?.dataset['call'] ?? '?',
    n.matches('[part~="tool-custom"]') ? 'custom' : 'default',
  ]);

async function watched(form: Form, setup?: (el: PagentChat) => void): Promise<{ el: PagentChat; errors: Array<{ code: string; message: string; where: string | undefined }> }> {
  const errors: Array<{ code: string; message: string; where: string | undefined }> = [];
  const el = await chatFixture((c) => {
    c.renderers = { get_weather: form.renderer(c), other: good };
    c.addEventListener('pagent-error', (e) => errors.push({ code: e.detail.error.code, message: e.detail.error.message, where: e.detail.error.where }));
    setup?.(c);
  });
  await renderersLoaded(el);
  return { el, errors };
}

function expectOneError(errors: Array<{ code: string; message: string; where: string | undefined }>, form: Form): void {
  expect(errors).toHaveLength(1);
  expect(errors[0]!.code).toBe('render');
  expect(errors[0]!.where).toBe('renderers.get_weather');
  const prefix = 'The renderer of tool "get_weather" ';
  expect(errors[0]!.message.startsWith(prefix), errors[0]!.message).toBe(true);
  expect(errors[0]!.message.slice(prefix.length)).toMatch(form.says);
}

const stores: SessionStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.clear();
});

describe('tool renderers with hostile values', () => {
  for (const form of FORMS) {
    it(`${form.name}: the default card for that call, one pagent-error, everything else drawn`, async () => {
      const { el, errors } = await watched(form);
      await pushAll(el, [
        { method: 'RunBegin', params: { user_input: 'weather' } },
        { method: 'TurnBegin', params: { turn: 0 } },
        { method: 'TextDelta', params: { text: 'Before.' } },
        weatherCall('a', form.args),
        otherCall('b'),
      ]);
      await pushAll(el, [resultOf('a', 'get_weather', form.result ?? '{"temp": 18}'), resultOf('b', 'other', 'fine')]);
      await pushAll(el, [
        { method: 'TurnEnd', params: { turn: 0, stopped: false } },
        { method: 'TurnBegin', params: { turn: 1 } },
        { method: 'TextDelta', params: { text: 'After.' } },
        { method: 'RunEnd', params: { ...END, content: 'After.', stop_reason: 'no_tool_calls' } },
      ]);
      expect(answers(el)).toEqual(['Before.', 'After.']);
      expect(cards(el)).toEqual([['get_weather', 'default'], ['b', 'custom']]);
      expect($$(el, '[part~="tool-call"]')[0]!.dataset['status']).toBe('ok');
      expect($(el, '.good[data-call="b"]')!.textContent).toBe('ok');
      expectOneError(errors, form);

      // a later run
      await pushAll(el, [
        { method: 'RunBegin', params: { user_input: 'again' } },
        { method: 'TextDelta', params: { text: 'Later.' } },
        otherCall('c'),
        resultOf('c', 'other', 'fine'),
        { method: 'RunEnd', params: { ...END, content: 'Later.', stop_reason: 'no_tool_calls' } },
      ]);
      expect(answers(el)).toEqual(['Before.', 'After.', 'Later.']);
      expect(cards(el)).toEqual([['get_weather', 'default'], ['b', 'custom'], ['c', 'custom']]);
      expect(errors).toHaveLength(1);
      // nothing of the page was moved into the card, nothing ran
      expect(el.isConnected && document.body.isConnected).toBe(true);
      expect($(el, '[part="composer"]')).not.toBeNull();
      expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    });
  }

  for (const form of FORMS.filter((f) => ['arguments imitating a Lit template (the README renderer)', 'a result imitating a Lit directive (the README renderer)', 'a Symbol', 'the element itself', 'a template holding an object whose toString throws'].includes(f.name))) {
    it(`${form.name}: the conversation reopened from a store is drawn, with the default card for that call`, async () => {
      const store = createSessionStore({ name: `hostile-renderer-${crypto.randomUUID()}` });
      stores.push(store);
      await store.append('w', [
        { role: 'user', content: 'weather' },
        {
          role: 'assistant',
          content: 'Before.',
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'get_weather', arguments: form.args ?? '{"city": "Paris"}' } },
            { id: 'b', type: 'function', function: { name: 'other', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: form.result ?? '{"temp": 18}' },
        { role: 'tool', tool_call_id: 'b', content: 'fine' },
        { role: 'assistant', content: 'After.' },
      ]);
      await store.rename('w', 'Weather');
      const { el, errors } = await watched(form, (c) => (c.store = store));
      await until(() => $(el, '[part="session-open"]') !== null, 'the conversation list');
      $<HTMLButtonElement>(el, '[part="session-open"]')!.click();
      await until(() => answers(el).includes('After.'), 'the reopened conversation');
      expect(answers(el)).toEqual(['Before.', 'After.']);
      expect(cards(el)).toEqual([['get_weather', 'default'], ['b', 'custom']]);
      expectOneError(errors, form);
    });
  }

  it("the element guide's renderer draws arguments and results of any shape, as text", async () => {
    const errors: string[] = [];
    const el = await chatFixture((c) => {
      c.renderers = { get_weather: readmeWeatherNow };
      c.addEventListener('pagent-error', (e) => errors.push(e.detail.error.message));
    });
    await renderersLoaded(el);
    const odd = ['{"city": {"nodeType": 1, "toString": 1}}', '{"city": ["<img src=x onerror=alert(1)>"]}', '{"city": 42}', '[1, 2]', 'not json'];
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'w' } },
      ...odd.map((args, i) => weatherCall(`odd${i}`, args)),
      weatherCall('paris', '{"city": "<img src=x onerror=alert(1)>"}'),
    ]);
    await pushAll(el, [...odd.map((_, i) => resultOf(`odd${i}`, 'get_weather', '{"temp": {"valueOf": 1}}')), resultOf('paris', 'get_weather', '{"temp": 18}')]);
    expect($$(el, '.weather').map((n) => n.textContent!.replace(/\s+/g, ' ').trim())).toEqual([
      ...odd.map(() => '… ok'),
      '<img src=x onerror=alert(1)> 18°',
    ]);
    expect($(el, '.weather img')).toBeNull();
    expect(errors).toEqual([]);
    // the guide writes it so
    const section = GUIDE.slice(GUIDE.indexOf('## Tool calls rendered by the page'));
    const block = section.slice(section.indexOf('```ts'), section.indexOf('```\n', section.indexOf('```ts') + 5));
    for (const line of [
      "const city = typeof args?.city === 'string' ? args.city : '…';",
      "const temp = typeof data?.temp === 'number' ? `${data.temp}°` : call.status;",
      'return html`<div class="weather"><strong>${city}</strong> ${temp}</div>`;',
    ]) expect(block).toContain(line);
  });

  it('while the element is off the page, moves neither what holds it nor the page into a card', async () => {
    const errors: string[] = [];
    const el = await chatFixture((c) => {
      c.renderers = { holder: () => c.parentElement!, page: () => document.body };
      c.addEventListener('pagent-error', (e) => errors.push(e.detail.error.message));
    });
    await renderersLoaded(el);
    const holder = document.createElement('div');
    document.body.append(holder);
    holder.append(el);
    await el.updateComplete;
    holder.remove();
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'w' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'a', name: 'holder', arguments: '{}' } },
      { method: 'ToolCallBegin', params: { tool_call_id: 'b', name: 'page', arguments: '{}' } },
    ]);
    expect(document.body.isConnected).toBe(true);
    expect(holder.parentNode).toBeNull();
    expect(cards(el)).toEqual([['holder', 'default'], ['page', 'default']]);
    expect(errors).toHaveLength(2);
    for (const message of errors) expect(message).toMatch(/failed: its output holds a node that is on the page already/);
  });

  it('reports a failing call once, not at each of its states', async () => {
    let mode: 'throw' | 'draw' = 'throw';
    const errors: string[] = [];
    const el = await chatFixture((c) => {
      c.renderers = { get_weather: (call) => { if (mode === 'throw') throw new Error('not yet'); return html`<b class="drawn">${call.status}</b>`; } };
      c.addEventListener('pagent-error', (e) => errors.push(e.detail.error.message));
    });
    await renderersLoaded(el);
    await pushAll(el, [{ method: 'RunBegin', params: { user_input: 'w' } }, weatherCall('a')]);
    el.push({ method: 'TextDelta', params: { text: 'x' } });
    await pushAll(el, [resultOf('a', 'get_weather', '{}')]);
    expect(errors).toEqual(['The renderer of tool "get_weather" failed: Error: not yet']);
    mode = 'draw';
    await pushAll(el, [weatherCall('b')]);
    expect($(el, '.drawn')!.textContent).toBe('pending');
    expect(cards(el).map(([, kind]) => kind)).toEqual(['default', 'custom']);
  });

  it('keeps a tool name of a megabyte out of the message: it is cut', async () => {
    const name = 'n'.repeat(1_000_000);
    const errors: string[] = [];
    const el = await chatFixture((c) => {
      c.renderers = { '*': () => { throw new Error('x'.repeat(1_000_000)); } };
      c.addEventListener('pagent-error', (e) => errors.push(e.detail.error.message));
    });
    await renderersLoaded(el);
    await pushAll(el, [{ method: 'RunBegin', params: { user_input: 'w' } }, { method: 'ToolCallBegin', params: { tool_call_id: 'a', name, arguments: '{}' } }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.length).toBeLessThan(600);
    expect(errors[0]).toMatch(/^The renderer of tool "n{200}…" failed: Error: x{190,}…$/);
  });
});
