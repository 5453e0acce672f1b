// RemoteAgent against an AG-UI agent that validates every request with @ag-ui/core's RunAgentInputSchema
// and writes every event through EventSchema and @ag-ui/encoder (test/server/remote-ag-ui.ts), in Chromium.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RemoteAgent, type RemoteInterrupt } from '../../../src/agent/remote/remote-agent.js';
import { tool } from '../../../src/agent/tools/tools.js';
import { createSessionStore } from '../../../src/store/session-store.js';
import type { ParamsOf, WireEvent } from '../../../src/wire/events.js';
import { expectValidHistory } from '../../helpers/history.js';
import type { AgUiRequestLog } from '../../server/remote-ag-ui.js';

const api = inject('apiUrl');
const url = `${api}/remote/ag-ui`;

async function collect(events: AsyncIterable<WireEvent>): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}
const paramsOf = <M extends WireEvent['method']>(events: WireEvent[], method: M): ParamsOf<M>[] =>
  events.filter((e) => e.method === method).map((e) => e.params as ParamsOf<M>);
const answerOf = (events: WireEvent[]): string => paramsOf(events, 'TextDelta').map((p) => p.text).join('');
type Input = { threadId: string; runId: string; messages: Array<Record<string, unknown>>; tools: unknown[]; state: unknown; resume?: unknown[] };
const logOf = async (id: string): Promise<Array<AgUiRequestLog & { body: Input }>> =>
  (await (await fetch(`${api}/remote/log/ag-ui?id=${encodeURIComponent(id)}`)).json()) as Array<AgUiRequestLog & { body: Input }>;

function expectOneRun(events: WireEvent[]): void {
  expect(events[0]?.method).toBe('RunBegin');
  expect(events.filter((e) => e.method === 'RunEnd')).toHaveLength(1);
  expect(events.at(-1)?.method).toBe('RunEnd');
  const begins = paramsOf(events, 'TurnBegin').map((p) => p.turn);
  expect(begins).toEqual(begins.map((_, i) => i));
}

const seen: string[] = [];
const agentFor = (options: Partial<ConstructorParameters<typeof RemoteAgent>[0]> = {}): RemoteAgent => {
  const agent = new RemoteAgent({ url, protocol: 'ag-ui', ...options });
  seen.push(agent.sessionId);
  return agent;
};

afterAll(async () => {
  // every request of every test passed RunAgentInputSchema
  let requests = 0;
  for (const id of seen) {
    const log = await logOf(id);
    requests += log.length;
    expect(log.filter((l) => !l.valid).map((l) => l.error)).toEqual([]);
  }
  expect(requests).toBeGreaterThan(12);
});

describe('RemoteAgent over an AG-UI agent', () => {
  it('sends RunAgentInput with the whole conversation: one threadId, a new runId per request', async () => {
    const agent = agentFor();
    expect(answerOf(await collect(agent.events('My name is Ada.')))).toBe('Heard "My name is Ada.". Earlier: nothing; answers: 0; tool results: 0.');
    const second = await collect(agent.events('What is my name?'));
    expectOneRun(second);
    expect(answerOf(second)).toBe('Heard "What is my name?". Earlier: My name is Ada.; answers: 1; tool results: 0.');
    const log = await logOf(agent.sessionId);
    expect(log.map((l) => l.body.threadId)).toEqual([agent.sessionId, agent.sessionId]);
    expect(new Set(log.map((l) => l.body.runId)).size).toBe(2);
    expect(log[1]!.body.messages.map((m) => [m['role'], m['content']])).toEqual([
      ['user', 'My name is Ada.'],
      ['assistant', 'Heard "My name is Ada.". Earlier: nothing; answers: 0; tool results: 0.'],
      ['user', 'What is my name?'],
    ]);
    expect(log[1]!.body).toMatchObject({ tools: [], context: [], forwardedProps: {}, state: {} });
  });

  it("a server tool's call and result are one run of two turns, and go back as toolCalls and a tool message", async () => {
    const agent = agentFor();
    const events = await collect(agent.events('What is the weather in Oslo?'));
    expectOneRun(events);
    expect(answerOf(events)).toBe('Checking.It is 18 °C in Oslo.');
    expect(paramsOf(events, 'ToolResult').map((p) => [p.name, p.content])).toEqual([['get_weather', '{"city":"Oslo","celsius":18}']]);
    expectValidHistory(agent.session.messages);
    await collect(agent.events('Thanks'));
    const log = await logOf(agent.sessionId);
    const [, assistant, result] = log[1]!.body.messages;
    expect(assistant).toMatchObject({ role: 'assistant', content: 'Checking.', toolCalls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] });
    expect(result).toMatchObject({ role: 'tool', toolCallId: (assistant!['toolCalls'] as Array<{ id: string }>)[0]!.id, content: '{"city":"Oslo","celsius":18}' });
  });

  it('offers the page tools in RunAgentInput.tools, runs the one the agent calls, and sends its result back', async () => {
    let runs = 0;
    const location = tool({ name: 'get_location', description: "The user's location", parameters: { type: 'object', properties: {} }, execute: () => (runs++, 'Lyon') });
    const agent = agentFor({ tools: [location] });
    const events = await collect(agent.events('Where am I?'));
    expectOneRun(events);
    expect(runs).toBe(1);
    expect(answerOf(events)).toBe('You are in Lyon.');
    const log = await logOf(agent.sessionId);
    expect(log).toHaveLength(2);
    expect(log[0]!.body.tools).toEqual([{ name: 'get_location', description: "The user's location", parameters: { type: 'object', properties: {} } }]);
    expect(log[1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Lyon' });
    expectValidHistory(agent.session.messages);
  });

  it('a tool_call interrupt goes through approve() and the run resumes with {approved}', async () => {
    for (const approved of [true, false]) {
      const asked: unknown[] = [];
      const agent = agentFor({ approve: (call) => (asked.push(call), approved) });
      const events = await collect(agent.events('Please delete notes.txt'));
      expectOneRun(events);
      expect(asked).toEqual([{ tool_call_id: expect.any(String), name: 'delete_file', arguments: '{"path":"notes.txt"}' }]);
      expect(answerOf(events)).toBe(approved ? 'Deleted notes.txt.' : 'Not deleted.');
      expect(paramsOf(events, 'ToolResult').map((p) => [p.name, p.content])).toEqual([['delete_file', approved ? 'deleted notes.txt' : 'denied by the user']]);
      const log = await logOf(agent.sessionId);
      expect(log[1]!.body.resume).toEqual([{ interruptId: expect.any(String), status: 'resolved', payload: { approved } }]);
      expectValidHistory(agent.session.messages);
    }
  });

  it('an input_required interrupt goes to interrupt() with its schema and resumes with the answer', async () => {
    const questions: RemoteInterrupt[] = [];
    const agent = agentFor({ interrupt: (q) => (questions.push(q), { name: 'Ada', age: 36, color: 'green', subscribe: true }) });
    const events = await collect(agent.events('Ask me who I am'));
    expectOneRun(events);
    expect(questions).toEqual([expect.objectContaining({ reason: 'input_required', message: 'Who are you?', responseSchema: expect.objectContaining({ required: ['name'] }) })]);
    expect(answerOf(events)).toBe('Thanks, Ada (36, green, subscribed: true).');
  });

  it('a question nobody answers is cancelled; an expired one ends the run and is cancelled with the next message', async () => {
    const agent = agentFor();
    expect(answerOf(await collect(agent.events('Ask me who I am')))).toBe('Cancelled.');
    const expired = await collect(agent.events('This is expired'));
    expectOneRun(expired);
    expect(paramsOf(expired, 'RunError')).toEqual([expect.objectContaining({ message: expect.stringContaining('expired at') })]);
    const next = await collect(agent.events('hello again'));
    expect(paramsOf(next, 'RunError')).toEqual([]);
    const log = await logOf(agent.sessionId);
    expect(log.at(-1)!.body.resume).toEqual([{ interruptId: expect.any(String), status: 'cancelled' }]);
  });

  it('a confirmation interrupt shows as a card of its own and resumes with the answer', async () => {
    const agent = agentFor({ approve: () => true });
    const events = await collect(agent.events('Please confirm'));
    expectOneRun(events);
    expect(paramsOf(events, 'ToolCallBegin')).toEqual([{ tool_call_id: expect.any(String), name: 'confirmation', arguments: '{"message":"Proceed?"}' }]);
    expect(answerOf(events)).toBe('Confirmed.');
    // the card is not part of the conversation
    expect(agent.session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('keeps the shared state from STATE_SNAPSHOT and STATE_DELTA and sends it back with the next run', async () => {
    const states: unknown[] = [];
    const agent = agentFor({ state: { count: 10 }, onState: (s) => states.push(s) });
    expect(answerOf(await collect(agent.events('count please')))).toBe('Count is 11.');
    expect(agent.state).toEqual({ count: 11, last: 'count please' });
    expect(states).toEqual([{ count: 11 }, { count: 11, last: 'count please' }]);
    expect(answerOf(await collect(agent.events('count again')))).toBe('Count is 12.');
    const log = await logOf(agent.sessionId);
    expect(log.map((l) => l.body.state)).toEqual([{ count: 10 }, { count: 11, last: 'count please' }]);
  });

  it('a patch that fails leaves the state unchanged and reports a decode problem; the run goes on', async () => {
    const problems: unknown[] = [];
    const agent = agentFor({ state: { a: 1 }, onDecodeError: (e) => problems.push(e) });
    const events = await collect(agent.events('bad patch'));
    expectOneRun(events);
    expect(answerOf(events)).toBe('Patched.');
    expect(agent.state).toEqual({ a: 1 });
    expect(problems).toEqual([expect.objectContaining({ code: 'decode', message: expect.stringContaining('state patch') })]);
  });

  it('MESSAGES_SNAPSHOT replaces the conversation (and the stored copy)', async () => {
    const store = createSessionStore({ name: `remote-ag-ui-${crypto.randomUUID()}` });
    const id = crypto.randomUUID();
    const agent = agentFor({ store, sessionId: id });
    await collect(agent.events('first'));
    await collect(agent.events('take a snapshot'));
    expect(agent.session.messages).toEqual([
      { role: 'user', content: 'take a snapshot' },
      { role: 'assistant', content: 'Trimmed.' },
    ]);
    await agent.whenSaved();
    expect((await store.load(id))?.messages).toEqual(agent.session.messages);
    await store.delete(id);
  });

  it('Stop mid-answer ends the run cancelled with the partial answer kept', async () => {
    const agent = agentFor();
    const controller = new AbortController();
    const events: WireEvent[] = [];
    for await (const event of agent.events('something slow', { signal: controller.signal })) {
      events.push(event);
      if (event.method === 'TextDelta') controller.abort();
    }
    expectOneRun(events);
    expect(events.at(-1)).toMatchObject({ params: { stop_reason: 'cancelled', content: 'Slow ' } });
    expect(agent.session.messages.at(-1)).toEqual({ role: 'assistant', content: 'Slow ' });
  });

  it("sends the user's files as AG-UI image and document parts", async () => {
    const agent = agentFor();
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==';
    const pdf = 'data:application/pdf;base64,JVBERi0xLjQK';
    const events = await collect(agent.events([{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: png } }, { type: 'file', file: { filename: 'a.pdf', file_data: pdf } }]));
    expect(answerOf(events)).toContain('Heard "Look"');
    const log = await logOf(agent.sessionId);
    expect(log[0]!.body.messages[0]!['content']).toEqual([
      { type: 'text', text: 'Look' },
      { type: 'image', source: { type: 'data', value: png.slice(png.indexOf(',') + 1), mimeType: 'image/png' } },
      { type: 'document', source: { type: 'data', value: 'JVBERi0xLjQK', mimeType: 'application/pdf' }, metadata: { filename: 'a.pdf' } },
    ]);
  });

  it("runs the page tool's hooks: a before hook that denies keeps the tool from running and the agent hears why", async () => {
    let runs = 0;
    const location = tool({ name: 'get_location', description: 'Where', parameters: { type: 'object', properties: {} }, execute: () => (runs++, 'Lyon') });
    const agent = agentFor({ tools: [location], hooks: { before: [() => ({ deny: 'location is private' })] } });
    const events = await collect(agent.events('Where am I?'));
    expectOneRun(events);
    expect(runs).toBe(0);
    expect(paramsOf(events, 'ToolResult')).toEqual([expect.objectContaining({ ok: false, content: expect.stringContaining('location is private') })]);
    expect(answerOf(events)).toContain('location is private');
  });

  it('a steered message goes with the next request of the run', async () => {
    const location = tool({ name: 'get_location', description: 'Where', parameters: { type: 'object', properties: {} }, execute: () => 'Lyon' });
    const agent = agentFor({ tools: [location] });
    const steered: string[] = [];
    const events: WireEvent[] = [];
    for await (const event of agent.events('Where am I?', { onSteer: (t) => steered.push(t) })) {
      events.push(event);
      if (event.method === 'ToolCallBegin') agent.steer('Also: hello');
    }
    expectOneRun(events);
    expect(steered).toEqual(['Also: hello']);
    const log = await logOf(agent.sessionId);
    expect(log.at(-1)!.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'Also: hello' });
    expect(answerOf(events)).toContain('Heard "Also: hello"');
  });

  it("a request the agent refuses (400) shows the agent's message and loses nothing", async () => {
    const agent = agentFor({ body: (body) => ({ ...body, messages: 'not a list' }) });
    const events = await collect(agent.events('hello'));
    expectOneRun(events);
    expect(paramsOf(events, 'RunError')).toEqual([expect.objectContaining({ code: 'http', status: 400, message: expect.stringContaining('Invalid RunAgentInput') })]);
    expect(agent.session.messages).toEqual([{ role: 'user', content: 'hello' }]);
    // this agent's requests are meant to fail validation: not counted with the others
    seen.splice(seen.indexOf(agent.sessionId), 1);
  });
});
