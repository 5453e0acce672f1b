// issue 10, item 5: everything the agent emits or stores is redacted, tool faults and results included.
import { describe, expect, inject, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { LLM } from '../../../src/agent/llm/llm.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { fileTextPart } from '../../../src/chat/attachments/prepare.js';
import type { ChatAttachment } from '../../../src/chat/attachments/types.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import type { WireEvent } from '../../../src/wire/events.js';
import type { ScriptedResponse } from '../../server/replay.js';
import { $$, answers, chatFixture, until } from '../chat/helpers.js';

const api = inject('apiUrl');
const KEY = 'sk-proj-Q9x2LmA7vB3nR8tY1wZ4';

const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }],
});
const toolCall = (id: string, name: string, args: string): ScriptedResponse => ({
  chunks: [chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }] }), chunk({}, 'tool_calls')],
});
// the model echoes the key back too, split across deltas
const text = (...parts: string[]): ScriptedResponse => ({ chunks: [chunk({ role: 'assistant', content: '' }), ...parts.map((p) => chunk({ content: p })), chunk({}, 'stop')] });

async function scripted(responses: ScriptedResponse[]) {
  const key = crypto.randomUUID();
  await fetch(`${api}/replay/_script/${key}`, { method: 'POST', body: JSON.stringify({ responses }) });
  return {
    llm: new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, apiKey: KEY, retries: 0 }),
    requests: async () => (await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Array<{ messages: ChatMessage[] }>,
  };
}

describe('the agent redacts the API key from everything it emits or stores', () => {
  it('redacts a tool fault and a tool result that contain the key: events, DOM, store, export and the next request', async () => {
    const { llm, requests } = await scripted([
      toolCall('c1', 'fetch_page', '{}'),
      toolCall('c2', 'echo_config', '{}'),
      text('Your key s', 'k-proj-Q9x2LmA7vB3n', 'R8tY1wZ4 was rejected.'),
    ]);
    const fetchPage = tool({
      name: 'fetch_page', description: 'Fetch a page.', parameters: { type: 'object' },
      execute: () => {
        throw new Error(`401 from upstream: Authorization: Bearer ${KEY}`);
      },
    });
    const echoConfig = tool({ name: 'echo_config', description: 'Show config.', parameters: { type: 'object' }, execute: () => ({ apiKey: KEY, model: 'x' }) });
    const store = createSessionStore({ name: `redaction-${crypto.randomUUID()}` });
    const sessionId = 'redaction-1';
    const agent = new Agent({ llm, tools: [fetchPage, echoConfig], store, sessionId });
    const el = await chatFixture((e) => {
      e.agent = agent;
      e.store = store;
    });
    const events: WireEvent[] = [];
    el.addEventListener('pagent-event', (e) => events.push(e.detail.event as WireEvent));
    el.send('Why does my tool fail?');
    await until(() => answers(el).at(-1)?.includes('was rejected.') === true, `the final answer; have ${JSON.stringify(events.map((e) => e.method + JSON.stringify(e.params).slice(0, 150)))}`);
    await until(() => !el.streaming, 'the run to end');

    const results = events.filter((e): e is Extract<WireEvent, { method: 'ToolResult' }> => e.method === 'ToolResult');
    expect(results.map((r) => r.params.content)).toEqual([
      'fetch_page error: 401 from upstream: Authorization: Bearer [redacted]',
      '{"apiKey":"[redacted]","model":"x"}',
    ]);
    expect(answers(el).at(-1)).toBe('Your key [redacted] was rejected.');
    for (const event of events) expect(JSON.stringify(event)).not.toContain(KEY);
    expect(el.shadowRoot!.innerHTML).not.toContain(KEY);
    for (const card of $$(el, '[part~="tool-result"]')) expect(card.textContent).toContain('[redacted]');

    const bodies = await requests();
    expect(bodies).toHaveLength(3);
    expect(JSON.stringify(bodies)).not.toContain(KEY);
    expect(bodies[2]!.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'fetch_page error: 401 from upstream: Authorization: Bearer [redacted]',
      '{"apiKey":"[redacted]","model":"x"}',
    ]);
    await expect.poll(async () => (await store.load(sessionId))?.messages.length).toBe(6);
    const exported = await store.export(sessionId);
    expect(exported).not.toContain(KEY);
    expect(exported).toContain('[redacted]');
    store.close();
  });

  it('redacts the key when the user pastes it into a message, in the event, the session and the store', async () => {
    const { llm, requests } = await scripted([text('Noted.')]);
    const store = createSessionStore({ name: `redaction-${crypto.randomUUID()}` });
    const agent = new Agent({ llm, store, sessionId: 'paste' });
    const events: WireEvent[] = [];
    for await (const e of agent.events(`my key is ${KEY}, is it valid?`)) events.push(e);
    expect(events[0]).toEqual({ method: 'RunBegin', params: { user_input: 'my key is [redacted], is it valid?' } });
    expect(JSON.stringify(await requests())).not.toContain(KEY);
    await expect.poll(async () => (await store.export('paste').catch(() => '')).includes('[redacted]')).toBe(true);
    expect(await store.export('paste')).not.toContain(KEY);
    store.close();
  });
});

describe('steered messages', () => {
  it('redacts the key in a message sent into the run in flight', async () => {
    const { llm, requests } = await scripted([text('One'), text('Two')]);
    const agent = new Agent({ llm });
    const steered: string[] = [];
    const run = agent.events('first', { onSteer: (t) => steered.push(t) });
    const events: WireEvent[] = [];
    for await (const e of run) {
      events.push(e);
      if (e.method === 'RunBegin') agent.steer(`use ${KEY} please`);
    }
    expect(steered).toEqual(['use [redacted] please']);
    expect(JSON.stringify(await requests())).not.toContain(KEY);
    expect(JSON.stringify(agent.session.messages)).not.toContain(KEY);
  });
});

// issue 22, item 9: a key under 24 characters inside a word, its URL-encoded and base64 copies, the user's
// own message and a file's name.
describe('every copy of a short key is redacted, wherever it shows', () => {
  const SHORT = 'sk-Q9x2+LmA7/vB3n'; // 17 characters; "+" and "/" change when URL-encoded
  const copies = [SHORT, encodeURIComponent(SHORT), btoa(`u:${SHORT}`).slice(3, -3), btoa(`u:${SHORT}`).slice(3, -3).replace(/\+/g, '-').replace(/\//g, '_')];
  const expectNoCopy = (text: string, what: string) => {
    for (const copy of copies) expect(text, `${what} holds ${copy}`).not.toContain(copy);
  };
  async function scriptedShort(responses: ScriptedResponse[]) {
    const key = crypto.randomUUID();
    await fetch(`${api}/replay/_script/${key}`, { method: 'POST', body: JSON.stringify({ responses }) });
    return {
      llm: new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, apiKey: SHORT, retries: 0 }),
      requests: async () => (await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Array<{ messages: ChatMessage[] }>,
    };
  }

  it('in the model\'s text: inside a word, URL-encoded, base64 and base64url — DOM, store, export and the next request', async () => {
    const url = encodeURIComponent(SHORT);
    const basic = btoa(`u:${SHORT}`);
    const basicUrl = basic.replace(/\+/g, '-').replace(/\//g, '_');
    const { llm, requests } = await scriptedShort([
      text(`Try x${SHORT.slice(0, 5)}`, `${SHORT.slice(5)}y, or ?key=${url.slice(0, 9)}`, `${url.slice(9)} or Basic ${basic.slice(0, 7)}`, `${basic.slice(7)} or ${basicUrl}.`),
      text('Fine.'),
    ]);
    const store = createSessionStore({ name: `redaction-${crypto.randomUUID()}` });
    const agent = new Agent({ llm, store, sessionId: 'copies' });
    const el = await chatFixture((e) => {
      e.agent = agent;
      e.store = store;
    });
    el.send('How do I call the API?');
    await until(() => !el.streaming && answers(el).length === 1, 'the first answer');
    expect(answers(el)[0]).toMatch(/^Try x\[redacted\]y, or \?key=\[redacted\] or Basic .{0,4}\[redacted\].{0,3} or .{0,4}\[redacted\].{0,3}\.$/);
    el.send('Thanks');
    await until(() => !el.streaming && answers(el).length === 2, 'the second answer');
    expectNoCopy(el.shadowRoot!.innerHTML, 'the DOM');
    await agent.whenSaved();
    expectNoCopy(JSON.stringify(await store.load('copies')), 'the store');
    expectNoCopy(await store.export('copies'), 'the export');
    const bodies = await requests();
    expect(bodies).toHaveLength(2);
    expectNoCopy(JSON.stringify(bodies), 'the requests');
    store.close();
  });

  it('in the user\'s own message and the names of the files sent with it: bubble, chips and the request', async () => {
    const { llm, requests } = await scriptedShort([text('Got them.')]);
    const agent = new Agent({ llm });
    const el = await chatFixture((e) => (e.agent = agent));
    const textFile: ChatAttachment = { name: `notes-${SHORT}.md`, type: 'text/markdown', size: 5, kind: 'text', part: fileTextPart(`notes-${SHORT}.md`, 'hello') };
    const pdf: ChatAttachment = {
      name: `${SHORT}.pdf`, type: 'application/pdf', size: 5, kind: 'file',
      part: { type: 'file', file: { filename: `${SHORT}.pdf`, file_data: 'data:application/pdf;base64,JVBERi0=' } },
    };
    el.send(`my key is x${SHORT}y`, [textFile, pdf]);
    await until(() => !el.streaming && answers(el).length === 1, 'the answer');
    const bubble = $$(el, '[part~="user"] [part~="message-text"]').map((n) => n.textContent ?? '').join('\n');
    expect(bubble).toContain('my key is x[redacted]y');
    // (the chips come from a chunk loaded on first use)
    await expect.poll(() => $$(el, '[part~="attachment-chip"]').map((n) => n.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      expect.stringContaining('notes-[redacted].md'),
      expect.stringContaining('[redacted].pdf'),
    ]);
    expectNoCopy(el.shadowRoot!.innerHTML, 'the DOM');
    const bodies = await requests();
    expectNoCopy(JSON.stringify(bodies), 'the request');
    expect(JSON.stringify(bodies)).toContain('[redacted].pdf');
  });
});
