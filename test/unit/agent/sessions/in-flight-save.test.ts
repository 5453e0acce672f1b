import { describe, expect, it } from 'vitest';
import { Agent, type AgentModel, type AgentModelEvent, type AgentModelRequest } from '../../../../src/agent/agent.js';
import type { ChatMessage } from '../../../../src/agent/messages.js';
import { tool } from '../../../../src/agent/tools/tools.js';
import type { WireEvent } from '../../../../src/wire/events.js';
import { expectValidHistory } from '../../../helpers/history.js';
import { call } from '../scripted-model.js';
import { pieceStore } from './piece-store.js';

// a macrotask: the in-flight save's timers run between two deltas
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const never = new Promise<never>(() => undefined);

/** One step of {@link pacedModel}: text deltas (a macrotask apart), tool calls, or a stop that never ends (the page dies). */
interface PacedStep {
  reasoning?: string[];
  text?: string[];
  toolCalls?: ReturnType<typeof call>[];
  /** After the deltas, the stream hangs forever: the page is killed while the model is still answering. */
  hang?: boolean;
}

/** A model that streams each delta a macrotask after the last (so timers run between them) and records its requests. */
function pacedModel(steps: PacedStep[] | ((n: number, request: AgentModelRequest) => PacedStep)): AgentModel & { requests: ChatMessage[][] } {
  const requests: ChatMessage[][] = [];
  return {
    requests,
    async *stream(request): AsyncGenerator<AgentModelEvent> {
      const n = requests.length;
      requests.push(structuredClone(request.messages));
      const step = typeof steps === 'function' ? steps(n, request) : steps[n];
      if (!step) throw new Error(`no step #${n + 1}`);
      for (const text of step.reasoning ?? []) {
        await tick();
        yield { type: 'reasoning', text };
      }
      for (const text of step.text ?? []) {
        await tick();
        yield { type: 'text', text };
      }
      if (step.hang) await never;
      yield {
        type: 'step',
        step: { content: (step.text ?? []).join(''), reasoning_content: (step.reasoning ?? []).join(''), tool_calls: step.toolCalls ?? [], finish_reason: step.toolCalls ? 'tool_calls' : 'stop', usage: null },
      };
    },
  };
}

/** Runs `agent.events()` in the background until `until` says the page is to be killed; the run is never ended (no finally runs). */
async function runUntilKilled(events: AsyncIterable<WireEvent>, until: () => boolean): Promise<WireEvent[]> {
  const seen: WireEvent[] = [];
  const it = events[Symbol.asyncIterator]();
  const pump = (async () => {
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      seen.push(next.value);
    }
  })();
  void pump;
  await expect.poll(until, { timeout: 30_000, interval: 5 }).toBe(true);
  return seen;
}

const words = (n: number, prefix = 'w'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i} `);

describe('the turn in flight is saved as it streams', () => {
  it('keeps the answer streamed so far in pieces, each write holding only the text new since the last', async () => {
    const { store, held, counts } = pieceStore(0);
    const text = words(40);
    const agent = new Agent({ llm: pacedModel([{ text, hang: true }]), store, sessionId: 's' });
    await runUntilKilled(agent.events('tell me'), () => held('s').filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('') === text.join(''));
    const pieces = held('s');
    // the user's message was stored when the answer began; the answer is in pieces, each character once
    expect((await store.load('s'))!.messages).toEqual([{ role: 'user', content: 'tell me' }]);
    expect(pieces.every((p) => p.type === 'text')).toBe(true);
    expect(counts.charsWritten).toBe(text.join('').length);
    expect(counts.pieceWrites).toBeLessThanOrEqual(text.length);
  });

  it('writes each character of the answer once however long it grows (100 and 10,000 deltas)', async () => {
    const perDelta = async (n: number): Promise<{ charsPerChar: number; piecesPerWrite: number }> => {
      const { store, counts, held } = pieceStore(0);
      const text = words(n);
      const agent = new Agent({ llm: pacedModel([{ text, hang: true }]), store, sessionId: 's' });
      await runUntilKilled(agent.events('go'), () => held('s').reduce((sum, p) => sum + (p.type === 'text' ? p.text.length : 0), 0) === text.join('').length);
      return { charsPerChar: counts.charsWritten / text.join('').length, piecesPerWrite: counts.piecesWritten / counts.pieceWrites };
    };
    const small = await perDelta(100);
    const large = await perDelta(10_000);
    // bytes written per delta do not grow with the answer: every character is written exactly once
    expect(small.charsPerChar).toBe(1);
    expect(large.charsPerChar).toBe(1);
    expect(large.piecesPerWrite).toBe(1);
  }, 60_000);

  it('a new agent on the same store (a reloaded page) continues the interrupted answer: the request carries it and the stored answer is whole', async () => {
    const { store, held, messages } = pieceStore(0);
    const first = new Agent({ llm: pacedModel([{ reasoning: ['thinking… '], text: ['The answer ', 'is '], hang: true }]), store, sessionId: 's' });
    await runUntilKilled(first.events('question'), () => held('s').some((p) => p.type === 'text' && p.text.includes('is ')));

    const llm = pacedModel([{ text: ['42.'] }]);
    const again = new Agent({ llm, store, sessionId: 's' });
    const events: WireEvent[] = [];
    for await (const e of again.events('', { continue: true })) events.push(e);
    expect(events[0]).toEqual({ method: 'RunBegin', params: { user_input: '' } });
    // the partial answer is the request's last message, for the model to continue
    expect(llm.requests[0]!.slice(-2)).toEqual([
      { role: 'user', content: 'question' },
      { role: 'assistant', content: 'The answer is ', reasoning_content: 'thinking… ' },
    ]);
    // the run's text is the whole answer: the interrupted part first
    expect(events.filter((e) => e.method === 'TextDelta').map((e) => e.params.text).join('')).toBe('The answer is 42.');
    expect(events.at(-1)).toMatchObject({ method: 'RunEnd', params: { content: 'The answer is 42.', stop_reason: 'no_tool_calls' } });
    await again.whenSaved();
    expect(messages.get('s')).toEqual([
      { role: 'user', content: 'question' },
      { role: 'assistant', content: 'The answer is 42.', reasoning_content: 'thinking… ' },
    ]);
    expect(held('s')).toEqual([]);
  });

  it('a new message after a reload stores the interrupted answer as it stood, before the new message', async () => {
    const { store, held, messages } = pieceStore(0);
    const first = new Agent({ llm: pacedModel([{ text: ['Partial ', 'answer'], hang: true }]), store, sessionId: 's' });
    await runUntilKilled(first.events('q1'), () => held('s').some((p) => p.type === 'text' && p.text.includes('answer')));
    const llm = pacedModel([{ text: ['A2'] }]);
    const again = new Agent({ llm, store, sessionId: 's' });
    await again.run('q2');
    expect(llm.requests[0]).toEqual([
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'Partial answer' },
      { role: 'user', content: 'q2' },
    ]);
    expect(messages.get('s')!.map((m) => m.content)).toEqual(['q1', 'Partial answer', 'q2', 'A2']);
    expect(held('s')).toEqual([]);
  });

  it('a tool round cut mid-way continues with the results that came, and never runs a started call twice', async () => {
    const { store, held, messages } = pieceStore(0);
    let runs = 0;
    const slow = tool({ name: 'slow', description: '', parameters: { type: 'object' }, execute: async () => { runs += 1; return never; } });
    const fast = tool({ name: 'fast', description: '', parameters: { type: 'object' }, execute: () => { runs += 1; return 'fast result'; } });
    const calls = [call('c1', 'fast', '{}'), call('c2', 'slow', '{}'), call('c3', 'fast', '{}')];
    const first = new Agent({ llm: pacedModel([{ text: ['Let me check. '], toolCalls: calls }]), tools: [fast, slow], store, sessionId: 's' });
    await runUntilKilled(first.events('check'), () => held('s').some((p) => p.type === 'result'));
    expect(runs).toBe(2);

    const llm = pacedModel([{ text: ['Done.'] }]);
    const again = new Agent({ llm, tools: [fast, slow], store, sessionId: 's' });
    const events: WireEvent[] = [];
    for await (const e of again.events('', { continue: true })) events.push(e);
    // c1 kept its result, c2 (running when the page died) is not run again, c3 (never started) is not either
    expect(runs).toBe(2);
    const results = events.filter((e) => e.method === 'ToolResult').map((e) => [e.params.tool_call_id, e.params.content, e.params.ok]);
    expect(results).toEqual([
      ['c1', 'fast result', true],
      ['c2', 'error: interrupted before the tool finished', false],
      ['c3', 'error: interrupted before the tool finished', false],
    ]);
    expect(llm.requests).toHaveLength(1);
    expectValidHistory(llm.requests[0]!);
    await again.whenSaved();
    expect(messages.get('s')!.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
    expect(messages.get('s')![1]).toEqual({ role: 'assistant', content: 'Let me check. ', tool_calls: calls });
    expect(held('s')).toEqual([]);
  });

  it('a call waiting for approval when the page died waits again, and approving it runs it and goes on', async () => {
    const { store, held, messages } = pieceStore(0);
    let ran = 0;
    const remind = tool({ name: 'remind', description: '', parameters: { type: 'object' }, needsApproval: true, execute: () => { ran += 1; return 'set'; } });
    const first = new Agent({ llm: pacedModel([{ toolCalls: [call('r1', 'remind', '{"at":"9:00"}')] }]), tools: [remind], store, sessionId: 's', approve: () => never });
    await runUntilKilled(first.events('remind me'), () => held('s').some((p) => p.type === 'approval'));
    expect(await store.loadTurn!('s')).toEqual({ content: '', reasoning: '', calls: [call('r1', 'remind', '{"at":"9:00"}')], results: {}, awaiting: ['r1'] });

    const asked: string[] = [];
    const llm = pacedModel([{ text: ['Reminder set.'] }]);
    const again = new Agent({ llm, tools: [remind], store, sessionId: 's' });
    const end = await again.run('', { continue: true, approve: (c) => (asked.push(c.tool_call_id), true) });
    expect(asked).toEqual(['r1']);
    expect(ran).toBe(1);
    expect(end.content).toBe('Reminder set.');
    expectValidHistory(llm.requests[0]!);
    expect(messages.get('s')!.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(held('s')).toEqual([]);
  });

  it("keeps the user's message of a run whose model is still thinking (no delta yet) once the run has gone on for one window", async () => {
    const { store, messages } = pieceStore(30);
    const agent = new Agent({ llm: pacedModel([{ hang: true }]), store, sessionId: 's' });
    await runUntilKilled(agent.events('a hard question'), () => messages.get('s') !== undefined);
    expect(messages.get('s')).toEqual([{ role: 'user', content: 'a hard question' }]);
  });

  it('stores nothing for a first message whose request is refused at once (a wrong key)', async () => {
    const { store, messages, counts } = pieceStore(30);
    const agent = new Agent({ llm: { async *stream() { throw new Error('HTTP 401: bad key'); } }, store, sessionId: 's' });
    await expect(agent.run('hi')).rejects.toThrow('bad key');
    // (the run is over: nothing it added is stored by the in-flight save from now on)
    expect(messages.get('s')).toBeUndefined();
    expect(counts.appends).toBe(0);
  });

  it('leaves no piece behind a finished, a cancelled or a failed run', async () => {
    const { store, held } = pieceStore(0);
    const agent = new Agent({ llm: pacedModel([{ text: words(5) }]), store, sessionId: 'done' });
    await agent.run('q');
    await expect.poll(() => held('done')).toEqual([]);

    const abort = new AbortController();
    const cancelled = new Agent({ llm: pacedModel([{ reasoning: words(30, 'r') }]), store, sessionId: 'cancelled' });
    const run = (async () => {
      for await (const e of cancelled.events('q', { signal: abort.signal })) if (e.method === 'ReasoningDelta' && e.params.text === 'r20 ') abort.abort();
    })();
    await run;
    await cancelled.whenSaved();
    await expect.poll(() => held('cancelled'), { interval: 5 }).toEqual([]);

    const failing = new Agent({
      llm: { async *stream() { yield { type: 'text', text: 'half' }; await tick(); await tick(); throw new Error('provider down'); } },
      store,
      sessionId: 'failed',
    });
    for await (const _ of failing.events('q')) void _;
    await failing.whenSaved();
    await expect.poll(() => held('failed'), { interval: 5 }).toEqual([]);
  });

  it('leaves no piece behind when the run ends while a write of its pieces is still under way', async () => {
    const { store, held, messages } = pieceStore(0);
    // the write of the answer's second piece hangs until the run is over (a slow database under load)
    let release!: () => void;
    const hung = new Promise<void>((r) => (release = r));
    let writing!: () => void;
    const secondWrite = new Promise<void>((r) => (writing = r));
    let wrote!: () => void;
    const firstWritten = new Promise<void>((r) => (wrote = r));
    const savePieces = store.savePieces!.bind(store);
    store.savePieces = async (id, pieces, at) => {
      if (at === 0 && pieces.length > 0) {
        await savePieces(id, pieces, at);
        return wrote();
      }
      if (at > 0 && pieces.length > 0) {
        writing();
        await hung;
      }
      return savePieces(id, pieces, at);
    };
    const llm: AgentModel = {
      async *stream() {
        await tick();
        yield { type: 'text', text: 'first ' };
        await firstWritten;
        yield { type: 'text', text: 'second' };
        await secondWrite;
        yield { type: 'step', step: { content: 'first second', reasoning_content: '', tool_calls: [], finish_reason: 'stop', usage: null } };
      },
    };
    const agent = new Agent({ llm, store, sessionId: 's' });
    for await (const event of agent.events('q')) void event;
    release();
    await agent.whenSaved();
    await expect.poll(async () => (await agent.whenSaved(), held('s')), { interval: 5 }).toEqual([]);
    expect(messages.get('s')).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'first second' },
    ]);
    // and stays so: nothing written later brings the finished turn's pieces back
    for (let i = 0; i < 20; i++) await tick();
    await agent.whenSaved();
    expect(held('s')).toEqual([]);
  });
});
