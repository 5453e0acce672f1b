import { afterEach, describe, expect, it } from 'vitest';
import { activePath, createSessionStore, siblingsOf, type SessionStore, type StoreChange } from '../../../src/store/index.js';
import { StoreError } from '../../../src/errors.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { countWrites, turn, uniqueName } from './helpers.js';

const opened: SessionStore[] = [];
function open(name = uniqueName('branches')): SessionStore {
  const store = createSessionStore({ name });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

const user = (content: string): ChatMessage => ({ role: 'user', content });
const answer = (content: string): ChatMessage => ({ role: 'assistant', content });
const texts = (messages: readonly ChatMessage[]): unknown[] => messages.map((m) => m.content);

describe('conversations as trees', () => {
  it('appends along the active path and forks from an earlier message, keeping every branch', async () => {
    const store = open();
    expect(await store.append('c', [user('Q1'), answer('A1'), user('Q2'), answer('A2')])).toEqual({ from: 0, head: 3 });
    // regenerate A2: a sibling of message 3 under message 2
    expect(await store.append('c', [answer('A2 again')], { parent: 2 })).toEqual({ from: 4, head: 4 });
    const loaded = await store.load('c');
    expect(texts(loaded!.messages)).toEqual(['Q1', 'A1', 'Q2', 'A2 again']);
    expect(loaded!.seqs).toEqual([0, 1, 2, 4]);
    // edit Q2: a sibling of message 2 under message 1
    await store.append('c', [user('Q2 edited'), answer('A2 for the edit')], { parent: 1 });
    const tree = await store.loadTree('c');
    expect(tree!.head).toBe(6);
    expect(tree!.nodes.map((n) => [n.seq, n.parent])).toEqual([[0, null], [1, 0], [2, 1], [3, 2], [4, 2], [5, 1], [6, 5]]);
    expect(texts(activePath(tree!).map((n) => n.message))).toEqual(['Q1', 'A1', 'Q2 edited', 'A2 for the edit']);
    expect(siblingsOf(tree!, 5)).toEqual({ siblings: [2, 5], index: 1 });
    expect((await store.list())[0]!.messageCount).toBe(4);
  });

  it('switches branches, remembers the choice at every fork, and a new store instance reads the same path', async () => {
    const name = uniqueName('branches');
    const store = open(name);
    await store.append('c', [user('Q1'), answer('A1'), user('Q2'), answer('A2')]);
    await store.append('c', [answer('A2 again')], { parent: 2 }); // 4
    await store.append('c', [user('Q2 edited'), answer('A2 for the edit')], { parent: 1 }); // 5, 6
    // back to the first version of Q2: continues to its answer chosen last (4, the regenerated one)
    expect(await store.switchBranch('c', 2)).toBe(4);
    expect(texts((await store.load('c'))!.messages)).toEqual(['Q1', 'A1', 'Q2', 'A2 again']);
    expect(await store.switchBranch('c', 3)).toBe(3);
    expect((await store.load('c'))!.seqs).toEqual([0, 1, 2, 3]);
    // `through` reads another path without changing the saved one
    expect(texts((await store.load('c', { through: 5 }))!.messages)).toEqual(['Q1', 'A1', 'Q2 edited', 'A2 for the edit']);
    const again = open(name);
    expect((await again.load('c'))!.seqs).toEqual([0, 1, 2, 3]);
    expect((await again.list())[0]!.messageCount).toBe(4);
    const err = await again.switchBranch('c', 99).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).reason).toBe('not-found');
  });

  it('tells subscribers which branch became active', async () => {
    const store = open();
    const changes: StoreChange[] = [];
    store.subscribe((c) => changes.push(c));
    await store.append('c', [user('Q'), answer('A')]);
    await store.append('c', [answer('B')], { parent: 0 });
    await store.switchBranch('c', 1);
    expect(changes).toEqual([
      { type: 'append', id: 'c', from: 0, count: 2, messageCount: 2, parent: null, head: 1, remote: false },
      { type: 'append', id: 'c', from: 2, count: 1, messageCount: 2, parent: 0, head: 2, remote: false },
      { type: 'branch', id: 'c', head: 1, messageCount: 2, remote: false },
    ]);
  });

  it('writes the same records per turn with branches at 10 and 1,000 messages', async () => {
    const store = open();
    const figures: Record<number, { puts: number; bytes: number }> = {};
    let n = 0;
    for (const size of [10, 1000]) {
      while (n < size - 2) {
        await store.append('big', turn(n));
        n += 4;
      }
      const { head } = await store.append('big', [user(`question ${size}`), answer(`answer ${size}`)]);
      // a regenerated answer: a new branch beside the last one
      figures[size] = await countWrites(() => store.append('big', [answer(`again ${size}`)], { parent: head - 1 }));
      n += 3;
    }
    // one message record and the meta record, whatever the size
    expect(figures[10]!.puts).toBe(2);
    expect(figures[1000]!.puts).toBe(2);
    // the meta record grows only by its fork choices (one per fork), not with the messages
    expect(figures[1000]!.bytes - figures[10]!.bytes).toBeLessThan(40);
  });

  it('exports every branch (version 2) and imports it back with the same active path', async () => {
    const store = open();
    await store.append('c', [user('Q1'), answer('A1')]);
    await store.append('c', [answer('A1 again')], { parent: 0 });
    await store.switchBranch('c', 1);
    const file = JSON.parse(await store.export('c')) as { version: number; tree: { head: number; nodes: unknown[] }; session: { messages: ChatMessage[] } };
    expect(file.version).toBe(2);
    expect(file.tree.nodes).toHaveLength(3);
    expect(texts(file.session.messages)).toEqual(['Q1', 'A1']);
    const id = await store.import(JSON.stringify(file));
    expect(id).not.toBe('c');
    expect(await store.loadTree(id)).toEqual(await store.loadTree('c'));
    // a version 1 file (one path, no tree) still imports
    const v1 = { ...file, version: 1, tree: undefined };
    const old = await store.import(JSON.stringify(v1));
    expect((await store.loadTree(old))!.nodes.map((n) => n.parent)).toEqual([null, 0]);
  });

  it('loses no branch when two stores (two tabs) branch the same conversation at once', async () => {
    const name = uniqueName('branches');
    const a = open(name);
    const b = open(name);
    await a.append('c', [user('Q'), answer('A')]);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      writes.push(a.append('c', [answer(`a${i}`)], { parent: 0 }));
      writes.push(b.append('c', [user(`b${i}`), answer(`b${i} answer`)], { parent: 1 }));
    }
    await Promise.all(writes);
    const tree = (await open(name).loadTree('c'))!;
    expect(tree.nodes).toHaveLength(2 + 10 + 20);
    const contents = tree.nodes.map((n) => n.message.content);
    for (let i = 0; i < 10; i++) expect(contents).toContain(`a${i}`);
    for (let i = 0; i < 10; i++) expect(tree.nodes.find((n) => n.message.content === `b${i} answer`)!.parent).toBe(contents.indexOf(`b${i}`));
    expect(siblingsOf(tree, 1).siblings).toHaveLength(11);
  });
});
