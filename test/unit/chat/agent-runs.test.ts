import { describe, expect, it } from 'vitest';
import { AgentRuns, type ChatAgent } from '../../../src/chat/runs/agent-runs.js';
import type { UnknownEvent, WireEvent } from '../../../src/wire/events.js';

type Ev = WireEvent | UnknownEvent;
const approve = async (): Promise<boolean> => true;
const begin = (input: string): WireEvent => ({ method: 'RunBegin', params: { user_input: input } });

/** An agent that, like `Agent`, refuses a second run while one is open, and logs what it is asked. */
function fakeAgent(log: string[]): ChatAgent & { release(): void } {
  let open = false;
  let release: () => void = () => undefined;
  return {
    release: () => release(),
    useSession(id) {
      if (open) throw Object.assign(new Error('busy'), { code: 'busy' });
      log.push(`useSession ${id}`);
    },
    events(input) {
      return (async function* (): AsyncGenerator<Ev> {
        if (open) throw Object.assign(new Error('Agent is already running'), { code: 'busy' });
        open = true;
        log.push(`run ${input}`);
        try {
          yield begin(input as string);
          await new Promise<void>((resolve) => (release = resolve));
        } finally {
          log.push(`closed ${input}`);
          open = false;
        }
      })();
    },
  };
}

/** Lets pending promise callbacks run. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

async function drain(iterable: AsyncIterable<Ev>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of iterable) out.push(e.method);
  return out;
}

describe('AgentRuns', () => {
  it('starts a run that an agent refuses as busy again once the previous run has closed', async () => {
    const log: string[] = [];
    const agent = fakeAgent(log);
    const runs = new AgentRuns();
    const first = runs.source(agent, 'one', { approve })(new AbortController().signal)[Symbol.asyncIterator]();
    expect((await first.next()).value).toEqual(begin('one'));
    const second = drain(runs.source(agent, 'two', { approve })(new AbortController().signal));
    await settle();
    expect(log).toEqual(['run one']);
    const closing = first.next();
    await settle();
    agent.release();
    expect(await closing).toEqual({ done: true, value: undefined });
    await settle();
    expect(log).toEqual(['run one', 'closed one', 'run two']);
    agent.release();
    expect(await second).toEqual(['RunBegin']);
    expect(log).toEqual(['run one', 'closed one', 'run two', 'closed two']);
  });

  it('applies a session switch only after the run in flight closed, and starts later runs after the switch', async () => {
    const log: string[] = [];
    const agent = fakeAgent(log);
    const runs = new AgentRuns();
    const errors: unknown[] = [];
    const abort = new AbortController();
    const first = runs.source(agent, 'one', { approve })(abort.signal)[Symbol.asyncIterator]();
    await first.next();
    runs.switchSession(agent, 'B', (err) => errors.push(err));
    const later = runs.source(agent, 'two', { approve })(new AbortController().signal)[Symbol.asyncIterator]();
    const laterFirst = later.next();
    abort.abort();
    await first.return!();
    expect((await laterFirst).value).toEqual(begin('two'));
    expect(log).toEqual(['run one', 'closed one', 'useSession B', 'run two']);
    expect(errors).toEqual([]);
    await later.return!();
  });

  it('closes the agent\'s iterator on return() even while a next() is pending', async () => {
    let returned = 0;
    const agent: ChatAgent = {
      events: () => ({
        [Symbol.asyncIterator]: () => ({
          next: () => new Promise<IteratorResult<Ev>>(() => undefined),
          return: async () => {
            returned++;
            return { done: true, value: undefined };
          },
        }),
      }),
    };
    const it = new AgentRuns().source(agent, 'q', { approve })(new AbortController().signal)[Symbol.asyncIterator]();
    void it.next();
    expect(await it.return!()).toEqual({ done: true, value: undefined });
    expect(returned).toBe(1);
  });

  it('never starts a run that was stopped while it waited for a switch', async () => {
    const log: string[] = [];
    const agent = fakeAgent(log);
    const runs = new AgentRuns();
    const first = runs.source(agent, 'one', { approve })(new AbortController().signal)[Symbol.asyncIterator]();
    await first.next();
    runs.switchSession(agent, 'B', () => undefined);
    const abort = new AbortController();
    const waiting = runs.source(agent, 'never', { approve })(abort.signal)[Symbol.asyncIterator]();
    const pending = waiting.next();
    abort.abort();
    await waiting.return!();
    await first.return!();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(log).toEqual(['run one', 'closed one', 'useSession B']);
  });
});
