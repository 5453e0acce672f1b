// RemoteAgent against a real AI SDK route (test/server/remote-ai-sdk.ts: validateUIMessages,
// convertToModelMessages, streamText over ai/test's mock model, toUIMessageStreamResponse), in Chromium.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RemoteAgent } from '../../../src/agent/remote/remote-agent.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import type { ParamsOf, WireEvent } from '../../../src/wire/events.js';
import { expectValidHistory } from '../../helpers/history.js';
import type { AiSdkRequestLog } from '../../server/remote-ai-sdk.js';

const api = inject('apiUrl');
const url = `${api}/remote/ai-sdk`;

async function collect(events: AsyncIterable<WireEvent>): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}
const paramsOf = <M extends WireEvent['method']>(events: WireEvent[], method: M): ParamsOf<M>[] =>
  events.filter((e) => e.method === method).map((e) => e.params as ParamsOf<M>);
const answerOf = (events: WireEvent[]): string => paramsOf(events, 'TextDelta').map((p) => p.text).join('');
const logOf = async (id: string): Promise<AiSdkRequestLog[]> => (await (await fetch(`${api}/remote/log/ai-sdk?id=${encodeURIComponent(id)}`)).json()) as AiSdkRequestLog[];

/** Every run keeps the termination contract: one RunEnd, last; a RunError only right before the closing events. */
function expectOneRun(events: WireEvent[]): void {
  expect(events[0]?.method).toBe('RunBegin');
  expect(events.filter((e) => e.method === 'RunEnd')).toHaveLength(1);
  expect(events.at(-1)?.method).toBe('RunEnd');
  const begins = paramsOf(events, 'TurnBegin').map((p) => p.turn);
  expect(begins).toEqual(begins.map((_, i) => i));
}

const location = tool({
  name: 'get_location',
  description: "The user's location",
  parameters: { type: 'object', properties: {} },
  execute: () => 'Lyon',
});

const seen: string[] = [];
const agentFor = (options: Partial<ConstructorParameters<typeof RemoteAgent>[0]> = {}): RemoteAgent => {
  const agent = new RemoteAgent({ url, protocol: 'ai-sdk', ...options });
  seen.push(agent.sessionId);
  return agent;
};

afterAll(async () => {
  // every request of every test passed the route's own validation
  let requests = 0;
  for (const id of seen) {
    const log = await logOf(id);
    requests += log.length;
    expect(log.filter((l) => !l.valid).map((l) => l.error)).toEqual([]);
  }
  expect(requests).toBeGreaterThan(10);
});

describe('RemoteAgent over an AI SDK route', () => {
  it("sends the whole conversation every time: the route's model sees earlier user and assistant turns", async () => {
    const agent = agentFor();
    const first = await collect(agent.events('My name is Ada.'));
    expectOneRun(first);
    expect(answerOf(first)).toBe('Heard "My name is Ada.". Earlier: nothing; answers: 0; files: none.');
    const second = await collect(agent.events('What is my name?'));
    expectOneRun(second);
    expect(answerOf(second)).toBe('Heard "What is my name?". Earlier: My name is Ada.; answers: 1; files: none.');
    const log = await logOf(agent.sessionId);
    expect(log).toHaveLength(2);
    expect(log.map((l) => [l.body['id'], l.body['trigger']])).toEqual([
      [agent.sessionId, 'submit-message'],
      [agent.sessionId, 'submit-message'],
    ]);
    const roles = log[1]!.prompts[0]!.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'user']);
  });

  it('shows a server tool as one run of two turns, and keeps its call and result in the history', async () => {
    const agent = agentFor();
    const events = await collect(agent.events('What is the weather in Paris?'));
    expectOneRun(events);
    expect(paramsOf(events, 'ToolCallBegin')).toEqual([{ tool_call_id: expect.any(String), name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(paramsOf(events, 'ToolResult').map((p) => [p.name, p.content, p.ok])).toEqual([['get_weather', '{"city":"Paris","celsius":18}', true]]);
    expect(answerOf(events)).toBe('Checking.It is 18 °C in Paris.');
    expect(events.at(-1)).toMatchObject({ method: 'RunEnd', params: { content: 'It is 18 °C in Paris.', stop_reason: 'no_tool_calls', turn: 1 } });
    expectValidHistory(agent.session.messages);
    expect(agent.session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // the next request carries the call back with its output, as the route's outputSchema wants it
    const next = await collect(agent.events('Thanks'));
    // the route's model sees the step with the call, the tool result and the final step
    expect(answerOf(next)).toContain('answers: 2');
    const log = await logOf(agent.sessionId);
    const parts = (log[1]!.body['messages'] as Array<{ role: string; parts: Array<Record<string, unknown>> }>)[1]!.parts;
    expect(parts.filter((p) => p['type'] !== 'text' && p['type'] !== 'step-start')).toEqual([
      expect.objectContaining({ type: 'tool-get_weather', state: 'output-available', input: { city: 'Paris' }, output: { city: 'Paris', celsius: 18 } }),
    ]);
  });

  it("runs a tool of the page once when the route leaves the call to the client, and the route's model gets its result", async () => {
    let runs = 0;
    const agent = agentFor({ tools: [tool({ ...location, name: 'get_location', execute: () => (runs++, 'Lyon') })] });
    const events = await collect(agent.events('Where am I?'));
    expectOneRun(events);
    expect(runs).toBe(1);
    expect(paramsOf(events, 'ToolResult').map((p) => [p.name, p.content, p.ok])).toEqual([['get_location', 'Lyon', true]]);
    expect(answerOf(events)).toBe('You are in Lyon.');
    expect(paramsOf(events, 'TurnEnd').map((p) => [p.turn, p.stopped, p.stop_reason])).toEqual([
      [0, false, 'continuing'],
      [1, true, 'no_tool_calls'],
    ]);
    const log = await logOf(agent.sessionId);
    expect(log.map((l) => [l.body['trigger'], l.body['messageId']])).toEqual([
      ['submit-message', undefined],
      ['submit-message', `${agent.sessionId}:1`],
    ]);
    const toolPart = (log[1]!.body['messages'] as Array<{ parts: Array<Record<string, unknown>> }>)[1]!.parts.find((p) => p['type'] === 'tool-get_location');
    expect(toolPart).toMatchObject({ state: 'output-available', output: 'Lyon' });
    expectValidHistory(agent.session.messages);
  });

  it("answers pagent's unknown-tool fault for a client call the page has no tool for", async () => {
    const agent = agentFor();
    const events = await collect(agent.events('Where am I?'));
    expectOneRun(events);
    expect(paramsOf(events, 'ToolResult')).toEqual([
      expect.objectContaining({ name: 'get_location', ok: false, content: "error: unknown tool 'get_location'; available: []" }),
    ]);
    const log = await logOf(agent.sessionId);
    const part = (log[1]!.body['messages'] as Array<{ parts: Array<Record<string, unknown>> }>)[1]!.parts.find((p) => p['type'] === 'tool-get_location');
    expect(part).toMatchObject({ state: 'output-error', errorText: "error: unknown tool 'get_location'; available: []" });
  });

  it('asks approve() for a tool-approval-request and sends the answer back in the tool part', async () => {
    const asked: unknown[] = [];
    const agent = agentFor({ approve: (call) => (asked.push(call), true) });
    const events = await collect(agent.events('Please delete notes.txt'));
    expectOneRun(events);
    expect(asked).toEqual([{ tool_call_id: expect.any(String), name: 'delete_file', arguments: '{"path":"notes.txt"}' }]);
    expect(paramsOf(events, 'ToolResult').map((p) => [p.name, p.content, p.ok])).toEqual([['delete_file', 'deleted notes.txt', true]]);
    expect(answerOf(events)).toBe('delete_file: deleted notes.txt.');
    const log = await logOf(agent.sessionId);
    const part = (log[1]!.body['messages'] as Array<{ parts: Array<Record<string, unknown>> }>)[1]!.parts.find((p) => p['type'] === 'tool-delete_file');
    expect(part).toMatchObject({ state: 'approval-responded', approval: { id: expect.any(String), approved: true } });
    // one turn for the call and its result, then the answer
    expect(paramsOf(events, 'TurnBegin').map((p) => p.turn)).toEqual([0, 1]);
    expectValidHistory(agent.session.messages);
  });

  it('a denied approval: the route reports the denial and the model hears it', async () => {
    const agent = agentFor({ approve: () => false });
    const events = await collect(agent.events('Please delete secrets.txt'));
    expectOneRun(events);
    expect(paramsOf(events, 'ToolResult').map((p) => p.ok)).toEqual([false]);
    expect(answerOf(events)).toBe('delete_file was denied.');
    const next = await collect(agent.events('ok'));
    expectOneRun(next);
    const log = await logOf(agent.sessionId);
    const part = (log[2]!.body['messages'] as Array<{ parts: Array<Record<string, unknown>> }>)[1]!.parts.find((p) => p['type'] === 'tool-delete_file');
    expect(part).toMatchObject({ state: 'output-denied', approval: { approved: false } });
  });

  it('regenerate and edit send the right history and trigger', async () => {
    const agent = agentFor();
    await collect(agent.events('one'));
    await collect(agent.events('two'));
    // regenerate the last answer: keep everything up to the last user message, then a retry run
    await agent.rewind(3);
    const again = await collect(agent.events('two', { retry: true }));
    expect(answerOf(again)).toBe('Heard "two". Earlier: one; answers: 1; files: none.');
    // edit the second user message
    await agent.rewind(2);
    const edited = await collect(agent.events('deux'));
    expect(answerOf(edited)).toBe('Heard "deux". Earlier: one; answers: 1; files: none.');
    const log = await logOf(agent.sessionId);
    expect(log.map((l) => [l.body['trigger'], l.body['messageId'], (l.body['messages'] as unknown[]).length])).toEqual([
      ['submit-message', undefined, 1],
      ['submit-message', undefined, 3],
      ['regenerate-message', undefined, 3],
      ['submit-message', `${agent.sessionId}:2`, 3],
    ]);
  });

  it('a stored conversation reopened by a new agent continues with its history', async () => {
    const store = createSessionStore({ name: `remote-ai-sdk-${crypto.randomUUID()}` });
    const id = crypto.randomUUID();
    const first = agentFor({ store, sessionId: id });
    await collect(first.events('Remember: blue.'));
    await first.whenSaved();
    const reopened = agentFor({ store, sessionId: id });
    const events = await collect(reopened.events('Which colour?'));
    expect(answerOf(events)).toBe('Heard "Which colour?". Earlier: Remember: blue.; answers: 1; files: none.');
    await reopened.whenSaved();
    expect((await store.load(id))?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    await store.delete(id);
  });

  it('sends files as file parts the route converts for its model', async () => {
    const agent = agentFor();
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==';
    const events = await collect(agent.events([{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: png } }]));
    expect(answerOf(events)).toBe('Heard "What is this?". Earlier: nothing; answers: 0; files: image/png.');
  });

  it('sends a data: image whose bytes are no raster image as a text part saying so, never as a file', async () => {
    const agent = agentFor();
    const svg = `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"><script>parent.__pwned = 1</script></svg>')}`;
    const parts = [{ type: 'text' as const, text: 'What is this?' }, { type: 'image_url' as const, image_url: { url: svg } }];
    expectOneRun(await collect(agent.events(parts)));
    const [first] = await logOf(agent.sessionId);
    expect((first!.body['messages'] as Array<{ parts: unknown[] }>)[0]!.parts).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'text', text: '[image not sent: its data is not a PNG, JPEG, GIF, WebP or AVIF image]' },
    ]);
    // the conversation keeps the part as it was given
    expect(agent.session.messages[0]).toEqual({ role: 'user', content: parts });
  });

  it('Stop mid-answer: the run ends cancelled, keeps the partial answer, and the next request is valid', async () => {
    const agent = agentFor();
    const controller = new AbortController();
    const events: WireEvent[] = [];
    for await (const event of agent.events('Tell me something slow', { signal: controller.signal })) {
      events.push(event);
      if (event.method === 'TextDelta' && events.filter((e) => e.method === 'TextDelta').length === 2) controller.abort();
    }
    expectOneRun(events);
    expect(events.at(-1)).toMatchObject({ method: 'RunEnd', params: { stop_reason: 'cancelled', content: 'Slow answer ' } });
    expect(agent.session.messages.at(-1)).toEqual({ role: 'assistant', content: 'Slow answer ' });
    const next = await collect(agent.events('and now?'));
    expect(answerOf(next)).toContain('answers: 1');
  });

  it("a 400 from the route ends the run with the route's message and keeps the user's text for Retry", async () => {
    const agent = agentFor();
    const events = await collect(agent.events('[reject] this'));
    expectOneRun(events);
    expect(paramsOf(events, 'RunError')).toEqual([expect.objectContaining({ code: 'http', status: 400, message: expect.stringContaining('The back end rejected this message') })]);
    expect(events.at(-1)).toMatchObject({ params: { stop_reason: 'error' } });
    expect(agent.session.messages).toEqual([{ role: 'user', content: '[reject] this' }]);
    // Retry resends the same message once (not appended twice)
    const again = await collect(agent.events('[reject] this', { retry: true }));
    expect(paramsOf(again, 'RunError')).toHaveLength(1);
    expect(agent.session.messages).toEqual([{ role: 'user', content: '[reject] this' }]);
  });
});

describe('RemoteAgent resumes an AI SDK stream a reload cut', () => {
  it('a new agent on the same conversation asks the resume endpoint and shows the rest; the route generated once; nothing is left to resume after', async () => {
    const name = `remote-resume-${crypto.randomUUID()}`;
    const sessionId = `resume-${crypto.randomUUID()}`;
    const kill = new AbortController();
    // the first page: its connection goes with it (the fetch is aborted, the run is never read again)
    const first = agentFor({
      sessionId,
      store: createSessionStore({ name, inFlightSaveMs: 20 }),
      fetch: (input, init) => fetch(input, { ...init, signal: kill.signal }),
    });
    const events = first.events('Tell me a long story')[Symbol.asyncIterator]();
    let streamed = '';
    while (!/part8 /.test(streamed)) {
      const next = await events.next();
      if (next.value?.method === 'TextDelta') streamed += next.value.params.text;
    }
    const store = createSessionStore({ name });
    await expect.poll(async () => (await store.loadTurn(sessionId))?.content ?? '', { timeout: 5_000 }).toMatch(/^part0 part1 /);
    kill.abort();

    // the reloaded page
    const again = agentFor({ sessionId, store });
    const resumed = await collect(again.resume());
    expectOneRun(resumed);
    expect(resumed[0]).toEqual({ method: 'RunBegin', params: { user_input: '' } });
    const story = Array.from({ length: 40 }, (_, i) => `part${i} `).join('');
    // the route replays its stream from the start, live to its end: every part once, in order
    expect(answerOf(resumed)).toBe(story);
    expect(resumed.at(-1)).toMatchObject({ method: 'RunEnd', params: { stop_reason: 'no_tool_calls' } });
    await again.whenSaved();
    expect((await store.load(sessionId))!.messages).toEqual([
      { role: 'user', content: 'Tell me a long story' },
      { role: 'assistant', content: story },
    ]);
    expect(await store.loadTurn(sessionId)).toBeUndefined();
    // one generation: the resume asked for no new answer
    expect(await logOf(sessionId)).toHaveLength(1);
    // the stream has ended: the endpoint answers 204, and resume() yields nothing
    expect(await collect(agentFor({ sessionId, store }).resume())).toEqual([]);
    store.close();
  });

  it('yields nothing for a conversation with no run in flight (204) and for protocols without a resume endpoint', async () => {
    expect(await collect(agentFor().resume())).toEqual([]);
    expect(await collect(new RemoteAgent({ url: `${api}/remote/ag-ui`, protocol: 'ag-ui' }).resume())).toEqual([]);
  });
});
