import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { activePath, childrenOf, choicesFor, leafBelow, pathTo, siblingsOf, type SessionTree, type TreeNode } from '../../../src/store/tree.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });

// 0 "q" ─┬─ 1 "a1" ── 3 "q2"
//        └─ 2 "a2" (a regenerated answer)
// 4 "q edited" ── 5 "b" (an edited first question)
const nodes: TreeNode[] = [
  { seq: 0, parent: null, message: user('q') },
  { seq: 1, parent: 0, message: assistant('a1') },
  { seq: 2, parent: 0, message: assistant('a2') },
  { seq: 3, parent: 1, message: user('q2') },
  { seq: 4, parent: null, message: user('q edited') },
  { seq: 5, parent: 4, message: assistant('b') },
];
const tree = (head: number, choices: Record<number, number> = {}): SessionTree => ({ head, nodes, choices });
const bySeq = new Map(nodes.map((n) => [n.seq, n]));
const seqs = (path: readonly TreeNode[]): number[] => path.map((n) => n.seq);

describe('conversation trees', () => {
  it('lists the children of every message by ascending seq, the first messages under -1', () => {
    expect([...childrenOf(nodes)]).toEqual([[-1, [0, 4]], [0, [1, 2]], [1, [3]], [4, [5]]]);
    expect(childrenOf([]).size).toBe(0);
  });

  it('goes down to a leaf through the chosen child, else the newest, ignoring a choice that is not a child', () => {
    const children = childrenOf(nodes);
    expect(leafBelow(0, children, {})).toBe(2);
    expect(leafBelow(0, children, { 0: 1 })).toBe(3);
    expect(leafBelow(0, children, { 0: 5 })).toBe(2);
    expect(leafBelow(-1, children, {})).toBe(5);
    expect(leafBelow(-1, children, { [-1]: 0, 0: 1 })).toBe(3);
    expect(leafBelow(3, children, {})).toBe(3);
  });

  it('gives the path from a first message down to a leaf', () => {
    expect(pathTo(3, bySeq)).toEqual([0, 1, 3]);
    expect(pathTo(5, bySeq)).toEqual([4, 5]);
    expect(pathTo(-1, bySeq)).toEqual([]);
  });

  it('gives the active path to the head, or through a message and on below it', () => {
    expect(seqs(activePath(tree(3)))).toEqual([0, 1, 3]);
    expect(activePath(tree(3))[2]?.message).toEqual(user('q2'));
    expect(seqs(activePath(tree(3), 0))).toEqual([0, 2]);
    expect(seqs(activePath(tree(3, { 0: 1 }), 0))).toEqual([0, 1, 3]);
    expect(seqs(activePath(tree(3), 4))).toEqual([4, 5]);
    expect(activePath({ head: -1, nodes: [], choices: {} })).toEqual([]);
  });

  it("names a message's versions and its place among them", () => {
    expect(siblingsOf(tree(3), 2)).toEqual({ siblings: [1, 2], index: 1 });
    expect(siblingsOf(tree(3), 0)).toEqual({ siblings: [0, 4], index: 0 });
    expect(siblingsOf(tree(3), 3)).toEqual({ siblings: [3], index: 0 });
    expect(siblingsOf(tree(3), 9)).toEqual({ siblings: [9], index: 0 });
  });

  it('chooses the path to a leaf at every fork it passes, keeping the other choices', () => {
    expect(choicesFor(3, nodes, {})).toEqual({ [-1]: 0, 0: 1 });
    expect(choicesFor(2, nodes, { 0: 1 })).toEqual({ [-1]: 0, 0: 2 });
    expect(choicesFor(5, nodes, { 0: 1 })).toEqual({ [-1]: 4, 0: 1 });
  });
});
