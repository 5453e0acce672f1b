/**
 * Session store write cost per turn, measured in Chromium (IndexedDB has no Node implementation here):
 * a 4-message turn (user, assistant with a tool call, tool result, answer) appended to a session of
 * 10, 1,000 and 10,000 messages. Prints the records and bytes written per turn (counted at
 * `IDBObjectStore.put`) and the median time per append, next to `save()` of the same session, which
 * rewrites every message (the baseline that grows with the conversation).
 */
import type { Page } from 'playwright-core';
import { openPage, startHarness } from '../test/e2e/store/harness.js';

interface Figures {
  messages: number;
  appendPuts: number;
  appendBytes: number;
  appendMs: number;
  savePuts: number;
  saveBytes: number;
  saveMs: number;
}

function measure(page: Page, messages: number): Promise<Figures> {
  return page.evaluate(async (size) => {
    const { createSessionStore, Session } = window.pagent;
    const store = createSessionStore({ name: `bench-${size}-${crypto.randomUUID()}` });
    const turn = (n: number) => [
      { role: 'user' as const, content: `第${n}問: 東京の天気は? 🌦️` },
      {
        role: 'assistant' as const,
        content: null,
        reasoning_content: `calling the tool ${n}`,
        tool_calls: [{ id: `call_${n}`, type: 'function' as const, function: { name: 'get_weather', arguments: `{"city":"東京"}` } }],
      },
      { role: 'tool' as const, tool_call_id: `call_${n}`, content: '{"temp":21}' },
      { role: 'assistant' as const, content: `晴れ、21°C です 😀 (${n})` },
    ];
    const history = [];
    for (let i = 0; history.length < size; i++) history.push(...turn(i));
    history.length = size;
    await store.append('s', history);

    const put = IDBObjectStore.prototype.put;
    let puts = 0;
    let bytes = 0;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      puts += 1;
      bytes += new TextEncoder().encode(JSON.stringify(value)).length;
      return put.call(this, value, key);
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    try {
      const rounds = 15;
      const appendTimes: number[] = [];
      puts = 0;
      bytes = 0;
      for (let r = 0; r < rounds; r++) {
        const t = performance.now();
        await store.append('s', turn(100_000 + r));
        appendTimes.push(performance.now() - t);
      }
      const appendPuts = puts / rounds;
      const appendBytes = bytes / rounds;

      const session = Session.fromJSON({ version: 1, kind: 'session', systemPrompt: undefined, messages: history });
      const saveTimes: number[] = [];
      puts = 0;
      bytes = 0;
      const saveRounds = 5;
      for (let r = 0; r < saveRounds; r++) {
        const t = performance.now();
        await store.save('copy', session);
        saveTimes.push(performance.now() - t);
      }
      return {
        messages: size,
        appendPuts,
        appendBytes,
        appendMs: median(appendTimes),
        savePuts: puts / saveRounds,
        saveBytes: bytes / saveRounds,
        saveMs: median(saveTimes),
      };
    } finally {
      IDBObjectStore.prototype.put = put;
      store.close();
    }
  }, messages);
}

/**
 * Write cost of branching at `size` stored messages: a regenerated answer (one message, a new branch
 * beside the last answer), an edited question with its answer (two messages, a branch from the message
 * before the last question), and switching back to the first branch. Records and bytes per operation.
 */
function measureBranches(page: Page, size: number): Promise<Record<'regenerate' | 'edit' | 'switchBranch', { puts: number; bytes: number }>> {
  return page.evaluate(async (n) => {
    const { createSessionStore } = window.pagent;
    const store = createSessionStore({ name: `bench-branches-${n}-${crypto.randomUUID()}` });
    const history = [];
    for (let i = 0; history.length < n; i++) {
      history.push({ role: 'user' as const, content: `question ${i} 🌦️` }, { role: 'assistant' as const, content: `answer ${i} 😀` });
    }
    history.length = n;
    const { head } = await store.append('s', history);
    const put = IDBObjectStore.prototype.put;
    let puts = 0;
    let bytes = 0;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      puts += 1;
      bytes += new TextEncoder().encode(JSON.stringify(value)).length;
      return put.call(this, value, key);
    };
    const count = async (fn: () => Promise<unknown>) => {
      puts = 0;
      bytes = 0;
      await fn();
      return { puts, bytes };
    };
    try {
      return {
        regenerate: await count(() => store.append('s', [{ role: 'assistant', content: 'answer, again' }], { parent: head - 1 })),
        edit: await count(() =>
          store.append('s', [{ role: 'user', content: 'question, edited' }, { role: 'assistant', content: 'answer to the edit' }], { parent: head - 2 })),
        switchBranch: await count(() => store.switchBranch('s', head)),
      };
    } finally {
      IDBObjectStore.prototype.put = put;
      store.close();
    }
  }, size);
}

/** Prints the write cost per turn at 10, 1,000 and 10,000 stored messages. */
export async function run(): Promise<void> {
  const h = await startHarness();
  try {
    const context = await h.browser.newContext();
    const page = await openPage(context, h.baseUrl);
    // tsx keeps function names with an `__name` helper that serialised page functions also call
    await page.evaluate('globalThis.__name = (fn) => fn');
    console.log('store: one 4-message turn appended to a stored session (Chromium IndexedDB)');
    for (const size of [10, 1000, 10_000]) {
      const f = await measure(page, size);
      console.log(
        `  at ${String(f.messages).padStart(6)} messages: append ${f.appendPuts} records / ${Math.round(f.appendBytes)} B / ${f.appendMs.toFixed(2)} ms` +
          `   vs save() of the whole session ${f.savePuts} records / ${Math.round(f.saveBytes)} B / ${f.saveMs.toFixed(2)} ms`,
      );
    }
    console.log('store: branching a stored conversation (records / bytes written)');
    for (const size of [10, 1000]) {
      const b = await measureBranches(page, size);
      console.log(
        `  at ${String(size).padStart(6)} messages: regenerate ${b.regenerate.puts} records / ${b.regenerate.bytes} B` +
          `   edit ${b.edit.puts} records / ${b.edit.bytes} B   switchBranch ${b.switchBranch.puts} records / ${b.switchBranch.bytes} B`,
      );
    }
    await context.close();
  } finally {
    await h.close();
  }
}
