/**
 * How `<pagent-chat>` drives an in-browser agent: the `ChatAgent` contract, and the ordering of its runs
 * and session switches (an `Agent` runs one run at a time and switches sessions only between runs).
 */
import type { UnknownEvent, WireEvent } from '../../wire/events.js';
import type { RunSource } from './run-controller.js';
import type { UserContentPart } from '../../agent/content-parts.js';
import type { RemoteInterrupt } from '../../agent/remote/protocol.js';
import type { PagentError } from '../../errors.js';

/** A tool call the user is asked to approve (the Agent's `approve(call)` argument). */
export interface ApprovalRequest {
  tool_call_id: string;
  name: string;
  arguments: string;
}

/** Options the element passes to {@link ChatAgent.events} for each run it starts. */
export interface ChatAgentRunOptions {
  /** Aborted when the user stops the run, starts another, or the element leaves the DOM. */
  signal?: AbortSignal;
  /** Shows approve / deny buttons on the call's tool card and resolves with the user's choice. */
  approve?: (call: ApprovalRequest) => Promise<boolean> | boolean;
  /**
   * Shows a question of the agent (a `RemoteAgent`'s back end asked for input: an AG-UI `input_required`
   * interrupt) in the timeline, with a form when its `responseSchema` is a flat object; resolves with the
   * user's answer, or `undefined` when they dismissed it or the run stopped first.
   */
  interrupt?: (request: RemoteInterrupt, options: { signal: AbortSignal }) => Promise<unknown> | unknown;
  /** Told each time the back end changes the shared state (a `RemoteAgent`'s `onState`): dispatched as `pagent-state`. */
  onState?: (state: unknown) => void;
  /** Told of each response document the agent could not decode or apply; the run goes on (the wire log marks it). */
  onDecodeError?: (error: PagentError) => void;
  /** Shows a steered message in the timeline when the agent sends it (the Agent's `onSteer` run option). */
  onSteer?: (text: string) => void;
  /**
   * True when the user pressed Retry on a failed run: `input` is that run's, which the agent already holds
   * (the `Agent` does not append it to the conversation a second time).
   */
  retry?: boolean;
  /**
   * True when the user pressed Continue on an answer a reload, crash or closed tab cut: the agent finishes
   * the turn it restored with the conversation (the Agent's `continue` run option); `input` is `''`.
   */
  continue?: boolean;
}

/** Anything that runs an input to events: the in-browser `Agent` fits. */
export interface ChatAgent {
  events(input: string | UserContentPart[], options?: ChatAgentRunOptions): AsyncIterable<WireEvent | UnknownEvent>;
  /** Optional: the store key of the conversation the next run continues (the Agent's `sessionId`). */
  readonly sessionId?: string | undefined;
  /**
   * Optional: switches the conversation the next run continues (the Agent's `useSession`). The element
   * calls it when a stored conversation is reopened and on "New conversation", never during a run.
   */
  useSession?(sessionId: string | undefined): void;
  /** Optional: sends a message into the run in flight (the Agent's `steer`); enables "send now". */
  steer?(text: string): void;
  /**
   * Optional: keeps the first `count` messages, the next run branching from there (the Agent's `rewind`).
   * With a store that has `loadTree` and `switchBranch`, enables Edit, Regenerate and the version switcher.
   */
  rewind?(count: number): Promise<void>;
  /**
   * Optional: `text` without the agent's secrets (the Agent's `redact`). The element shows the user's
   * message and the names of its files through it, as the agent keeps them.
   */
  redact?(text: string): string;
  /** Optional: settles once the agent's saves have landed (the Agent's `whenSaved`). */
  whenSaved?(): Promise<void>;
  /**
   * Optional: plays the rest of the run that was in flight when the page went (`RemoteAgent.resume`, for AI
   * SDK back ends); yields nothing when there is nothing to resume. The element calls it when it opens a
   * stored conversation whose last run did not finish.
   */
  resume?(options?: { signal?: AbortSignal }): AsyncIterable<WireEvent | UnknownEvent>;
}

/** Orders the runs and session switches an element starts on each agent it drives. */
export class AgentRuns {
  /** Per agent: settles once its last run has closed and its last session switch is done. */
  private readonly idle = new WeakMap<ChatAgent, Promise<void>>();
  /** Per agent: its last pending session switch. */
  private readonly switches = new WeakMap<ChatAgent, Promise<void>>();

  /**
   * Runs `text` on the agent with the element's run options. It starts at once, unless a session switch
   * is pending; an Agent still closing its previous run (saving the cut turn) answers `busy`, and the run
   * then starts once that run has closed.
   */
  source(agent: ChatAgent, text: string | UserContentPart[], options: Omit<ChatAgentRunOptions, 'signal'>): RunSource {
    let closed!: () => void;
    const before = this.whenIdle(agent, new Promise<void>((resolve) => (closed = resolve)));
    const switching = this.switches.has(agent);
    type Iter = AsyncIterator<WireEvent | UnknownEvent>;
    const done = (): IteratorResult<WireEvent | UnknownEvent> => ({ done: true, value: undefined });
    // A hand-written iterator, not an async generator: return() must reach the agent's iterator at once,
    // even while a next() is pending (an async generator would queue it behind that next()).
    return (signal) => {
      let finished = false;
      let waiting = false;
      let first = true;
      const finish = (): void => {
        if (finished) return;
        finished = true;
        closed();
      };
      const runOptions: ChatAgentRunOptions = { ...options, signal };
      const open = (): Iter => agent.events(text, runOptions)[Symbol.asyncIterator]();
      let inner: Iter | undefined = switching ? undefined : open();
      const openWhenIdle = async (): Promise<Iter | undefined> => {
        waiting = true;
        await before;
        waiting = false;
        if (signal.aborted || finished) {
          finish();
          return undefined;
        }
        return (inner = open());
      };
      const nextOf = async (it: Iter): Promise<IteratorResult<WireEvent | UnknownEvent>> => {
        try {
          return await it.next();
        } catch (err) {
          if (!first || (err as { code?: unknown } | null)?.code !== 'busy') throw err;
          inner = undefined;
          const again = await openWhenIdle();
          return again ? again.next() : done();
        }
      };
      return {
        [Symbol.asyncIterator]: () => ({
          async next() {
            const it = inner ?? (await openWhenIdle());
            if (!it) return done();
            try {
              const result = await nextOf(it);
              first = false;
              if (result.done) finish();
              return result;
            } catch (err) {
              finish();
              throw err;
            }
          },
          async return() {
            const it = inner;
            if (!it) {
              if (!waiting) finish();
              return done();
            }
            try {
              await it.return?.();
            } finally {
              finish();
            }
            return done();
          },
        }),
      };
    };
  }

  /** Settles once the agent's runs started so far have closed and its pending session switches are done. */
  settled(agent: ChatAgent): Promise<void> {
    return this.idle.get(agent) ?? Promise.resolve();
  }

  /** Chains `next` after the agent's pending work; returns what was pending before it. */
  private whenIdle(agent: ChatAgent, next: Promise<void>): Promise<void> {
    const before = this.idle.get(agent) ?? Promise.resolve();
    this.idle.set(agent, before.then(() => next));
    return before;
  }

  /**
   * Points the agent at another conversation (`useSession`) once its run in flight, if any, has closed;
   * runs started meanwhile wait for the switch. Failures go to `onError`.
   */
  switchSession(agent: ChatAgent, id: string, onError: (err: unknown) => void): void {
    if (!agent.useSession) return;
    let done!: () => void;
    const switched = new Promise<void>((resolve) => (done = resolve));
    const before = this.whenIdle(agent, switched);
    this.switches.set(agent, switched);
    void before
      .then(() => agent.useSession!(id))
      .catch(onError)
      .finally(() => {
        if (this.switches.get(agent) === switched) this.switches.delete(agent);
        done();
      });
  }
}
