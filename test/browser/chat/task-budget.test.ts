/**
 * The task budget in the browser's real event loop: the work a task does counts against that task only,
 * however the browser orders the tasks that were already waiting when it ended.
 */
import { describe, expect, it } from 'vitest';
import { yieldToBrowser } from '../../../src/chat/slices/scheduler.js';
import { TaskBudget } from '../../../src/chat/task-budget.js';

/**
 * Queues task `spender` (a message), then a timer task `next` behind it; runs both and returns what `next`
 * returned. The timer is already waiting when `spender` ends.
 */
function spendThenNext<T>(spender: () => void, next: () => T): Promise<T> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      spender();
    };
    channel.port2.postMessage(null);
    setTimeout(() => resolve(next()));
  });
}

describe('the task budget', () => {
  it("charges a task's work to that task only: a task already waiting when it ended starts with the whole budget", async () => {
    const budget = new TaskBudget(1000);
    const seen: Array<[boolean, boolean]> = [];
    for (let round = 0; round < 5; round++) {
      await yieldToBrowser();
      let spent = false;
      const next = await spendThenNext(
        () => (spent = budget.tryNow(1000)),
        () => budget.tryNow(1),
      );
      seen.push([spent, next]);
    }
    expect(seen).toEqual(Array(5).fill([true, true]));
  });

  it('still holds a task to its budget: work past it in the same task waits', async () => {
    const budget = new TaskBudget(1000);
    await yieldToBrowser();
    expect(budget.tryNow(600)).toBe(true);
    await Promise.resolve();
    expect(budget.tryNow(300)).toBe(true);
    expect(budget.tryNow(200)).toBe(false);
    await yieldToBrowser();
    expect(budget.tryNow(1000)).toBe(true);
  });
});
