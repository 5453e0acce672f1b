/**
 * Saving the turn in flight while it streams (part of the saver chunk, ./persistence.ts): the run's events
 * become pieces (`TurnPiece`: new answer text, new reasoning, a tool call, an approval asked, a tool
 * result) that go to the store's `savePieces` at most once per `inFlightSaveMs`, each write holding only
 * what came since the last one. A reload, a crash or a closed tab then loses at most the last window.
 *
 * The pieces always describe the open turn after the stored conversation: messages the run added that the
 * store does not have yet (the user's message, a finished turn) are stored first, by the conversation's own
 * save, which removes the pieces; the open turn is then written again from its start.
 * A turn's end starts the next one at piece 0, which replaces what the store held.
 */
import type { WireEvent } from '../../wire/events.js';
import type { AgentStore } from '../agent.js';
import type { TurnPiece } from '../../store/turn-pieces.js';

/** What the in-flight save needs from the conversation's saver. */
export interface InFlightHost {
  /** The conversation the pieces belong to, as it is now. */
  readonly sessionId: string | undefined;
  /** True while messages wait to be stored (they go before the pieces). */
  hasUnsaved(): boolean;
  /** Queues `task` after the saves queued so far. */
  enqueue(task: () => Promise<void>): void;
  /** Stores the messages waiting for `sessionId` (the conversation's own save). */
  commit(sessionId: string): Promise<void>;
  /** Reports a failed save (the conversation's `onStoreError`). */
  report(err: unknown, sessionId: string): void;
}

/** The store methods this module uses (present when the store saves turns in flight). */
type PieceStore = Required<Pick<AgentStore, 'savePieces'>> & Pick<AgentStore, 'inFlightSaveMs'>;

/** The in-flight save of one conversation's runs. */
export class InFlightSave {
  /** Pieces not written yet. */
  private buffer: TurnPiece[] = [];
  /** The open turn's pieces the store holds (written again after a save of messages removed them). */
  private written: TurnPiece[] = [];
  /** Where the next piece goes: 0 starts the turn afresh (the store drops what it held). */
  private at = 0;
  /** The store holds pieces of a turn that is over. */
  private stale = false;
  /** Ids of the open turn's calls already in a piece. */
  private calls = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last write was queued (performance.now()). */
  private lastWrite = -Infinity;
  /** A write failed: nothing more is written until the next turn (the failure was reported once). */
  private failed = false;
  /** A run is going: the messages it added are stored with the next write. */
  private running = false;
  /** The run has written nothing yet: its first piece (the model answers) is written at once. */
  private first = false;
  /** Counts the turns that ended: a write that finishes after its turn ended must not change the next turn's state. */
  private turnsOver = 0;
  /** A write of pieces is under way (its turn ending meanwhile leaves them in the store). */
  private writing = false;
  readonly windowMs: number;
  /** Work counters, for tests and benchmarks: writes queued, pieces and characters written. */
  readonly counts = { writes: 0, pieces: 0, chars: 0 };

  constructor(
    private readonly host: InFlightHost,
    private readonly store: PieceStore,
  ) {
    this.windowMs = store.inFlightSaveMs ?? 250;
  }

  /** Takes one event of the run in flight. */
  observe(event: WireEvent): void {
    switch (event.method) {
      case 'TextDelta':
      case 'ReasoningDelta':
        if (event.params.text !== '') this.add({ type: event.method === 'TextDelta' ? 'text' : 'reasoning', text: event.params.text });
        return;
      case 'StepEnd':
        for (const call of event.params.tool_calls) this.addCall(call);
        return;
      case 'ToolCallBegin':
        this.addCall({ id: event.params.tool_call_id, type: 'function', function: { name: event.params.name, arguments: event.params.arguments } });
        return;
      case 'ToolResult':
        this.add({ type: 'result', id: event.params.tool_call_id, content: event.params.content, ok: event.params.ok !== false });
        return;
      case 'RunBegin':
        // The user's message is stored once the run has gone on for one window (a reload while the
        // model thinks keeps it); a request refused at once, as with a wrong key, stores nothing.
        this.running = true;
        this.first = true;
        this.lastWrite = performance.now();
        this.schedule();
        return;
      case 'RunEnd':
        this.running = false;
        this.turnOver();
        return;
      case 'TurnBegin':
      case 'TurnEnd':
        this.turnOver();
    }
  }

  /** The user is asked to approve the call `id`. */
  asked(id: string): void {
    this.add({ type: 'approval', id });
  }

  /** The run is over (also when its consumer stopped reading): the store keeps no piece of it. */
  ended(): void {
    this.running = false;
    this.turnOver();
    this.schedule();
  }

  /** The conversation's messages were stored: that write removed the pieces, so the open turn is written again. */
  stored(): void {
    this.buffer = this.written.concat(this.buffer);
    this.written = [];
    this.at = 0;
    this.stale = false;
  }

  /** Forgets everything (another conversation, a rewind): nothing queued for the old one is written. */
  reset(): void {
    this.turnOver();
    this.stale = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private turnOver(): void {
    if (this.at > 0 || this.written.length > 0 || this.writing) this.stale = true;
    this.turnsOver += 1;
    this.buffer = [];
    this.written = [];
    this.calls = new Set();
    this.at = 0;
    this.failed = false;
  }

  private addCall(call: { id: string; type: 'function'; function: { name: string; arguments: string } }): void {
    if (this.calls.has(call.id)) return;
    this.calls.add(call.id);
    this.add({ type: 'call', call });
  }

  private add(piece: TurnPiece): void {
    const last = this.buffer.at(-1);
    // consecutive deltas of one kind make one piece: a write holds the text since the last write, once
    if (last && (last.type === 'text' || last.type === 'reasoning') && last.type === piece.type) {
      this.buffer[this.buffer.length - 1] = { type: last.type, text: last.text + (piece as { text: string }).text };
    } else this.buffer.push(piece);
    if (this.first) {
      // the model answers: the run is alive, its user's message and first piece go now
      this.first = false;
      this.lastWrite = -Infinity;
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.schedule();
  }

  /** Queues a write once the window since the last one has passed. */
  private schedule(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastWrite + this.windowMs - performance.now());
    this.timer = setTimeout(() => this.fire(), wait);
  }

  /** Queues a write of what waits. */
  private fire(): void {
    this.timer = undefined;
    const sessionId = this.host.sessionId;
    if (!sessionId || (this.buffer.length === 0 && !this.stale && !(this.running && this.host.hasUnsaved()))) return;
    this.lastWrite = performance.now();
    this.host.enqueue(() => this.write(sessionId));
  }

  /** One write: the messages the run added first (when there are), then the new pieces (or, for a turn that is over, none). */
  private async write(sessionId: string): Promise<void> {
    if (sessionId !== this.host.sessionId) return;
    if (this.running && this.host.hasUnsaved()) await this.host.commit(sessionId);
    if (this.failed || (this.buffer.length === 0 && !this.stale)) return;
    const pieces = this.buffer;
    const at = this.at;
    const turn = this.turnsOver;
    this.buffer = [];
    this.writing = true;
    this.counts.writes += 1;
    this.counts.pieces += pieces.length;
    for (const piece of pieces) this.counts.chars += 'text' in piece ? piece.text.length : 'content' in piece ? piece.content.length : 0;
    try {
      await this.store.savePieces(sessionId, pieces, at);
      // the turn ended while this write was under way: its pieces are stale (the next write clears them),
      // and what comes next starts at piece 0
      if (turn !== this.turnsOver) return;
      if (at === 0) this.stale = false;
      this.written.push(...pieces);
      this.at = at + pieces.length;
    } catch (err) {
      // (a failed write of a turn that is over does not stop the next turn's writes)
      if (turn === this.turnsOver) this.failed = true;
      this.host.report(err, sessionId);
    } finally {
      this.writing = false;
    }
  }
}
