/**
 * `renderers`: the page renders tool calls from their live state; once per state change, every call of a
 * turn shown, the default card (and a `pagent-error`) when a renderer throws, approval kept available.
 */
import { html } from 'lit';
import { describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { PagentChat, ToolCallState } from '../../../src/chat/element.js';
import type { WireEvent } from '../../../src/wire/events.js';
import { Agent, type AgentModel, type AgentModelEvent } from '../../../src/agent/agent.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { $, $$, END, answers, chatFixture, pushAll, renderersLoaded, until } from './helpers.js';

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

const begin = (id: string, args: string, name = 'get_weather'): WireEvent => ({ method: 'ToolCallBegin', params: { tool_call_id: id, name, arguments: args } });
const result = (id: string, content: string, ok = true, name = 'get_weather'): WireEvent => ({
  method: 'ToolResult', params: { tool_call_id: id, name, content, ok, elapsed_ms: 120 },
});

/** A weather card, as the demo draws it. */
function weatherCard(call: ToolCallState): ReturnType<typeof html> {
  const args = call.arguments as { city?: string } | undefined;
  const data = call.resultJson as { temp?: number; unit?: string; sky?: string } | undefined;
  return html`<div class="weather" data-call=${call.tool_call_id} data-state=${call.status}>
    <strong>${args?.city ?? '?'}</strong>
    ${call.status === 'ok' && data ? html`<span class="temp">${data.temp}°${data.unit === 'fahrenheit' ? 'F' : 'C'}</span> <span>${data.sky}</span>` : html`<span class="state">${call.status}</span>`}
  </div>`;
}

describe('tool renderers', () => {
  it('renders each call with its state, again on each change, once per state, two calls in one turn', async () => {
    const seen: Array<[string, string]> = [];
    const el = await chatFixture((c) => {
      c.renderers = {
        get_weather: (call) => {
          seen.push([call.tool_call_id, call.status]);
          return weatherCard(call);
        },
      };
    });
    await renderersLoaded(el);
    await pushAll(el, [{ method: 'RunBegin', params: { user_input: 'weather' } }, { method: 'TurnBegin', params: { turn: 0 } }]);
    await pushAll(el, [begin('a', '{"city": "Paris"}'), begin('b', '{"city": "<img src=x onerror=alert(1)>"}')]);
    expect($$(el, '.weather').map((n) => [n.dataset['call'], n.dataset['state']])).toEqual([['a', 'pending'], ['b', 'pending']]);
    // unrelated text does not call renderers again
    for (const t of ['The ', 'weather ', 'is…']) await pushAll(el, [{ method: 'TextDelta', params: { text: t } }]);
    await pushAll(el, [result('a', '{"temp": 18, "unit": "celsius", "sky": "clear"}')]);
    await pushAll(el, [result('b', 'no such city', false)]);
    expect(seen).toEqual([['a', 'pending'], ['b', 'pending'], ['a', 'ok'], ['b', 'failed']]);
    expect($(el, '.weather[data-call="a"] .temp')!.textContent).toBe('18°C');
    // the hostile city is text, not markup
    expect($(el, '.weather[data-call="b"] strong')!.textContent).toBe('<img src=x onerror=alert(1)>');
    expect($(el, '.weather img')).toBeNull();
    expect($$(el, '[part~="tool-call"]').map((n) => n.dataset['status'])).toEqual(['ok', 'failed']);
  });

  it('shows each status a pushed stream gives: pending, ok, failed, cancelled', async () => {
    const states: string[] = [];
    const el = await chatFixture((c) => {
      c.renderers = { '*': (call) => (states.push(`${call.name}:${call.status}`), html`<i class="s">${call.status}</i>`) };
    });
    await renderersLoaded(el);
    await pushAll(el, [{ method: 'RunBegin', params: { user_input: 'x' } }, begin('1', '{}', 'one')]);
    await pushAll(el, [result('1', 'fine', true, 'one')]);
    await pushAll(el, [begin('2', '{}', 'two')]);
    await pushAll(el, [result('2', 'boom', false, 'two')]);
    await pushAll(el, [begin('3', '{}', 'three')]);
    el.push({ method: 'RunEnd', params: { ...END, stop_reason: 'cancelled' } });
    await el.updateComplete;
    expect(states).toEqual(['one:pending', 'one:ok', 'two:pending', 'two:failed', 'three:pending', 'three:cancelled']);
    expect($$(el, '.s').map((n) => n.textContent)).toEqual(['ok', 'failed', 'cancelled']);
  });

  it('approval through a custom renderer (approved and denied), with the default controls beside it', async () => {
    const ran: string[] = [];
    const states: string[] = [];
    const remove = tool({
      name: 'remove_file', description: 'Deletes a file', needsApproval: true,
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute: (args: { path: string }) => (ran.push(args.path), `removed ${args.path}`),
    });
    const el = await chatFixture((c) => {
      c.renderers = {
        remove_file: (call) => (states.push(`${call.tool_call_id}:${call.status}`), html`<div class="confirm" data-call=${call.tool_call_id} data-state=${call.status}>
          Delete <b>${(call.arguments as { path: string }).path}</b>?
          ${call.status === 'awaiting-approval' ? html`<button class="yes" @click=${() => call.approve()}>Yes</button><button class="no" @click=${() => call.deny()}>No</button>` : ''}
        </div>`),
      };
    });
    await renderersLoaded(el);
    el.agent = new Agent({
      llm: scriptedModel([{ calls: [['c1', 'remove_file', '{"path": "a.txt"}'], ['c2', 'remove_file', '{"path": "b.txt"}']] }, { text: ['Done.'] }]),
      tools: [remove],
    });
    el.send('Delete a.txt and b.txt');
    await until(() => $(el, '.confirm[data-call="c1"] .yes') !== null, 'the custom approval button');
    // the default controls are there too
    expect($(el, '[part="approve-button"]')).not.toBeNull();
    expect(ran).toEqual([]);
    $<HTMLButtonElement>(el, '.confirm[data-call="c1"] .yes')!.click();
    await until(() => $(el, '.confirm[data-call="c2"] .no') !== null, 'the second call asks');
    $<HTMLButtonElement>(el, '.confirm[data-call="c2"] .no')!.click();
    await until(() => answers(el).at(-1) === 'Done.', 'the final answer');
    expect(ran).toEqual(['a.txt']);
    expect($$(el, '.confirm').map((n) => [n.dataset['call'], n.dataset['state']])).toEqual([['c1', 'ok'], ['c2', 'denied']]);
    expect($(el, '[part="approve-button"]')).toBeNull();
    expect(states.filter((x) => x.startsWith('c1'))).toContain('c1:awaiting-approval');
    expect(states.at(-1)).toBe('c2:denied');
  });

  it('shows the default card and reports an error when a renderer throws', async () => {
    const el = await chatFixture((c) => {
      c.renderers = { get_weather: () => { throw new Error('bad renderer'); } };
    });
    await renderersLoaded(el);
    const errors: string[] = [];
    el.addEventListener('pagent-error', (e) => errors.push(`${e.detail.error.code}: ${e.detail.error.message}`));
    await pushAll(el, [{ method: 'RunBegin', params: { user_input: 'w' } }, begin('a', '{"city": "Paris"}')]);
    expect($$(el, '[part~="tool-call"]')).toHaveLength(1);
    expect($(el, '[part="tool-name"]')!.textContent).toBe('get_weather');
    expect(errors).toEqual(['render: The renderer of tool "get_weather" failed: Error: bad renderer']);
  });

  it('screenshot: the weather card', async () => {
    const el = await chatFixture((c) => {
      c.theme = 'light';
      c.style.width = '520px';
      c.renderers = { get_weather: weatherCard };
    });
    await renderersLoaded(el);
    await pushAll(el, [
      { method: 'RunBegin', params: { user_input: 'Weather in Paris?' } },
      begin('a', '{"city": "Paris"}'),
      result('a', '{"temp": 18, "unit": "celsius", "sky": "clear"}'),
      { method: 'TextDelta', params: { text: 'It is 18 °C and clear in Paris.' } },
      { method: 'RunEnd', params: { ...END, stop_reason: 'no_tool_calls' } },
    ]);
    await until(() => $(el, '.weather .temp') !== null, 'the card');
    await page.viewport(600, 500);
    await page.screenshot({ element: el, path: '../../../test-results/screens/weather-card.png' });
  });
});

export type { PagentChat };
