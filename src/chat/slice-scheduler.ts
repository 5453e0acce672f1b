/**
 * Runs rendering work too big for one browser task (a stored 48 MB answer, a highlighted block of 100,000
 * lines) in slices: one task does at most {@link SLICE_CHARS} characters of it, then yields, so the page
 * keeps painting and answering input in between. Small work (a streamed delta) still runs at once while the
 * current task has budget left. Work waits in one queue, first come first served, so a conversation's
 * messages draw one after another; each answer's work is a {@link SliceGroup} that can be paused (its row
 * left the page) and cancelled (another conversation replaced it): only what is still wanted runs.
 */

/**
 * Characters of work (markdown parsed and drawn, code tokenized) one task does before it yields. Large
 * enough that a slice's own overhead (a tail parse, a layout) is small beside it, small enough that it
 * costs a few tens of milliseconds on a slow machine.
 */
export const SLICE_CHARS = 64 * 1024;

/** Resolves in a later task of the browser's event loop. */
export type YieldToBrowser = () => Promise<void>;

/** Work that can be done a slice at a time. */
export interface SliceJob {
  /**
   * Does work while its group has budget left in this task ({@link SliceGroup.left}), spending what it
   * does ({@link SliceGroup.spend}): the last unit it starts may overrun the budget, so units stay small.
   * Called only while {@link SliceJob.pending}.
   */
  run(): void;
  /** Whether work is left. */
  readonly pending: boolean;
}

interface SchedulerGlobal {
  scheduler?: { yield?: () => Promise<void> };
}

/**
 * Yields with `scheduler.yield()` where the browser has it (its continuation keeps its place ahead of
 * other queued work, and it is not throttled in background tabs as timers are), else with a
 * `MessageChannel` message (a task that background tabs do not throttle either; `setTimeout` runs once a
 * second there, and `requestAnimationFrame` not at all).
 */
export const yieldToBrowser: YieldToBrowser = () => {
  const scheduler = (globalThis as SchedulerGlobal).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
};

/** Work counters of a {@link SliceScheduler}, for tests and measurements. */
export interface SliceStats {
  /** Times the scheduler yielded to the browser before a slice. */
  yields: number;
  /** Slices run from the queue (one task each). */
  slices: number;
  /** The most characters of work done in one task, at once and from the queue together. */
  largestTask: number;
}

/** The work of one answer: paused while it is off the page, dropped when it is replaced. */
export class SliceGroup {
  /** Jobs with work left, in the order they were added. */
  readonly jobs = new Set<SliceJob>();
  private state: 'active' | 'paused' | 'cancelled' = 'active';

  constructor(private readonly scheduler: SliceScheduler) {}

  /** Whether the group's work may run (not paused, not cancelled). */
  get active(): boolean {
    return this.state === 'active';
  }

  /** Whether the group was cancelled: its work never runs again. */
  get cancelled(): boolean {
    return this.state === 'cancelled';
  }

  /**
   * Whether `cost` characters of work fit in what is left of this task's budget (and the group is active);
   * if so they are counted. The caller still keeps its own order: work of a job that waits in the queue
   * goes behind it.
   */
  tryNow(cost: number): boolean {
    return this.state === 'active' && this.scheduler.tryNow(cost);
  }

  /** Counts `cost` characters of work done in this task. */
  spend(cost: number): void {
    this.scheduler.spend(cost);
  }

  /** Characters of work this task may still do for the group (0 when it is paused or cancelled). */
  get left(): number {
    return this.state === 'active' ? this.scheduler.left : 0;
  }

  /** Queues `job` (once) to run in later tasks. Ignored once cancelled. */
  add(job: SliceJob): void {
    if (this.state === 'cancelled' || this.jobs.has(job)) return;
    this.jobs.add(job);
    if (this.state === 'active') this.scheduler.enqueue(job, this);
  }

  /** Stops running this group's work until {@link SliceGroup.resume}. */
  pause(): void {
    if (this.state === 'active') this.state = 'paused';
  }

  /** Runs the group's waiting work again (in its turn). */
  resume(): void {
    if (this.state !== 'paused') return;
    this.state = 'active';
    for (const job of this.jobs) this.scheduler.enqueue(job, this);
  }

  /** Drops the group's waiting work for good. */
  cancel(): void {
    this.state = 'cancelled';
    this.jobs.clear();
  }

  /** Called by the scheduler when `job` has no work left. */
  done(job: SliceJob): void {
    this.jobs.delete(job);
  }
}

/** Options of a {@link SliceScheduler}. */
export interface SliceSchedulerOptions {
  /** How to yield to the browser between slices. @defaultValue {@link yieldToBrowser} */
  yieldToNext?: YieldToBrowser;
  /** Characters of work per task. @defaultValue {@link SLICE_CHARS} */
  budget?: number;
  /**
   * Milliseconds a slice of queued work may take before it yields, whatever its characters (a slow
   * machine, costly text). Streamed deltas that fit the budget are not timed.
   * @defaultValue {@link SLICE_MS}
   */
  sliceMs?: number;
  /** The clock. @defaultValue performance.now */
  now?: () => number;
}

/**
 * Milliseconds of queued work per task: a slice ends at {@link SLICE_CHARS} or at this, whichever comes
 * first, so the page gets a frame and input in between even on a slow machine.
 */
export const SLICE_MS = 10;

/** Runs queued {@link SliceJob}s a slice per task; see the module comment. */
export class SliceScheduler {
  readonly stats: SliceStats = { yields: 0, slices: 0, largestTask: 0 };
  /** Characters of work per task. */
  readonly budget: number;
  private readonly yieldToNext: YieldToBrowser;
  private readonly sliceMs: number;
  private readonly now: () => number;
  private readonly queue: Array<[SliceJob, SliceGroup]> = [];
  private head = 0;
  private readonly queued = new Set<SliceJob>();
  private pumping = false;
  /** Characters of work done in the current task. */
  private used = 0;
  private resetting = false;
  /** When the slice running now must yield (Infinity outside slices). */
  private deadline = Infinity;

  constructor(options: SliceSchedulerOptions = {}) {
    this.yieldToNext = options.yieldToNext ?? yieldToBrowser;
    this.budget = options.budget ?? SLICE_CHARS;
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.now = options.now ?? (() => performance.now());
  }

  /** A new group for one answer's work. */
  group(): SliceGroup {
    return new SliceGroup(this);
  }

  /** Whether nothing waits in the queue. */
  get idle(): boolean {
    return this.queued.size === 0;
  }

  /** Counts `cost` characters against this task's budget if they fit; see {@link SliceGroup.tryNow}. */
  tryNow(cost: number): boolean {
    if (this.used + cost > this.budget || (this.deadline !== Infinity && this.now() >= this.deadline)) return false;
    this.spend(cost);
    return true;
  }

  /** Characters of work this task may still do (none once a slice has run out of time). */
  get left(): number {
    if (this.deadline !== Infinity && this.now() >= this.deadline) return 0;
    return Math.max(0, this.budget - this.used);
  }

  /** Counts `cost` characters of work done in this task. */
  spend(cost: number): void {
    this.used += cost;
    if (this.used > this.stats.largestTask) this.stats.largestTask = this.used;
    if (!this.pumping) this.scheduleReset();
  }

  /** Adds `job` to the end of the queue, unless it is queued already. */
  enqueue(job: SliceJob, group: SliceGroup): void {
    if (this.queued.has(job)) return;
    this.queued.add(job);
    this.queue.push([job, group]);
    if (!this.pumping) void this.pump();
  }

  /** The budget is per task: it is full again once the browser has run another task (the queue's next slice resets it too). */
  private scheduleReset(): void {
    if (this.resetting || this.used === 0) return;
    this.resetting = true;
    void this.yieldToNext().then(() => {
      this.resetting = false;
      if (!this.pumping) this.used = 0;
    });
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.head < this.queue.length) {
        this.stats.yields += 1;
        await this.yieldToNext();
        this.used = 0;
        this.stats.slices += 1;
        this.deadline = this.now() + this.sliceMs;
        try {
          this.runSlice();
        } finally {
          this.deadline = Infinity;
          // The slice was this task's work: the next task (a frame's render with a streamed delta) starts
          // with a full budget, not behind the queue.
          this.used = 0;
        }
      }
    } finally {
      this.queue.length = this.head = 0;
      this.queued.clear();
      this.pumping = false;
    }
  }

  /** Runs queued jobs, first come first served, until this task's budget is spent. */
  private runSlice(): void {
    while (this.head < this.queue.length && this.left > 0) {
      const [job, group] = this.queue[this.head]!;
      if (!group.active || !job.pending) {
        // paused: the group queues it again on resume; cancelled or finished: gone
        this.head += 1;
        this.queued.delete(job);
        if (!job.pending) group.done(job);
        continue;
      }
      const before = this.used;
      try {
        job.run();
      } catch (err) {
        // one answer's fault must not stop the others' drawing: its job is dropped and the fault reported
        group.done(job);
        this.head += 1;
        this.queued.delete(job);
        reportError(err);
        continue;
      }
      // a job that did nothing waits for the next task (never a busy loop)
      if (this.used === before && job.pending) break;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }
}

function reportError(err: unknown): void {
  const report = (globalThis as { reportError?: (e: unknown) => void }).reportError;
  if (report) report(err);
  else queueMicrotask(() => {
    throw err;
  });
}

/** The scheduler every `<pagent-chat>` on the page shares, so their work takes turns too. */
export const sliceScheduler = new SliceScheduler();
