/**
 * Conversations as trees: every stored message names its parent (the message it answers or follows), so
 * a regenerated answer or an edited question starts a new branch beside the old one and nothing is
 * overwritten. The active path runs from a root to the `head` leaf; `choices` remembers, at each fork,
 * which child the user last chose. These functions are pure: the store reads the records, they walk them.
 */
import type { ChatMessage } from '../agent/messages.js';
import type { MessageFeedback } from './feedback.js';

/** One message of a conversation tree. */
export interface TreeNode {
  /** The message's sequence number in its conversation: unique, never reused, in order of writing. */
  seq: number;
  /** The `seq` of the message before it, or `null` for a first message. */
  parent: number | null;
  message: ChatMessage;
  /** The reader's rating of this message, when there is one. */
  feedback?: MessageFeedback;
}

/** A whole conversation tree, as {@link SessionStore.loadTree} returns it. */
export interface SessionTree {
  /** The `seq` of the last message of the active path (a leaf), or `-1` for an empty conversation. */
  head: number;
  /** Every message of every branch, by ascending `seq`. */
  nodes: TreeNode[];
  /**
   * The child last chosen at each fork, by the parent's `seq` (`-1` for the first messages). A fork
   * without an entry continues with its newest child.
   */
  choices: Record<number, number>;
}

/** The children of every node, by ascending `seq` (roots under `-1`). */
export function childrenOf(nodes: readonly TreeNode[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const node of nodes) {
    const key = node.parent ?? -1;
    const list = out.get(key);
    if (list) list.push(node.seq);
    else out.set(key, [node.seq]);
  }
  return out;
}

/** The leaf reached from `seq` going down through the chosen (else newest) child at every fork. */
export function leafBelow(seq: number, children: ReadonlyMap<number, readonly number[]>, choices: Readonly<Record<number, number>>): number {
  let at = seq;
  for (;;) {
    const below = children.get(at);
    if (!below || below.length === 0) return at;
    const chosen = choices[at];
    at = chosen !== undefined && below.includes(chosen) ? chosen : below[below.length - 1]!;
  }
}

/** The `seq`s from a root down to `leaf`. */
export function pathTo(leaf: number, bySeq: ReadonlyMap<number, TreeNode>): number[] {
  const path: number[] = [];
  for (let at: number | null = leaf; at !== null && at >= 0; at = bySeq.get(at)?.parent ?? null) path.push(at);
  return path.reverse();
}

/**
 * The nodes of the active path of `tree`, first message first: the path to `head`, or, with `through`,
 * the path through message `through` continuing to the leaf chosen (else newest) below it.
 *
 * @example
 * const tree = await store.loadTree(id);
 * const shown = activePath(tree); // [{ seq, parent, message }, …]
 */
export function activePath(tree: SessionTree, through?: number): TreeNode[] {
  const bySeq = new Map(tree.nodes.map((n) => [n.seq, n]));
  const leaf = through === undefined ? tree.head : leafBelow(through, childrenOf(tree.nodes), tree.choices);
  return pathTo(leaf, bySeq).map((seq) => bySeq.get(seq)!);
}

/** The siblings of message `seq` (itself included, by ascending `seq`) and its 0-based place among them. */
export function siblingsOf(tree: SessionTree, seq: number): { siblings: number[]; index: number } {
  const node = tree.nodes.find((n) => n.seq === seq);
  const siblings = node ? (childrenOf(tree.nodes).get(node.parent ?? -1) ?? [seq]) : [seq];
  return { siblings, index: siblings.indexOf(seq) };
}

/** The choices that make the path to `leaf` the chosen one at every fork it passes. */
export function choicesFor(leaf: number, nodes: readonly TreeNode[], previous: Readonly<Record<number, number>>): Record<number, number> {
  const children = childrenOf(nodes);
  const bySeq = new Map(nodes.map((n) => [n.seq, n]));
  const out: Record<number, number> = { ...previous };
  for (const seq of pathTo(leaf, bySeq)) {
    const parent = bySeq.get(seq)!.parent ?? -1;
    if ((children.get(parent)?.length ?? 0) > 1) out[parent] = seq;
  }
  return out;
}
