/**
 * How much rendering work (markdown parsed and drawn, code tokenized) the current browser task may still
 * do. Work that fits is done at once: a streamed delta draws in the frame it arrived in. Work that does
 * not (a stored answer of megabytes, every line of a long block waiting for its tokenizer) waits for the
 * slice queue (`slices/scheduler.ts`, a chunk loaded on first use), which does it a slice per task.
 */

/**
 * Characters of work one task does. Large enough that a slice's own overhead (a parse of the open tail, a
 * frame) is small beside it, small enough to stay a short task; queued slices also stop at a time limit.
 */
export const SLICE_CHARS = 64 * 1024;

/** The character budget of the current task, shared by every answer on the page. */
export class TaskBudget {
  /** Characters of work done in the current task. */
  used = 0;
  private resetting = false;

  constructor(
    /** Characters of work per task. */
    readonly limit = SLICE_CHARS,
  ) {}

  /** Counts `cost` characters of work to do now if they fit in what is left of this task's budget. */
  tryNow(cost: number): boolean {
    if (this.used + cost > this.limit) return false;
    this.spend(cost);
    return true;
  }

  /**
   * Counts `cost` characters of work done in this task. The count starts again in the next task: one
   * posted ahead of the tasks already waiting where the browser has `scheduler.postTask`, else a timer
   * (which runs after them, so until it does they find this task's count; in a background tab it is up
   * to a second late, and meanwhile work goes to the slice queue, which does not wait on timers).
   */
  spend(cost: number): void {
    this.used += cost;
    if (this.resetting) return;
    this.resetting = true;
    nextTask(() => {
      this.resetting = false;
      this.used = 0;
    });
  }
}

interface PostTask {
  postTask(callback: () => void, options: { priority: 'user-blocking' }): Promise<unknown>;
}

/**
 * Runs `callback` in a new task before the tasks already queued where it can. A timer is queued behind
 * them: the next stream read or timer (a streamed delta's task) would be charged for this task's work and
 * send its delta to the slice queue, drawn a task late.
 */
function nextTask(callback: () => void): void {
  const scheduler = (globalThis as { scheduler?: PostTask }).scheduler;
  if (typeof scheduler?.postTask === 'function') void scheduler.postTask(callback, { priority: 'user-blocking' });
  else setTimeout(callback);
}

/** The budget every `<pagent-chat>` on the page shares, so their work takes turns too. */
export const taskBudget = new TaskBudget();
