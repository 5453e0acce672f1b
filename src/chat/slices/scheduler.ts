/**
 * The slice queue (a chunk loaded on first use): rendering work too big for the current task's budget (a
 * stored 48 MB answer, a highlighted block of 100,000 lines) waits here and runs a slice per task, then
 * yields, so the page keeps painting and answering input in between. A slice ends at the task's character
 * budget ({@link TaskBudget}) or after {@link SLICE_MS} (up to {@link MAX_SLICE_MS} when the frames in
 * between take that long), whichever comes first. Work runs first come first
 * served, so a conversation's messages draw one after another; work whose signal is aborted (its answer
 * was replaced or left the page) is dropped when its turn comes: only what is still wanted runs.
 */
import { taskBudget, type TaskBudget } from '../task-budget.js';

/** Resolves in a later task of the browser's event loop. */
export type YieldToBrowser = () => Promise<void>;

/** Work that can be done a slice at a time. */
export interface SliceJob {
  /**
   * Does work while the scheduler has budget left ({@link SliceScheduler.left}), counting what it does
   * ({@link SliceScheduler.spend}): the last unit it starts may overrun the budget, so units stay small.
   * Called only while {@link SliceJob.pending}.
   */
  run(): void;
  /** Whether work is left. */
  readonly pending: boolean;
}

/**
 * Yields with a `MessageChannel` message: a task that takes its turn with the page's other tasks (timers,
 * network reads, events) and that background tabs do not throttle (timers run once a second there, and
 * `requestAnimationFrame` not at all). `scheduler.yield()` was tried first: its continuations go ahead of
 * every other task, so while a large answer was drawn the page's timers and a stream's network reads
 * waited until the whole queue was done.
 */
export const yieldToBrowser: YieldToBrowser = () =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/**
 * Milliseconds a slice may take before it yields, whatever is left of its characters (a slow machine,
 * costly text): the page gets a frame and input in between. A slice lasts longer, up to
 * {@link MAX_SLICE_MS}, when the browser's frames between slices do.
 */
export const SLICE_MS = 10;

/** The longest a slice lasts when frames are costly (see the pump): below what browsers count as a long task (50 ms). */
export const MAX_SLICE_MS = 40;

/** Options of a {@link SliceScheduler}. */
export interface SliceSchedulerOptions {
  /** The task budget shared with the work done at once. @defaultValue the page's {@link taskBudget} */
  budget?: TaskBudget;
  /** How to yield to the browser before each slice. @defaultValue {@link yieldToBrowser} */
  yieldToNext?: YieldToBrowser;
  /** Milliseconds per slice at least. @defaultValue {@link SLICE_MS} */
  sliceMs?: number;
  /** The clock. @defaultValue performance.now */
  now?: () => number;
}

/** Work counters of a {@link SliceScheduler}, for tests and measurements. */
export interface SliceStats {
  /** Slices run (one task each, after a yield). */
  slices: number;
}

/** The queue of work waiting for its slices; see the module comment. */
export class SliceScheduler {
  readonly stats: SliceStats = { slices: 0 };
  readonly budget: TaskBudget;
  private readonly yieldToNext: YieldToBrowser;
  private readonly sliceMs: number;
  private readonly now: () => number;
  private queue: Array<[SliceJob, AbortSignal | undefined]> = [];
  private readonly waiting = new Set<SliceJob>();
  private pumping = false;
  /** When the slice running now must yield (Infinity outside slices). */
  private deadline = Infinity;

  constructor(options: SliceSchedulerOptions = {}) {
    this.budget = options.budget ?? taskBudget;
    this.yieldToNext = options.yieldToNext ?? yieldToBrowser;
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.now = options.now ?? (() => performance.now());
  }

  /** Whether nothing waits. */
  get idle(): boolean {
    return this.queue.length === 0;
  }

  /** Characters of work this task may still do (none once the slice running now is out of time). */
  get left(): number {
    if (this.deadline !== Infinity && this.now() >= this.deadline) return 0;
    return Math.max(0, this.budget.limit - this.budget.used);
  }

  /** Counts `cost` characters of work done in this task. */
  spend(cost: number): void {
    this.budget.spend(cost);
  }

  /** Counts `cost` characters of work to do now if they fit (in the budget, and in the slice's time). */
  tryNow(cost: number): boolean {
    return (this.deadline === Infinity || this.now() < this.deadline) && this.budget.tryNow(cost);
  }

  /** Adds `job` to the end of the queue (a job already waiting keeps its place). */
  enqueue(job: SliceJob, signal?: AbortSignal): void {
    if (this.waiting.has(job)) return;
    this.waiting.add(job);
    this.queue.push([job, signal]);
    if (!this.pumping) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    let lastEnd = Infinity;
    try {
      while (this.queue.length > 0) {
        await this.yieldToNext();
        // a new task: its budget is whole
        this.budget.used = 0;
        this.stats.slices += 1;
        // As long as the browser's own work since the last slice (its frame), within SLICE_MS..MAX_SLICE_MS:
        // when a large drawn answer makes frames costly, more is drawn per frame, so fewer frames are needed.
        const start = this.now();
        const between = start > lastEnd ? start - lastEnd : 0;
        this.deadline = start + Math.max(this.sliceMs, Math.min(MAX_SLICE_MS, between));
        try {
          this.runSlice();
        } finally {
          lastEnd = this.now();
          this.deadline = Infinity;
          // The slice was this task's work: the next task (a frame's render with a streamed delta) starts
          // with a whole budget, not behind the queue.
          this.budget.used = 0;
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Runs waiting jobs, first come first served, until this task's budget or time is spent. */
  private runSlice(): void {
    let done = 0;
    while (done < this.queue.length) {
      const [job, signal] = this.queue[done]!;
      if (signal?.aborted || !job.pending) {
        done += 1;
        continue;
      }
      if (this.left === 0) break;
      const before = this.budget.used;
      try {
        job.run();
      } catch (err) {
        // one answer's fault must not stop the others' drawing: its job is dropped and the fault reported
        done += 1;
        reportError(err);
        continue;
      }
      // a job that did nothing waits for the next task (never a busy loop)
      if (this.budget.used === before && job.pending) break;
    }
    if (done === 0) return;
    for (const [job] of this.queue.slice(0, done)) this.waiting.delete(job);
    this.queue = this.queue.slice(done);
  }
}

function reportError(err: unknown): void {
  const report = (globalThis as { reportError?: (e: unknown) => void }).reportError;
  if (report) report(err);
  else {
    queueMicrotask(() => {
      throw err;
    });
  }
}

/** The queue every `<pagent-chat>` on the page shares (with the page's {@link taskBudget}). */
export const sliceScheduler = new SliceScheduler();
