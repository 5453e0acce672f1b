import { afterEach, describe, expect, it, vi } from 'vitest';
import { SliceScheduler, type SliceJob } from '../../../src/chat/slices/scheduler.js';
import { TaskBudget } from '../../../src/chat/task-budget.js';

/** A yield the test lets go of: `waiting` counts the yields asked for, `next()` runs the next task. */
function manualYield() {
  const waiting: Array<() => void> = [];
  return {
    yieldToNext: () => new Promise<void>((resolve) => waiting.push(resolve)),
    get waiting() {
      return waiting.length;
    },
    /** Lets every yield asked for so far resolve (the next browser task), then lets its continuation run. */
    async next(): Promise<void> {
      for (const resolve of waiting.splice(0)) resolve();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

/** A task budget that also keeps the most characters counted in one task. */
class CountingBudget extends TaskBudget {
  largest = 0;
  override spend(cost: number): void {
    super.spend(cost);
    this.largest = Math.max(this.largest, this.used);
  }
}

function scheduler(y: ReturnType<typeof manualYield>, limit = 1000): SliceScheduler & { budget: CountingBudget } {
  return new SliceScheduler({ budget: new CountingBudget(limit), yieldToNext: y.yieldToNext, sliceMs: Infinity }) as SliceScheduler & { budget: CountingBudget };
}

/** A job of `units` units of `size` characters each; `log` gets `name` per unit done. */
function unitsJob(s: SliceScheduler, units: number, size: number, log: string[] = [], name = ''): SliceJob & { done: number } {
  const job = {
    done: 0,
    get pending() {
      return job.done < units;
    },
    run() {
      while (job.done < units && s.left > 0) {
        s.spend(size);
        job.done += 1;
        log.push(name);
      }
    },
  };
  return job;
}

describe('the slice queue', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('runs waiting work a slice per task, yielding before each slice, at most the budget and one unit a task', async () => {
    const y = manualYield();
    const s = scheduler(y);
    const job = unitsJob(s, 100, 90);
    s.enqueue(job);
    expect(job.done).toBe(0); // nothing in the task that queued it
    const perTask: number[] = [];
    while (job.pending) {
      expect(y.waiting).toBe(1);
      const before = job.done;
      await y.next();
      perTask.push(job.done - before);
    }
    // 1,000 characters a task: 12 units of 90 (the 12th starts with 10 left and overruns by one unit)
    expect(perTask.slice(0, -1).every((n) => n === 12)).toBe(true);
    expect(perTask).toHaveLength(Math.ceil(100 / 12));
    expect(s.stats.slices).toBe(perTask.length);
    expect(s.budget.largest).toBeLessThanOrEqual(1000 + 90);
    expect(s.idle).toBe(true);
  });

  it('grows linearly: ten times the work takes ten times the slices', async () => {
    const slicesFor = async (units: number): Promise<number> => {
      const y = manualYield();
      const s = scheduler(y);
      const job = unitsJob(s, units, 100);
      s.enqueue(job);
      while (job.pending) await y.next();
      return s.stats.slices;
    };
    expect(await slicesFor(100)).toBe(10);
    expect(await slicesFor(1000)).toBe(100);
  });

  it('ends a slice at its time limit, whatever is left of the characters', async () => {
    const y = manualYield();
    let clock = 0;
    const s = new SliceScheduler({ budget: new TaskBudget(1_000_000), yieldToNext: y.yieldToNext, sliceMs: 10, now: () => clock });
    const job = unitsJob(s, 50, 1);
    const run = job.run.bind(job);
    job.run = () => {
      // each unit takes 1 ms
      const spend = s.spend.bind(s);
      s.spend = (n) => {
        spend(n);
        clock += 1;
      };
      run();
      s.spend = spend;
    };
    s.enqueue(job);
    await y.next();
    expect(job.done).toBe(10);
    await y.next();
    expect(job.done).toBe(20);
  });

  it('lasts as long as the browser worked since the last slice (its frame), between 10 and 40 ms', async () => {
    const y = manualYield();
    let clock = 0;
    const s = new SliceScheduler({ budget: new TaskBudget(1_000_000), yieldToNext: y.yieldToNext, sliceMs: 10, now: () => clock });
    let done = 0;
    s.enqueue({
      get pending() {
        return done < 1000;
      },
      run() {
        while (done < 1000 && s.left > 0) {
          s.spend(1);
          done += 1;
          clock += 1; // each unit takes 1 ms
        }
      },
    });
    const perSlice: number[] = [];
    for (const frame of [0, 5, 25, 100]) {
      clock += frame; // the browser's frame between two slices
      const before = done;
      await y.next();
      perSlice.push(done - before);
    }
    expect(perSlice).toEqual([10, 10, 25, 40]);
  });

  it('runs work first come first served: one answer after the other', async () => {
    const y = manualYield();
    const s = scheduler(y);
    const log: string[] = [];
    const a = unitsJob(s, 25, 100, log, 'a');
    const b = unitsJob(s, 25, 100, log, 'b');
    s.enqueue(a);
    s.enqueue(b);
    s.enqueue(a); // already waiting: keeps its place
    while (a.pending || b.pending) await y.next();
    expect(log.join('')).toBe('a'.repeat(25) + 'b'.repeat(25));
  });

  it('drops work whose signal is aborted when its turn comes: only what is still wanted runs', async () => {
    const y = manualYield();
    const s = scheduler(y);
    const log: string[] = [];
    const old = new AbortController();
    const a = unitsJob(s, 30, 100, log, 'a');
    const b = unitsJob(s, 10, 100, log, 'b');
    s.enqueue(a, old.signal);
    s.enqueue(b);
    await y.next();
    expect(log.join('')).toBe('a'.repeat(10));
    old.abort();
    await y.next();
    expect(log.join('')).toBe('a'.repeat(10) + 'b'.repeat(10));
    expect(s.idle).toBe(true);
    s.enqueue(a, old.signal);
    await y.next();
    expect(a.done).toBe(10);
  });

  it('does small work at once while the task has budget left, and gives the budget back in a later task', async () => {
    vi.useFakeTimers();
    const budget = new CountingBudget(1000);
    expect(budget.tryNow(600)).toBe(true);
    expect(budget.tryNow(300)).toBe(true);
    expect(budget.tryNow(200)).toBe(false); // 1,100 > 1,000 in this task
    vi.runAllTimers();
    expect(budget.tryNow(1000)).toBe(true);
    expect(budget.largest).toBe(1000);
  });

  it('gives the next task a whole budget after a slice, so a streamed delta is not held behind the queue', async () => {
    const y = manualYield();
    const s = scheduler(y);
    s.enqueue(unitsJob(s, 100, 100));
    await y.next();
    expect(s.idle).toBe(false);
    expect(s.tryNow(1000)).toBe(true);
  });

  it('drops a job that throws and goes on with the others, reporting the fault', async () => {
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e));
    const y = manualYield();
    const s = scheduler(y);
    s.enqueue({
      pending: true,
      run: () => {
        throw new Error('boom');
      },
    });
    const job = unitsJob(s, 5, 100);
    s.enqueue(job);
    while (job.pending) await y.next();
    expect(reported).toEqual([new Error('boom')]);
    expect(s.idle).toBe(true);
  });

  it('waits for the next task when a job does nothing (no busy loop)', async () => {
    const y = manualYield();
    const s = scheduler(y);
    let runs = 0;
    const stop = new AbortController();
    s.enqueue({ pending: true, run: () => void (runs += 1) }, stop.signal);
    await y.next();
    expect(runs).toBe(1);
    await y.next();
    expect(runs).toBe(2);
    stop.abort();
    await y.next();
    expect(s.idle).toBe(true);
  });
});
