import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { StoreError } from '../../../src/errors.js';
import { Agent, type AgentModel } from '../../../src/agent/agent.js';
import { countWrites, rawEntries, uniqueName } from './helpers.js';

const stores: SessionStore[] = [];
function open(inFlightSaveMs?: number): SessionStore {
  const store = createSessionStore({ name: uniqueName('pieces'), ...(inFlightSaveMs === undefined ? {} : { inFlightSaveMs }) });
  stores.push(store);
  return store;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const callA = { id: 'call_a', type: 'function' as const, function: { name: 'lookup', arguments: '{"q":"東京"}' } };

describe('the turn in flight in IndexedDB', () => {
  it('puts the pieces back together: texts joined, each call once, results and the approvals still waiting', async () => {
    const store = open();
    await store.append('c', [{ role: 'user', content: 'q 🌦️' }]);
    await store.savePieces('c', [{ type: 'reasoning', text: '考え' }, { type: 'text', text: 'Let me ' }], 0);
    await store.savePieces('c', [{ type: 'text', text: 'look 🔎' }, { type: 'call', call: callA }, { type: 'call', call: { ...callA, id: 'call_b' } }], 2);
    await store.savePieces('c', [{ type: 'call', call: callA }, { type: 'result', id: 'call_a', content: 'sunny', ok: true }, { type: 'approval', id: 'call_b' }], 5);
    expect(await store.loadTurn('c')).toEqual({
      content: 'Let me look 🔎',
      reasoning: '考え',
      calls: [callA, { ...callA, id: 'call_b' }],
      results: { call_a: { content: 'sunny', ok: true } },
      awaiting: ['call_b'],
    });
    // the conversation itself is untouched: its list entry and messages are what append wrote
    expect((await store.load('c'))!.messages).toEqual([{ role: 'user', content: 'q 🌦️' }]);
    expect((await store.list()).map((s) => s.messageCount)).toEqual([1]);
  });

  it('a write of the messages removes the pieces in the same transaction; piece 0 starts a turn afresh', async () => {
    const store = open();
    await store.savePieces('c', [{ type: 'text', text: 'old turn' }], 0);
    await store.savePieces('c', [{ type: 'text', text: 'new turn' }], 0);
    expect((await store.loadTurn('c'))!.content).toBe('new turn');
    await store.savePieces('c', [], 0);
    expect(await store.loadTurn('c')).toBeUndefined();

    for (const write of [
      () => store.append('c', [{ role: 'user', content: 'q' }]),
      () => store.save('c', { toJSON: () => ({ version: 1, kind: 'session', systemPrompt: undefined, messages: [{ role: 'user', content: 'q' }] }) }),
      () => store.switchBranch('c', 0),
      () => store.delete('c'),
    ]) {
      await store.savePieces('c', [{ type: 'text', text: 'in flight' }], 0);
      await write();
      expect(await store.loadTurn('c')).toBeUndefined();
    }
    expect((await rawEntries(store.name)).filter(([key]) => Array.isArray(key) && key[0] === 'piece')).toEqual([]);
  });

  it('refuses a piece that is not one (nothing is written) and skips unreadable records when reading', async () => {
    const store = open();
    const bad = [{ type: 'text', text: 'ok' }, { type: 'call', call: { id: 1 } }] as never;
    await expect(store.savePieces('c', bad, 0)).rejects.toMatchObject({ name: 'StoreError', reason: 'invalid' });
    await expect(store.savePieces('c', [{ type: 'text', text: 'x' }], -1)).rejects.toBeInstanceOf(StoreError);
    expect(await store.loadTurn('c')).toBeUndefined();
    await store.savePieces('c', [{ type: 'text', text: 'kept' }], 0);
    const { set } = await import('idb-keyval');
    const { rawStore } = await import('./helpers.js');
    await set(['piece', 'c', 1], { version: 9, piece: { type: 'text', text: 'from the future' } }, rawStore(store.name));
    await set(['piece', 'c', 2], { version: 1, piece: { type: 'text', text: ' too' } }, rawStore(store.name));
    expect((await store.loadTurn('c'))!.content).toBe('kept too');
  });

  it("an agent's in-flight save writes the new text once per write, and one transaction per window at most", async () => {
    const store = open(40);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const deltas = 60;
    const llm: AgentModel = {
      async *stream() {
        for (let i = 0; i < deltas; i++) {
          await new Promise((r) => setTimeout(r, 4));
          yield { type: 'text', text: `語${i} ` };
        }
        await held;
        yield { type: 'step', step: { content: Array.from({ length: deltas }, (_, i) => `語${i} `).join(''), reasoning_content: '', tool_calls: [], finish_reason: 'stop', usage: null } };
      },
    };
    const agent = new Agent({ llm, store, sessionId: 'c' });
    await store.list(); // (the store's first use upgrades old records in a transaction of its own)
    let transactions = 0;
    const original = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      if (args[1] === 'readwrite') transactions += 1;
      return original.apply(this, args);
    } as IDBDatabase['transaction'];
    const expected = Array.from({ length: deltas }, (_, i) => `語${i} `).join('');
    let writes: { puts: number; bytes: number } | undefined;
    let streamed = 0;
    let elapsed = 0;
    const run = (async () => {
      for await (const _ of agent.events('q')) void _;
    })();
    try {
      const started = performance.now();
      writes = await countWrites(async () => {
        await expect.poll(async () => (await store.loadTurn('c'))?.content, { timeout: 10_000, interval: 20 }).toBe(expected);
      });
      elapsed = performance.now() - started;
      streamed = transactions;
    } finally {
      IDBDatabase.prototype.transaction = original;
    }
    release();
    await run;
    await agent.whenSaved();
    // the user's message (one transaction), then at most one write of pieces per 40 ms window, each
    // holding only what came since the last: fewer records than deltas
    expect(streamed).toBeLessThanOrEqual(1 + Math.ceil(elapsed / 40) + 1);
    expect(writes!.puts).toBeLessThan(deltas);
    expect(await store.loadTurn('c')).toBeUndefined();
    expect((await store.load('c'))!.messages.map((m) => m.content)).toEqual(['q', expected]);
  });
});
