// A rating kept on the stored answer's record: set, cleared, read back with the tree, exported and
// imported; never inside the message (which goes to the provider); hostile values refused whole.
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../../../src/store/index.js';
import { StoreError } from '../../../src/errors.js';
import { plant, rawEntries, rejection, uniqueName } from './helpers.js';

const opened: SessionStore[] = [];
function open(): SessionStore {
  const store = createSessionStore({ name: uniqueName('feedback') });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

async function conversation(store: SessionStore): Promise<void> {
  await store.append('c', [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello.' },
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: 'Sunny.' },
  ]);
}

describe('session store feedback', () => {
  it('keeps a rating beside the message: loadTree gives it back, load keeps the message as it was', async () => {
    const store = open();
    await conversation(store);
    await store.setFeedback('c', 1, { rating: 'up' });
    await store.setFeedback('c', 3, { rating: 'down', comment: 'It is raining here.' });
    const tree = (await store.loadTree('c'))!;
    expect(tree.nodes.map((n) => n.feedback)).toEqual([undefined, { rating: 'up' }, undefined, { rating: 'down', comment: 'It is raining here.' }]);
    // the messages the agent sends on are unchanged
    expect((await store.load('c'))!.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: 'Sunny.' },
    ]);
    await store.setFeedback('c', 1, null);
    expect((await store.loadTree('c'))!.nodes[1]!.feedback).toBeUndefined();
  });

  it('exports the rating on the tree node and imports it back', async () => {
    const store = open();
    await conversation(store);
    await store.setFeedback('c', 3, { rating: 'down', comment: '不对' });
    const json = await store.export('c');
    const file = JSON.parse(json) as { tree: { nodes: Array<Record<string, unknown>> }; session: { messages: unknown[] } };
    expect(file.tree.nodes[3]!.feedback).toEqual({ rating: 'down', comment: '不对' });
    expect(JSON.stringify(file.session.messages)).not.toContain('feedback');
    const other = open();
    const id = await other.import(json);
    expect((await other.loadTree(id))!.nodes.map((n) => n.feedback?.rating)).toEqual([undefined, undefined, undefined, 'down']);
    expect((await other.loadTree(id))!.nodes[3]!.feedback).toEqual({ rating: 'down', comment: '不对' });
  });

  it('refuses hostile ratings in an import whole, naming the problem, and writes nothing', async () => {
    const store = open();
    await conversation(store);
    await store.setFeedback('c', 1, { rating: 'up' });
    const good = JSON.parse(await store.export('c')) as { id: string; tree: { nodes: Array<Record<string, unknown>> } };
    const hostile: Array<[unknown, RegExp]> = [
      ['up', /feedback is not an object/],
      [null, /feedback is not an object/],
      [[{ rating: 'up' }], /feedback is not an object/],
      [{ rating: 'meh' }, /rating is not "up" or "down"/],
      [{ rating: 'UP' }, /rating is not "up" or "down"/],
      [{ rating: 'down', comment: 42 }, /comment is not a string/],
      [{ rating: 'down', comment: 'x'.repeat(4001) }, /longer than 4000/],
      [{ rating: 'up', score: 5 }, /unknown field "score"/],
      [JSON.parse('{"rating": "up", "__proto__": {"polluted": true}}'), /unknown field "__proto__"/],
    ];
    const target = open();
    for (const [feedback, message] of hostile) {
      const file = structuredClone(good);
      file.tree.nodes[1]!.feedback = feedback;
      const err = await rejection(target.import(JSON.stringify(file)));
      expect(err.reason).toBe('invalid');
      expect(err.message).toMatch(/tree node 1/);
      expect(err.message).toMatch(message);
    }
    // a field a node never has is refused too
    const extra = structuredClone(good);
    extra.tree.nodes[0]!.rating = 'up';
    expect((await rejection(target.import(JSON.stringify(extra)))).message).toMatch(/tree node 0 has an unknown field "rating"/);
    expect(await target.list()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a bad rating or a missing message with a typed error and keeps the stored one', async () => {
    const store = open();
    await conversation(store);
    await store.setFeedback('c', 1, { rating: 'up' });
    expect((await rejection(store.setFeedback('c', 1, { rating: 'sideways' } as never))).reason).toBe('invalid');
    expect((await rejection(store.setFeedback('c', 1, { rating: 'up', html: '<img>' } as never))).reason).toBe('invalid');
    expect((await rejection(store.setFeedback('c', -1, { rating: 'up' }))).reason).toBe('invalid');
    expect((await rejection(store.setFeedback('c', 9, { rating: 'up' }))).reason).toBe('not-found');
    expect((await rejection(store.setFeedback('nope', 0, { rating: 'up' }))).reason).toBe('not-found');
    expect((await store.loadTree('c'))!.nodes[1]!.feedback).toEqual({ rating: 'up' });
  });

  it('reads a record whose stored rating is bad without it (the conversation still opens)', async () => {
    const store = open();
    await conversation(store);
    await store.setFeedback('c', 1, { rating: 'up' });
    const key = ['message', 'c', 1];
    const record = (await rawEntries(store.name)).find(([k]) => JSON.stringify(k) === JSON.stringify(key))![1] as Record<string, unknown>;
    expect(record.feedback).toEqual({ rating: 'up' });
    await plant(store.name, key, { ...record, feedback: { rating: 'evil', comment: {} } });
    const tree = (await store.loadTree('c'))!;
    expect(tree.nodes.length).toBe(4);
    expect(tree.nodes[1]!.feedback).toBeUndefined();
  });
});
