/**
 * The conversation an agent (`Agent`, `RemoteAgent`) continues: its session, its store key and, with a
 * store, the saver (./persistence.ts) that restores it before the first run and saves what the runs add.
 */
import { PagentError, StoreError, errorMessage } from '../../errors.js';
import type { AgentStore } from '../agent.js';
import type { UserContentPart } from '../content-parts.js';
import type { ChatMessage } from '../messages.js';
import type { SessionSaver } from './persistence.js';
import { Session } from './session.js';
import type { ToolApprovalRequest } from '../tools/tools.js';
import type { WireEvent } from '../../wire/events.js';
import type { InterruptedTurn } from '../../store/turn-pieces.js';

/** Options of a {@link Conversation}. */
export interface ConversationOptions {
  session?: Session | undefined;
  store?: AgentStore | undefined;
  sessionId?: string | undefined;
  onStoreError?: ((error: PagentError) => void) | undefined;
  /** The agent's class name, for error messages. */
  owner: string;
}

/**
 * One conversation and its saving: messages are added with {@link Conversation.add} and saved in the
 * background by {@link Conversation.save}; see `AgentOptions.store` for what a failed save leads to.
 */
export class Conversation {
  session: Session;
  sessionId: string | undefined;
  private readonly store: AgentStore | undefined;
  private readonly owner: string;
  /** With a `store`: its saver, loading from the constructor on. */
  private readonly saverLoad: Promise<SessionSaver> | undefined;
  /** The saver, once loaded (every run waits for it before it adds a message). */
  private saver: SessionSaver | undefined;

  constructor(options: ConversationOptions) {
    this.session = options.session ?? new Session();
    this.sessionId = options.sessionId;
    this.owner = options.owner;
    const { store } = options;
    if (store && !options.sessionId) throw new TypeError(`${this.owner}: a store needs a sessionId`);
    this.store = store;
    if (store) {
      // loaded now, not at the first run, so that the first run does not wait for it
      this.saverLoad = import('./persistence.js').then(
        (m) => (this.saver = new m.SessionSaver(this, store, options.onStoreError, { PagentError, StoreError })),
      );
      // a failed load is reported by the first run (as a failed restore)
      this.saverLoad.catch(() => undefined);
    }
  }

  /**
   * Restores the stored conversation once, before the first run; returns the failure, if any. Waits for
   * the saver to load: no message is added before it is there.
   */
  async restore(): Promise<PagentError | undefined> {
    const { saver, saverLoad } = this;
    if (saver) return saver.restore();
    if (!saverLoad) return undefined;
    try {
      // The first run may come before the saver has loaded: the stored conversation is read at once all
      // the same, so that the run continues it as it is when the run starts.
      const read = this.session.messages.length > 0 ? undefined : this.store!.load(this.sessionId!);
      read?.catch(() => undefined); // handled by the saver
      return (await saverLoad).restore(read);
    } catch (err) {
      // a store whose load throws at once, or a saver that could not be loaded
      const message = `Could not restore session '${this.sessionId}': ${errorMessage(err)}`;
      return new PagentError(message, { code: err instanceof PagentError ? err.code : 'store', where: 'store', cause: err });
    }
  }

  /** Appends a message to the session; the next {@link Conversation.save} stores it. */
  add(message: ChatMessage): void {
    this.session.append(message);
    this.saver?.add(message);
  }

  /** One event of the run in flight: with a store that saves turns in flight, its pieces are saved as they come. */
  observe(event: WireEvent): void {
    this.saver?.observe(event);
  }

  /** The run is over: none of its pieces stay in the store. */
  ended(): void {
    this.saver?.inFlight?.ended();
  }

  /** `approve`, telling the in-flight save which call waits for the user (a reload shows it waiting again). */
  asking<A extends ((call: ToolApprovalRequest) => unknown) | undefined>(approve: A): A {
    const inFlight = this.saver?.inFlight;
    return (approve && inFlight ? (call: ToolApprovalRequest) => (inFlight.asked(call.tool_call_id), approve(call)) : approve) as A;
  }

  /**
   * The turn a run of this conversation left in flight (restored with it), for the run about to start:
   * returned to a run that continues it, added to the history as it stands for any other run.
   */
  carry(continuing: boolean): InterruptedTurn | undefined {
    return this.saver?.carry(continuing);
  }

  /** Adds an interrupted turn to the history as it stood; returns it as a turn's events (see `SessionSaver.settle`). */
  settle(turn: InterruptedTurn): WireEvent[] {
    return this.saver?.settle(turn) ?? [];
  }

  /** Saves what was added since the last save, in the background (see `SessionSaver.queue`). */
  save(): void {
    this.saver?.queue();
  }

  /** After a failed run: its messages wait for a run that succeeds when nothing was stored yet. */
  failed(): void {
    this.saver?.failed();
  }

  /** Replaces the whole history (the stored copy is rewritten at the next save). */
  replace(messages: readonly ChatMessage[]): void {
    this.session.clear();
    for (const message of messages) this.session.append(message);
    this.saver?.rewrite();
  }

  /** Switches to another conversation (see `Agent.useSession`). */
  use(sessionId: string | undefined, session?: Session): void {
    if (this.store && !sessionId) throw new TypeError(`${this.owner}: a store needs a sessionId`);
    this.saver?.leave();
    if (session) this.session = session;
    else this.session.clear();
    this.sessionId = sessionId;
  }

  /** Keeps the first `count` messages; the next save branches from the last one kept (see `Agent.rewind`). */
  async rewind(count: number): Promise<void> {
    const failed = await this.restore();
    if (failed) throw failed;
    await this.whenSaved();
    const kept = this.session.messages.slice(0, count);
    this.session.clear();
    for (const message of kept) this.session.append(message);
    this.saver?.rewound(count);
  }

  /** Settles once every save queued so far has settled. */
  async whenSaved(): Promise<void> {
    await this.saver?.whenSaved();
  }

  /** True when the last user message is `input` and no final answer followed it (a failed run's input). */
  awaitsAnswer(input: string | readonly UserContentPart[]): boolean {
    const messages = this.session.messages;
    const same = (content: string | UserContentPart[]): boolean =>
      typeof input === 'string' ? content === input : typeof content !== 'string' && JSON.stringify(content) === JSON.stringify(input);
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i]!;
      if (m.role === 'user') return same(m.content);
      if (m.role === 'assistant' && !(m.tool_calls && m.tool_calls.length > 0)) return false;
    }
    return false;
  }
}
