import { afterEach, describe, expect, it, vi } from 'vitest';
import { SliceScheduler, type SliceGroup, type SliceJob } from '../../../src/chat/slice-scheduler.js';

/** A yield the test lets go of: `tasks` counts the yields waiting, `next()` runs the next task. */
function manualYield() {
  const waiting: Array<() => void> = [];
  return {
    yieldToNext: () => new Promise<void>((resolve) => waiting.push(resolve)),
    get waiting() {
      return waiting.length;
    },
    /** Lets every yield asked for so far resolve (one browser task each), then lets their continuations run. */
    async next(): Promise<void> {
      for (const resolve of waiting.splice(0)) resolve();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

/** A job of `units` units of `size` characters each; `log` gets its group's name per unit done. */
function unitsJob(group: SliceGroup, units: number, size: number, log: string[], name: string): SliceJob & { done: number } {
  const job = {
    done: 0,
    get pending() {
      return job.done < units;
    },
    run() {
      while (job.done < units && group.left > 0) {
        group.spend(size);
        job.done += 1;
        log.push(name);
      }
    },
  };
  return job;
}

describe('SliceScheduler', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('runs queued work a slice per task, yielding before each slice, never more than the budget and one unit per task', async () => {
    const y = manualYield();
    const scheduler = new SliceScheduler({ yieldToNext: y.yieldToNext, budget: 1000, sliceMs: Infinity });
    const group = scheduler.group();
    const log: string[] = [];
    const job = unitsJob(group, 100, 90, log, 'a');
    group.add(job);
    expect(job.done).toBe(0); // nothing in the task that queued it
    const perTask: number[] = [];
    while (job.pending) {
      expect(y.waiting).toBeGreaterThan(0);
      const before = job.done;
      await y.next();
      perTask.push(job.done - before);
    }
    // 1,000 characters a task: 12 units of 90 (the 12th starts with 10 left and overruns by one unit)
    expect(perTask.slice(0, -1).every((n) => n === 12)).toBe(true);
    expect(perTask).toHaveLength(Math.ceil(100 / 12));
    expect(scheduler.stats.slices).toBe(perTask.length);
    expect(scheduler.stats.yields).toBe(perTask.length);
    expect(scheduler.stats.largestTask).toBeLessThanOrEqual(1000 + 90);
    expect(scheduler.idle).toBe(true);
  });

  it('grows linearly: ten times the work takes ten times the slices', async () => {
    const slicesFor = async (units: number): Promise<number> => {
      const y = manualYield();
      const scheduler = new SliceScheduler({ yieldToNext: y.yieldToNext, budget: 1000, sliceMs: Infinity });
      const group = scheduler.group();
      const job = unitsJob(group, units, 100, [], 'a');
      group.add(job);
      while (job.pending) await y.next();
      return scheduler.stats.slices;
    };
    expect(await slicesFor(1000)).toBe(10 * (await slicesFor(100)));
  });

  it('does small work at once while the task has budget left, and gives the budget back in the next task', async () => {
    const y = manualYield();
    const scheduler = new SliceScheduler({ yieldToNext: y.yieldToNext, budget: 1000, sliceMs: Infinity });
    const group = scheduler.group();
    expect(group.tryNow(600)).toBe(true);
    expect(group.tryNow(300)).toBe(true);
    expect(group.tryNow(200)).toBe(false); // 1,100 > 1,000 in this task
    await y.next();
    expect(group.tryNow(1000)).toBe(true);
    expect(scheduler.stats.largestTask).toBe(1000);
  });

  it('ends a slice at its time budget, whatever is left of the characters', async () => {
    const y = manualYield();
    let clock = 0;
    const scheduler = new SliceScheduler({ yieldToNext: y.yieldToNext, budget: 1_000_000, sliceMs: 10, now: () => clock });
    const group = scheduler.group();
    let done = 0;
    group.add({
      get pending() {
        return done < 50;
      },
      run() {
        while (done < 50 && group.left > 0) {
          group.spend(1);
          done += 1;
          clock += 1; // each unit takes 1 ms
        }
      },
    });
    await y.next();
    expect(done).toBe(10);
    await y.next();
    expect(done).toBe(20);
  });

  it('runs groups first come first served: one answer after the other', async () => {
    const y = manualYield();
    const scheduler = new SliceScheduler({ yieldToNext: y.yieldToNext, budget: 1000, sliceMs: Infinity });
    const log: string[] = [];
    const a = scheduler.group();
    const b = scheduler.group();
    const jobA = unitsJob(a, 25, 100, log, 'a');
    const jobB = unitsJob(b, 25, 100, log, 'b');
    a.add(jobA);
    b.add(jobB);
    while (jobA.pending || jobB.pending) await y.next();
    expect(log.join('')).toBe('a'.repeat(25) + 'b'.repeat(25));
  });

  it('holds a paused group until it resumes (behind what came meanwhile), and drops a cancelled one for good', async () => {
    const y = manualYield();
    const scheduler = new SliceScheduler({ yieldToNext: y.yieldToNext, budget: 1000, sliceMs: Infinity });
    const log: string[] = [];
    const a = scheduler.group();
    const b = scheduler.group();
    const c = scheduler.group();
    const jobA = unitsJob(a, 20, 100, log, 'a');
    const jobB = unitsJob(b, 20, 100, log, 'b');
    const jobC = unitsJob(c, 20, 100, log, 'c');
    a.add(jobA);
    b.add(jobB);
    c.add(jobC);
    await y.next();
    expect(log.join('')).toBe('a'.repeat(10));
    a.pause();
    c.cancel();
    expect(a.tryNow(1)).toBe(false);
    expect(a.left).toBe(0);
    while (jobB.pending) await y.next();
    await y.next();
    expect(jobA.done).toBe(10);
    a.resume();
    while (jobA.pending) await y.next();
    await y.next();
    expect(log.join('')).toBe('a'.repeat(10) + 'b'.repeat(20) + 'a'.repeat(10));
    expect(jobC.done).toBe(0);
    c.add(jobC);
    await y.next();
    expect(jobC.done).toBe(0);
    expect(scheduler.idle).toBe(true);
  });

  it('drops a job that throws and goes on with the others, reporting the fault', async () => {
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e));
    const y = manualYield();
    const scheduler = new SliceScheduler({ yieldToNext: y.yieldToNext, budget: 1000, sliceMs: Infinity });
    const log: string[] = [];
    const bad = scheduler.group();
    const good = scheduler.group();
    bad.add({ pending: true, run: () => { throw new Error('boom'); } });
    const job = unitsJob(good, 5, 100, log, 'g');
    good.add(job);
    while (job.pending) await y.next();
    expect(reported).toEqual([new Error('boom')]);
    expect(log).toHaveLength(5);
    expect(bad.jobs.size).toBe(0);
  });

  it('waits for the next task when a job does nothing (no busy loop)', async () => {
    const y = manualYield();
    const scheduler = new SliceScheduler({ yieldToNext: y.yieldToNext, budget: 1000, sliceMs: Infinity });
    const group = scheduler.group();
    let runs = 0;
    group.add({ pending: true, run: () => void (runs += 1) });
    await y.next();
    expect(runs).toBe(1);
    await y.next();
    expect(runs).toBe(2);
    group.cancel();
  });
});
