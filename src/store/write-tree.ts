/**
 * Writing a whole conversation: its meta record and one record per message of its tree, replacing what
 * was stored under its id (messages, attachment blobs and the pieces of a turn in flight alike). `save` and `import` use it; `append`
 * writes only the new messages.
 */
import type { ChatMessage } from '../agent/messages.js';
import { blobRange, putMessage } from './attachment-blobs.js';
import { messageKey, messageRange, sessionKey } from './read-tree.js';
import { RECORD_VERSION, titleFrom, type SessionKind, type SessionRecord } from './records.js';
import { pieceRange } from './turn-pieces.js';
import { storedFeedback } from './feedback.js';
import type { SessionTree, TreeNode } from './tree.js';
import { depthsOf, type TreeRecord } from './tree-records.js';

/** Writes a whole session (replacing any stored one) inside `store`'s transaction. */
export function writeWhole(
  store: IDBObjectStore,
  id: string,
  previous: SessionRecord | undefined,
  data: { kind: SessionKind; systemPrompt: string | undefined; messages: readonly ChatMessage[] },
  meta: { title: string | undefined; createdAt?: number; updatedAt?: number },
  tree?: SessionTree,
): SessionRecord {
  const now = Date.now();
  store.delete(messageRange(id));
  store.delete(blobRange(id));
  store.delete(pieceRange(id));
  const nodes = tree?.nodes ?? data.messages.map((message, seq) => ({ seq, parent: seq === 0 ? null : seq - 1, message }));
  const depths = depthsOf(nodes);
  for (const node of nodes) {
    const place = { parent: node.parent, depth: depths[node.seq]! };
    const rated = (node as TreeNode).feedback;
    putMessage(store, messageKey(id, node.seq), id, node.seq, node.message, rated ? { ...place, feedback: storedFeedback(rated) } : place);
  }
  const head = tree ? tree.head : nodes.length - 1;
  const record: TreeRecord = {
    version: RECORD_VERSION,
    id,
    title: meta.title ?? previous?.title ?? titleFrom(data.messages),
    createdAt: meta.createdAt ?? previous?.createdAt ?? now,
    updatedAt: meta.updatedAt ?? now,
    messageCount: head < 0 ? 0 : depths[head]! + 1,
    revision: (previous?.revision ?? 0) + 1,
    kind: data.kind,
    systemPrompt: data.systemPrompt,
    nextSeq: nodes.length,
    head,
    choices: tree ? { ...tree.choices } : {},
  };
  store.put(record, sessionKey(id));
  return record;
}
