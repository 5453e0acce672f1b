/**
 * Owns the run in flight: opens the event source, feeds every event to the host, aborts on stop or
 * when the host leaves the DOM. Only the newest run may deliver events (an older run's late events
 * are dropped), like Lit `Task`'s call id.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PagentError } from '../../errors.js';
import { emptyStep, type UnknownEvent, type WireEvent } from '../../wire/events.js';
import { currentAnswer } from '../timeline/commands.js';
import { reduceTimeline } from '../timeline/reducer.js';
import type { TimelineState } from '../timeline/items.js';

/** Opens a run's events; must stop (or end the run as cancelled) when `signal` aborts. */
export type RunSource = (signal: AbortSignal) => AsyncIterable<WireEvent | UnknownEvent>;

/** How a run finished, as seen by the controller. */
export interface RunOutcome {
  /** True when `stop()` (or disconnecting) aborted it. */
  readonly aborted: boolean;
  /** What the source threw, if it threw (other than because of the abort). */
  readonly error: unknown;
  /** False when a newer run replaced this one (its outcome should be ignored). */
  readonly current: boolean;
}

/** Callbacks of {@link RunController}. */
export interface RunControllerOptions {
  onEvent(event: WireEvent | UnknownEvent): void;
  onSettled(outcome: RunOutcome): void;
  /**
   * How long a stopped run's source may take to end by itself (sending its own cancelled `RunEnd`)
   * before it is closed.
   * @defaultValue 1000
   */
  stopGraceMs?: () => number;
}

/** The reactive controller behind `<pagent-chat>`'s runs. */
export class RunController implements ReactiveController {
  private abort: AbortController | undefined;
  private id = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: RunControllerOptions,
  ) {
    host.addController(this);
  }

  /** True while a run is in flight (also while a stopped one is still ending). */
  get running(): boolean {
    return this.abort !== undefined;
  }

  /** Starts a run, abandoning the one in flight. Resolves when it settles (never rejects). */
  async start(source: RunSource): Promise<void> {
    this.abandon();
    const id = ++this.id;
    const abort = new AbortController();
    this.abort = abort;
    this.host.requestUpdate();
    let error: unknown;
    let iterator: AsyncIterator<WireEvent | UnknownEvent> | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      iterator = source(abort.signal)[Symbol.asyncIterator]();
      // Stopped: the source gets a grace period to end by itself; abandoned (a newer run): none.
      const cutOff = new Promise<'cut'>((resolve) =>
        abort.signal.addEventListener(
          'abort',
          () => {
            if (id !== this.id) return resolve('cut');
            timer = setTimeout(() => resolve('cut'), this.options.stopGraceMs?.() ?? 1000);
          },
          { once: true },
        ),
      );
      const superseded = new Promise<'cut'>((resolve) => (this.onAbandon = (abandoned) => abandoned === id && resolve('cut')));
      for (;;) {
        // A source that ignores the signal still stops: stop reading and close it.
        const next = await Promise.race([iterator.next(), cutOff, superseded]);
        if (next === 'cut') {
          void iterator.return?.()?.catch(() => undefined);
          break;
        }
        if (next.done) break;
        if (id !== this.id) {
          void iterator.return?.()?.catch(() => undefined);
          break;
        }
        this.options.onEvent(next.value);
      }
    } catch (err) {
      if (!abort.signal.aborted) error = err;
    } finally {
      clearTimeout(timer);
      const current = id === this.id;
      if (current) this.abort = undefined;
      this.options.onSettled({ aborted: abort.signal.aborted, error, current });
      if (current) this.host.requestUpdate();
    }
  }

  private onAbandon: ((id: number) => void) | undefined;

  /** Stops the run in flight, if any: its source may still deliver its last events (its own `RunEnd`). */
  stop(): void {
    this.abort?.abort();
  }

  /** Aborts the run in flight, if any, and drops whatever it still sends; its outcome is not current. */
  abandon(): void {
    const abort = this.abort;
    if (!abort) return;
    this.abort = undefined;
    const id = this.id++;
    abort.abort();
    this.onAbandon?.(id);
  }

  private connected = false;

  hostConnected(): void {
    this.connected = true;
  }

  /**
   * Leaving the DOM aborts the run, so nothing keeps streaming into a detached element; a move (removed and
   * inserted again in the same task, as `other.append(el)` does) is not a leave, so it waits one task.
   */
  hostDisconnected(): void {
    this.connected = false;
    setTimeout(() => {
      if (!this.connected) this.stop();
    });
  }
}

/**
 * The events that close a run its source left open, given the timeline as the run settled: none when
 * no run is open; `RunEnd{cancelled}` after a stop; else the source's failure as a `RunError` (unless the
 * run already carries one) and `RunEnd{error}`. A source that ended before its run began (stopped before
 * the server's first line, or it sent nothing) first gets a `RunBegin`, so the user's message still gets
 * an ending, never a bare bubble. The answer streamed so far becomes the `RunEnd`'s content.
 */
export function eventsClosingRun(timeline: TimelineState, outcome: Pick<RunOutcome, 'aborted' | 'error'>): WireEvent[] {
  const events: WireEvent[] = [];
  if (!timeline.runOpen && timeline.sentPending) {
    const begin: WireEvent = { method: 'RunBegin', params: { user_input: timeline.input ?? '' } };
    events.push(begin);
    timeline = reduceTimeline(timeline, begin);
  }
  if (!timeline.runOpen) return events;
  const empty = { ...emptyStep(), content: currentAnswer(timeline) };
  if (outcome.aborted) return [...events, { method: 'RunEnd', params: { ...empty, stop_reason: 'cancelled' } }];
  const { error } = outcome;
  const message = error instanceof Error ? error.message : 'The source ended before its run did (no RunEnd)';
  const code = error instanceof PagentError ? error.code : error === undefined ? 'truncated' : 'network';
  if (!runFailed(timeline)) events.push({ method: 'RunError', params: { message, code } });
  return [...events, { method: 'RunEnd', params: { ...empty, stop_reason: 'error' } }];
}

/** True when the open run already has its `RunError`. */
function runFailed({ items, run }: TimelineState): boolean {
  for (let i = items.length - 1; i >= 0 && items[i]!.run === run; i--) if (items[i]!.kind === 'error') return true;
  return false;
}
