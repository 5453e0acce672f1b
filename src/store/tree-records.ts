/**
 * The tree fields of a stored conversation's records (./tree.ts has the tree itself): each message record
 * names its parent and depth, the session record its `head`, `choices`, `nextSeq` and `messageCount` (the
 * active path's length). These functions compute them for each write: pure, so the store only reads and
 * puts the records.
 */
import type { ChatMessage } from '../agent/messages.js';
import { RECORD_VERSION, titleFrom, type MessageRecord, type SessionRecord } from './records.js';
import { choicesFor, childrenOf, leafBelow, pathTo, type SessionTree, type TreeNode } from './tree.js';

/** A session record of version 2, every tree field present. */
export type TreeRecord = SessionRecord & { version: 2; nextSeq: number; head: number; choices: Record<number, number> };

/** Where a message sits in its tree: the message it follows (`null` for a first message) and its depth. */
export interface TreePlace {
  parent: number | null;
  /** How many messages come before it on its path (0 for a first message). */
  depth: number;
}

/** A session record in version 2 form (a version 1 record is one path: its messages in order). */
export function upgradeRecord(r: SessionRecord): TreeRecord {
  if (r.version === 2) return r as TreeRecord;
  return { ...r, version: RECORD_VERSION, nextSeq: r.messageCount, head: r.messageCount - 1, choices: {} };
}

/** Where a stored message sits: its own fields (version 2) or the place after the one before (version 1). */
export function placeOf(record: MessageRecord, seq: number): TreePlace {
  if (record.version === 2) return { parent: record.parent ?? null, depth: record.depth ?? 0 };
  return { parent: seq === 0 ? null : seq - 1, depth: seq };
}

/** The depth of every node, by `seq`; every parent comes before its children in `nodes`. */
export function depthsOf(nodes: readonly Pick<TreeNode, 'seq' | 'parent'>[]): number[] {
  const depths: number[] = [];
  for (const node of nodes) depths[node.seq] = node.parent === null ? 0 : depths[node.parent]! + 1;
  return depths;
}

/**
 * Where messages appended to the session of record `previous` (none yet: `undefined`) go: after message
 * `asked` (`null`: as a new first message; `undefined`: after the active path's last message).
 * `askedRecord` is the stored record of message `asked`; `undefined` when there is no such message.
 */
export function appendPlace(
  previous: TreeRecord | undefined,
  asked: number | null | undefined,
  askedRecord: MessageRecord | undefined,
): TreePlace | undefined {
  const head = previous?.head ?? -1;
  const parent = asked === undefined ? (head < 0 ? null : head) : asked;
  if (parent === null) return { parent, depth: 0 };
  if (parent === head) return { parent, depth: previous!.messageCount };
  if (askedRecord === undefined) return undefined;
  return { parent, depth: placeOf(askedRecord, parent).depth + 1 };
}

/**
 * The session record after `messages` are appended at `place` (see {@link appendPlace}): they take the
 * seqs from `previous.nextSeq` on, the last one becomes the head, and a new branch beside others becomes
 * the one chosen at its fork. A new session (no `previous`) is titled after its first user message.
 */
export function appendedRecord(
  id: string,
  previous: TreeRecord | undefined,
  place: TreePlace,
  messages: readonly ChatMessage[],
  now: number,
): TreeRecord {
  const head = previous?.head ?? -1;
  const from = previous?.nextSeq ?? 0;
  const choices = { ...previous?.choices };
  if (messages.length > 0 && (place.parent ?? -1) !== head) choices[place.parent ?? -1] = from;
  return {
    version: RECORD_VERSION,
    id,
    title: previous?.title || titleFrom(messages),
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    messageCount: messages.length === 0 ? (previous?.messageCount ?? 0) : place.depth + messages.length,
    revision: (previous?.revision ?? 0) + 1,
    kind: previous?.kind ?? 'session',
    systemPrompt: previous?.systemPrompt,
    nextSeq: from + messages.length,
    head: messages.length === 0 ? head : from + messages.length - 1,
    choices,
  };
}

/**
 * The session record after the path through message `seq` becomes the active one: it continues below
 * `seq` through the branches chosen last (else the newest), and is chosen at every fork it passes.
 */
export function switchedRecord(record: TreeRecord, tree: SessionTree, seq: number): TreeRecord {
  const leaf = leafBelow(seq, childrenOf(tree.nodes), tree.choices);
  const path = pathTo(leaf, new Map(tree.nodes.map((n) => [n.seq, n])));
  return {
    ...record,
    head: leaf,
    choices: choicesFor(leaf, tree.nodes, tree.choices),
    messageCount: path.length,
    revision: record.revision + 1,
  };
}
