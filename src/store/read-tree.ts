/**
 * Reading a stored conversation tree inside a transaction: the session record, every message record and
 * attachment of the session, checked and put back together. Version 1 records read as a single path;
 * fields the store does not write (in records stored before it checked them) are left out.
 */
import { promisifyRequest } from 'idb-keyval';
import type { ChatMessage } from '../agent/messages.js';
import { errorMessage, type StoreError } from '../errors.js';
import { blobRange, restoreMessage, type BlobKey } from './attachment-blobs.js';
import { storedMessage } from './message-checks.js';
import { messageRecordProblem, sessionRecordProblem, type MessageRecord, type SessionRecord } from './records.js';
import { feedbackProblem, storedFeedback } from './feedback.js';
import type { SessionTree, TreeNode } from './tree.js';
import { placeOf, upgradeRecord, type TreeRecord } from './tree-records.js';
import { storeFailure } from './store-errors.js';

export type MessageKey = ['message', string, number];
export const messageKey = (id: string, seq: number): MessageKey => ['message', id, seq];
export const messageRange = (id: string): IDBKeyRange => IDBKeyRange.bound(['message', id, 0], ['message', id, Infinity]);
export const sessionKey = (id: string): ['session', string] => ['session', id];

/**
 * The stored tree of session `id` and its record, or `undefined` when there is none.
 *
 * @throws StoreError `corrupt` when a record is unreadable or a message is missing.
 */
export async function readTree(
  store: IDBObjectStore,
  id: string,
): Promise<{ record: TreeRecord; tree: SessionTree } | undefined> {
  const [meta, keys, values, blobKeys, blobValues] = await Promise.all([
    promisifyRequest(store.get(sessionKey(id))),
    promisifyRequest(store.getAllKeys(messageRange(id))),
    promisifyRequest(store.getAll(messageRange(id))),
    promisifyRequest(store.getAllKeys(blobRange(id))),
    promisifyRequest(store.getAll(blobRange(id))),
  ]);
  if (meta === undefined) return undefined;
  const corrupt = (why: string): StoreError => storeFailure('corrupt', 'load', id, why);
  const metaProblem = sessionRecordProblem(meta, id);
  if (metaProblem) throw corrupt(metaProblem);
  const record = upgradeRecord(meta as SessionRecord);
  if (values.length !== record.nextSeq) {
    throw corrupt(`${values.length} message records stored, the session record says ${record.nextSeq}`);
  }
  const blobs = new Map<number, Map<number, unknown>>();
  blobKeys.forEach((k, i) => {
    const [, , seq, part] = k as BlobKey;
    let forMessage = blobs.get(seq);
    if (!forMessage) blobs.set(seq, (forMessage = new Map()));
    forMessage.set(part, blobValues[i]);
  });
  const nodes: TreeNode[] = [];
  for (let i = 0; i < values.length; i++) {
    if ((keys[i] as MessageKey)[2] !== i) throw corrupt(`message ${i} is missing`);
    const problem = messageRecordProblem(values[i]);
    if (problem) throw corrupt(`message ${i}: ${problem}`);
    const value = values[i] as MessageRecord;
    const { parent } = placeOf(value, i);
    if (parent !== null && parent >= i) throw corrupt(`message ${i} follows a later message`);
    let message: ChatMessage;
    try {
      message = storedMessage(await restoreMessage(value, blobs.get(i), i));
    } catch (err) {
      throw corrupt(errorMessage(err));
    }
    const node: TreeNode = { seq: i, parent, message };
    if (value.feedback !== undefined && feedbackProblem(value.feedback) === undefined) node.feedback = storedFeedback(value.feedback);
    nodes.push(node);
  }
  return { record, tree: { head: record.head, nodes, choices: { ...record.choices } } };
}
