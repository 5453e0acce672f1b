/**
 * What an `Agent` with a `store` does to keep its conversation there: restore it before the first run,
 * queue the saves of every turn in the background, and decide what a failed save leads to (see
 * `AgentOptions.store`). The agent loads this module by `import()` when it is created with a store, so an
 * agent without one never downloads it.
 */
// Types only: a value import of errors.ts (which the agent's own chunk holds) would make bundlers split it
// into a chunk of its own that every agent loads; the agent hands the error classes in.
import type { PagentError, StoreError } from '../../errors.js';
import type { AgentStore } from '../agent.js';
import type { ChatMessage } from '../messages.js';
import type { Session } from './session.js';
import type { InterruptedTurn } from '../../store/turn-pieces.js';
import type { WireEvent } from '../../wire/events.js';
import { InFlightSave } from './in-flight-save.js';

/** The agent as its saver sees it: the conversation and its store key, both as they are now. */
export interface SaverHost {
  readonly session: Session;
  readonly sessionId: string | undefined;
}

/** The error classes the saver reports with (those of errors.ts). */
export interface SaverErrors {
  PagentError: typeof PagentError;
  StoreError: typeof StoreError;
}

// errorMessage() of errors.ts, written out: a value import of errors.ts from this lazy chunk would make bundlers
// split errors.ts into a chunk of its own that every page loads.
const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The result an interrupted turn's call gets when the turn is stored without finishing it. */
export const INTERRUPTED_TOOL_TEXT = 'error: interrupted before the tool finished';

/**
 * An interrupted turn as messages: the assistant message (its text so far, reasoning, calls) and a result
 * for each call, {@link INTERRUPTED_TOOL_TEXT} for a call without one; none when it has no text and no
 * call (reasoning alone is not kept).
 */
export function interruptedMessages(turn: InterruptedTurn): ChatMessage[] {
  const { content, reasoning, calls, results } = turn;
  if (content === '' && calls.length === 0) return [];
  const assistant: ChatMessage = { role: 'assistant', content: calls.length > 0 && content === '' ? null : content };
  if (calls.length > 0) assistant.tool_calls = calls;
  if (reasoning !== '') assistant.reasoning_content = reasoning;
  return [assistant, ...calls.map((call): ChatMessage => ({ role: 'tool', tool_call_id: call.id, content: results[call.id]?.content ?? INTERRUPTED_TOOL_TEXT }))];
}

/** The saving state of one agent: what is stored, what waits, and the queue of saves. */
export class SessionSaver {
  /** Messages the runs added that the store does not have yet (the agent pushes each one it adds). */
  unsaved: ChatMessage[] = [];
  private restored = false;
  /** The store's seq of each stored message of the session, in order (while known). */
  private seqs: number[] = [];
  /** The seq the next append follows: `null` a new first message, `undefined` the store's head. */
  private tip: number | null | undefined;
  /** The stored copy is gone: the next save rewrites the whole session. */
  private saveWhole = false;
  /** A failure retrying cannot heal: nothing more is saved for the current id. */
  private saveStopped = false;
  /** The save queue's last task, while one is pending. */
  private saving: Promise<void> | undefined;
  /** The store holds this conversation, or a save of it is under way (restored, or a run saved a turn). */
  private hasStored = false;
  /** The messages waiting are only those of failed runs of a conversation not stored yet. */
  private heldBack = false;
  /**
   * The turn a run of this conversation left in flight (the page was reloaded, crashed or closed), read
   * with the conversation; the next run continues it or stores it as it is ({@link SessionSaver.carry}).
   */
  interrupted: InterruptedTurn | undefined;
  /** The in-flight save, with a store that saves turns in flight. */
  readonly inFlight: InFlightSave | undefined;

  // a private field: the agent's own JSON (which holds its saver) does not loop back to the agent
  readonly #host: SaverHost;

  constructor(
    host: SaverHost,
    private readonly store: AgentStore,
    private readonly onStoreError: ((error: PagentError) => void) | undefined,
    private readonly errors: SaverErrors,
  ) {
    this.#host = host;
    const { savePieces } = store;
    if (savePieces) {
      this.inFlight = new InFlightSave(
        {
          get sessionId() {
            return host.sessionId;
          },
          // (messages held back by a failed run of a conversation never stored stay held back)
          hasUnsaved: () => !this.heldBack && (this.unsaved.length > 0 || this.saveWhole),
          enqueue: (task) => this.enqueue(task),
          commit: (sessionId) => {
            this.heldBack = false;
            this.hasStored = true;
            return this.flush(sessionId);
          },
          report: (err, sessionId) => this.report(err, sessionId),
        },
        { savePieces: savePieces.bind(store), inFlightSaveMs: store.inFlightSaveMs },
      );
    }
  }

  /** A message the run added: stored with the next save. */
  add(message: ChatMessage): void {
    this.unsaved.push(message);
  }

  /** One event of the run in flight, for the in-flight save. */
  observe(event: WireEvent): void {
    this.inFlight?.observe(event);
  }

  /**
   * The interrupted turn, for the run about to start: a run that continues it (`continuing`) gets it;
   * any other run first adds it to the conversation as it stands ({@link interruptedMessages}), so the
   * history it sends is whole. Either way it is no longer held.
   */
  carry(continuing: boolean): InterruptedTurn | undefined {
    const turn = this.interrupted;
    this.interrupted = undefined;
    if (!turn || continuing) return turn;
    this.settle(turn);
    return undefined;
  }

  /**
   * Adds an interrupted turn to the conversation as it stands ({@link interruptedMessages}) and returns it
   * as the events of a turn (`TurnBegin` 0 … `TurnEnd`): what a run that goes on from it shows first.
   */
  settle(turn: InterruptedTurn): WireEvent[] {
    const messages = interruptedMessages(turn);
    for (const message of messages) {
      this.#host.session.append(message);
      this.unsaved.push(message);
    }
    if (messages.length === 0) return [];
    const events: WireEvent[] = [{ method: 'TurnBegin', params: { turn: 0 } }];
    if (turn.reasoning !== '') events.push({ method: 'ReasoningDelta', params: { text: turn.reasoning } });
    if (turn.content !== '') events.push({ method: 'TextDelta', params: { text: turn.content } });
    for (const call of turn.calls) {
      const result = turn.results[call.id];
      events.push(
        { method: 'ToolCallBegin', params: { tool_call_id: call.id, name: call.function.name, arguments: call.function.arguments } },
        { method: 'ToolResult', params: { tool_call_id: call.id, name: call.function.name, content: result?.content ?? INTERRUPTED_TOOL_TEXT, ok: result?.ok ?? false } },
      );
    }
    events.push({ method: 'TurnEnd', params: { turn: 0, stopped: false, stop_reason: 'continuing' } });
    return events;
  }

  /**
   * Restores the stored conversation once, before the first run; returns the failure, if any. `read`: the
   * store's `load` of the conversation, when the agent already started it.
   */
  async restore(read?: ReturnType<AgentStore['load']>): Promise<PagentError | undefined> {
    const sessionId = this.#host.sessionId;
    if (this.restored || !sessionId) return undefined;
    // a conversation reopened right after its last turn: read it once its queued saves have landed
    await this.whenSaved();
    const { session } = this.#host;
    try {
      if (session.messages.length === 0) {
        const [saved, turn] = await Promise.all([read ?? this.store.load(sessionId), this.store.loadTurn?.(sessionId).catch(() => undefined)]);
        for (const message of saved?.messages ?? []) session.append(message);
        this.seqs = saved?.seqs ? [...saved.seqs] : [];
        this.tip = this.seqs.at(-1);
        this.hasStored = saved !== undefined;
        this.interrupted = turn;
      } else this.hasStored = true;
      this.restored = true;
      return undefined;
    } catch (err) {
      const { PagentError } = this.errors;
      return new PagentError(`Could not restore session '${sessionId}': ${errorText(err)}`, {
        code: err instanceof PagentError ? err.code : 'store',
        where: 'store',
        cause: err,
      });
    }
  }

  /** Settles once every save queued so far has settled (saves run in the background, one at a time, in order). */
  async whenSaved(): Promise<void> {
    while (this.saving) await this.saving;
  }

  /**
   * Saves what the runs added, in the background: saving never holds back the event stream (a blocked
   * database would otherwise delay every `TurnEnd` by the store's open timeout). Saves run one at a time,
   * in order; an idle queue starts the save at once.
   */
  queue(): void {
    this.heldBack = false;
    this.hasStored = true;
    const sessionId = this.#host.sessionId;
    this.enqueue(() => this.flush(sessionId));
  }

  /**
   * After a failed run: a conversation not stored yet is not created by it (a wrong key would leave a
   * conversation of one unanswered message in every list): its messages wait for a run that succeeds.
   */
  failed(): void {
    if (this.hasStored) this.queue();
    else this.heldBack = true;
  }

  /**
   * Before the agent switches to another conversation: the messages not saved for the current one are
   * retried once, after the saves already queued for it; then saving starts afresh for the next id.
   */
  leave(): void {
    const { store } = this;
    const host = this.#host;
    const previousId = host.sessionId;
    const unsaved = this.unsaved;
    this.unsaved = [];
    // a conversation that was never stored and only failed is left unstored (see failed())
    const onlyFailed = this.heldBack && !this.hasStored;
    if (previousId && !this.saveStopped && !onlyFailed && (unsaved.length > 0 || this.saveWhole)) {
      const whole = this.saveWhole && store.save ? host.session.toJSON() : undefined;
      // after the saves already queued for that id, so the stored conversation keeps its order
      this.enqueue(() =>
        (whole && store.save ? store.save(previousId, { toJSON: () => whole }) : store.append(previousId, unsaved)).then(
          () => undefined,
          (err: unknown) => this.report(err, previousId),
        ),
      );
    }
    this.saveWhole = false;
    this.saveStopped = false;
    this.hasStored = false;
    this.heldBack = false;
    this.restored = false;
    this.seqs = [];
    this.tip = undefined;
    this.interrupted = undefined;
    this.inFlight?.reset();
  }

  /**
   * After the conversation was replaced as a whole (a back end sent it): the next save rewrites the
   * stored copy (with the store's `save`) instead of appending to it.
   */
  rewrite(): void {
    this.unsaved = [];
    this.saveWhole = true;
    this.hasStored = true;
    this.interrupted = undefined;
  }

  /** After the agent kept the first `count` messages: the next save branches from the last one kept. */
  rewound(count: number): void {
    this.unsaved = [];
    // the interrupted turn followed the messages dropped (its pieces go with the next save)
    this.interrupted = undefined;
    this.inFlight?.reset();
    this.seqs.length = Math.min(this.seqs.length, count);
    this.tip = count === 0 ? null : this.seqs[count - 1];
  }

  private enqueue(task: () => Promise<void>): void {
    const next = this.saving ? this.saving.then(task) : task();
    this.saving = next;
    void next.finally(() => {
      if (this.saving === next) this.saving = undefined;
    });
  }

  /**
   * Saves the messages added since the last save: appends them, or rewrites the whole session once the
   * stored copy was deleted. A store failure is not a run failure; see `AgentOptions.store` for what each
   * `StoreError` reason leads to. Does nothing once the agent moved away from `sessionId` ({@link leave}
   * took that id's unsaved messages).
   */
  private async flush(sessionId: string | undefined): Promise<void> {
    const { store } = this;
    const host = this.#host;
    if (sessionId !== host.sessionId) return;
    if (!sessionId || this.saveStopped) {
      this.unsaved = [];
      return;
    }
    if (this.unsaved.length === 0 && !this.saveWhole) return;
    const batch = this.unsaved;
    this.unsaved = [];
    let failure = await this.write(sessionId, batch);
    if (failure === undefined) return;
    this.report(failure.error, sessionId);
    if (sessionId !== host.sessionId) return;
    const { StoreError } = this.errors;
    const reason = failure.error instanceof StoreError ? failure.error.reason : undefined;
    if ((reason === 'deleted' || reason === 'not-found') && store.save && !this.saveWhole) {
      this.saveWhole = true;
      failure = await this.write(sessionId, batch);
      if (failure === undefined) return;
      this.report(failure.error, sessionId);
      if (sessionId !== host.sessionId) return;
    }
    // retrying the same save later can succeed after `quota`, `blocked`, or an error that is not a StoreError
    const err = failure.error;
    if (err instanceof StoreError && err.reason !== 'quota' && err.reason !== 'blocked') {
      this.saveStopped = true;
      this.saveWhole = false;
      this.unsaved = [];
      return;
    }
    this.unsaved = batch.concat(this.unsaved);
  }

  /** One save attempt: the whole session when the stored copy is gone, else the batch. */
  private async write(sessionId: string, batch: ChatMessage[]): Promise<{ error: unknown } | undefined> {
    const { store } = this;
    const whole = this.saveWhole && store.save !== undefined;
    try {
      if (whole) {
        // cleared first: a rewrite asked for while this save is under way is done by the next one
        this.saveWhole = false;
        await store.save!(sessionId, this.#host.session);
        this.seqs = [];
        this.tip = undefined;
      } else {
        const done = (await store.append(sessionId, batch, this.tip === undefined ? undefined : { parent: this.tip })) as { from?: number } | undefined;
        const from = done?.from;
        if (typeof from === 'number' && batch.length > 0) {
          batch.forEach((_, i) => this.seqs.push(from + i));
          this.tip = from + batch.length - 1;
        }
      }
      // the write removed the pieces of the turn in flight
      this.inFlight?.stored();
      return undefined;
    } catch (error) {
      if (whole) this.saveWhole = true;
      return { error };
    }
  }

  private report(err: unknown, sessionId: string): void {
    const { onStoreError } = this;
    if (!onStoreError) return;
    const { PagentError } = this.errors;
    const error =
      err instanceof PagentError
        ? err
        : new PagentError(`Could not save session '${sessionId}': ${errorText(err)}`, { code: 'store', where: 'store', cause: err });
    try {
      onStoreError(error);
    } catch {
      // the app's handler must not fail the run
    }
  }
}
