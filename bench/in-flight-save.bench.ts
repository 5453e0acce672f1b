/**
 * The in-flight save in Chromium with real IndexedDB: an `Agent` with `createSessionStore()` streams one
 * answer of 10,500 text deltas at a fast, steady pace (2 deltas per millisecond: 2,000 a second, far above
 * what a model sends), and the page counts every write of the turn in flight (`savePieces`): the deltas it
 * covers, the bytes it puts (JSON of each record, counted at `IDBObjectStore.put`) and its time until its
 * transaction committed; and every read-write IndexedDB transaction the page opens while the answer streams.
 * Printed: the cost per delta of the writes around delta 100 against those around delta 10,000
 * (flat: each write holds only the text since the last one), and transactions per second (bounded by the
 * 250 ms throttle: about 4 a second). Each figure is the median over several fresh pages (each in a
 * browsing context of its own, so a renderer process of its own), with the min–max spread.
 */
import type { Page } from 'playwright-core';
import { openPage, startHarness } from '../test/e2e/store/harness.js';

/** One write of the turn in flight, as the page saw it. */
interface Write {
  /** Deltas streamed when the write began, and since the write before it. */
  at: number;
  deltas: number;
  bytes: number;
  puts: number;
  ms: number;
}

interface StreamFigures {
  writes: Write[];
  /** Read-write transactions opened while the answer streamed, and the most in any one second. */
  transactions: number;
  maxPerSecond: number;
  seconds: number;
}

const DELTAS = 10_500;
const PER_MS = 2;

function stream(page: Page): Promise<StreamFigures> {
  return page.evaluate(
    async ([total, perMs]) => {
      const { createSessionStore, Agent } = window.pagent;
      const real = createSessionStore({ name: `bench-in-flight-${crypto.randomUUID()}` });
      let streamed = 0;
      let lastAt = 0;
      let current: { bytes: number; puts: number } | undefined;
      const writes: Array<{ at: number; deltas: number; bytes: number; puts: number; ms: number }> = [];
      const store: typeof real = {
        ...real,
        async savePieces(id, pieces, at) {
          const write = { at: streamed, deltas: streamed - lastAt, bytes: 0, puts: 0, ms: 0 };
          lastAt = streamed;
          current = write;
          const t = performance.now();
          try {
            await real.savePieces(id, pieces, at);
          } finally {
            write.ms = performance.now() - t;
            current = undefined;
            writes.push(write);
          }
        },
      };
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
        if (current) {
          current.puts += 1;
          current.bytes += new TextEncoder().encode(JSON.stringify(value)).length;
        }
        return put.call(this, value, key);
      };
      const transaction = IDBDatabase.prototype.transaction;
      const opened: number[] = [];
      IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
        if (args[1] === 'readwrite') opened.push(performance.now());
        return transaction.apply(this, args);
      } as IDBDatabase['transaction'];
      // a macrotask (not a clamped timer): the save's timers run between two bursts of deltas
      const channel = new MessageChannel();
      const macrotask = (): Promise<void> =>
        new Promise((resolve) => {
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        });
      let started = 0;
      let done!: () => void;
      const finished = new Promise<void>((resolve) => (done = resolve));
      const model = {
        async *stream() {
          started = performance.now();
          while (streamed < total) {
            await macrotask();
            const due = Math.min(total, Math.floor((performance.now() - started) * perMs));
            // fixed-width deltas, so that a delta weighs the same at the start and at the end
            while (streamed < due) yield { type: 'text' as const, text: `w${String(streamed++ % 1000).padStart(3, '0')} ` };
          }
          done();
          await new Promise<never>(() => undefined); // the page is closed while the model still answers
        },
      };
      try {
        const agent = new Agent({ llm: model, store, sessionId: 's' });
        const it = agent.events('tell me a long story')[Symbol.asyncIterator]();
        void (async () => {
          while (!(await it.next()).done);
        })();
        await finished;
        const ended = performance.now();
        // the last window's write
        await new Promise((resolve) => setTimeout(resolve, 600));
        const during = opened.filter((t) => t >= started && t <= ended);
        let maxPerSecond = 0;
        for (let i = 0, j = 0; i < during.length; i++) {
          while (during[i]! - during[j]! > 1000) j++;
          maxPerSecond = Math.max(maxPerSecond, i - j + 1);
        }
        return { writes, transactions: during.length, maxPerSecond, seconds: (ended - started) / 1000 };
      } finally {
        IDBObjectStore.prototype.put = put;
        IDBDatabase.prototype.transaction = transaction;
      }
    },
    [DELTAS, PER_MS] as const,
  );
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[], digits: number): string =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

/**
 * The writes around delta `n` (1-based), summed: the write that holds it (the first one that began with
 * at least `n` deltas streamed) and the two after it, or, at the end of the answer, the two before it.
 * Three writes, not one: a single write's time is a few milliseconds, and the noise of a shared machine.
 */
function writesAt(writes: Write[], n: number): Write {
  const i = writes.findIndex((w) => w.at >= n);
  const from = Math.max(0, Math.min(i, writes.length - 3));
  const three = writes.slice(from, from + 3);
  return three.reduce((a, w) => ({ at: a.at, deltas: a.deltas + w.deltas, bytes: a.bytes + w.bytes, puts: a.puts + w.puts, ms: a.ms + w.ms }), {
    at: three[0]!.at,
    deltas: 0,
    bytes: 0,
    puts: 0,
    ms: 0,
  });
}

/** Prints the write cost per delta at delta 100 and 10,000, and transactions per second, over fresh pages. */
export async function run(): Promise<void> {
  const pages = Number(process.env['BENCH_PROCESSES'] ?? 5);
  const h = await startHarness();
  try {
    const runs: StreamFigures[] = [];
    for (let i = 0; i < pages; i++) {
      const context = await h.browser.newContext();
      const page = await openPage(context, h.baseUrl);
      // tsx keeps function names with an `__name` helper that serialised page functions also call
      await page.evaluate('globalThis.__name = (fn) => fn');
      runs.push(await stream(page));
      await context.close();
    }
    const at = (n: number) => runs.map((r) => writesAt(r.writes, n));
    const early = at(100);
    const late = at(10_000);
    const perDelta = (ws: Write[], key: 'bytes' | 'ms') => ws.map((w) => w[key] / w.deltas);
    console.log(
      `in-flight save: one answer of ${DELTAS.toLocaleString('en')} text deltas, ${PER_MS * 1000} a second, into createSessionStore() (Chromium IndexedDB); median (min–max) over ${pages} fresh pages`,
    );
    for (const [label, ws] of [['delta 100 and the two after it', early], ['delta 10,000 and the two before it', late]] as const) {
      console.log(
        `  the write holding ${label}: ${spread(perDelta(ws, 'bytes'), 1)} B and ${spread(perDelta(ws, 'ms').map((ms) => ms * 1000), 1)} µs per delta` +
          ` (3 writes: ${spread(ws.map((w) => w.deltas), 0)} deltas, ${spread(ws.map((w) => w.bytes), 0)} B in ${spread(ws.map((w) => w.puts), 0)} records, ${spread(ws.map((w) => w.ms), 2)} ms)`,
      );
    }
    const ratio = (key: 'bytes' | 'ms') => runs.map((_, i) => late[i]![key] / late[i]!.deltas / (early[i]![key] / early[i]!.deltas));
    console.log(`  delta 10,000 / delta 100 per delta: bytes ${spread(ratio('bytes'), 2)}, time ${spread(ratio('ms'), 2)} (flat = 1)`);
    console.log(
      `  read-write transactions while it streamed: ${spread(runs.map((r) => r.transactions / r.seconds), 2)} a second on average, at most ${spread(runs.map((r) => r.maxPerSecond), 0)} in any one second` +
        ` (${spread(runs.map((r) => r.transactions), 0)} in ${spread(runs.map((r) => r.seconds), 1)} s; one write every 250 ms at most, and the first second also stores the user's message)`,
    );
  } finally {
    await h.close();
  }
}
