/**
 * Upgrades the records of record version 1 (one path per conversation) to version 2 (trees) in place:
 * each session record gains `nextSeq`, `head` and `choices`, each message record its `parent` (the message
 * before it) and `depth`. Message text, attachments (their blob records are not touched), titles, dates and
 * notes stay as they were. Runs in one readwrite transaction when a store first opens its database; a
 * second tab doing the same finds nothing left to do.
 */
import { RECORD_VERSION, messageRecordProblem, sessionRecordProblem, type MessageRecord, type SessionRecord } from './records.js';
import { placeOf, upgradeRecord } from './tree-records.js';

const ALL_SESSIONS = (): IDBKeyRange => IDBKeyRange.bound(['session'], ['session', []]);
const ALL_MESSAGES = (): IDBKeyRange => IDBKeyRange.bound(['message'], ['message', []]);

function eachRecord(store: IDBObjectStore, range: IDBKeyRange, visit: (cursor: IDBCursorWithValue) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = store.openCursor(range);
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor) return resolve();
      visit(cursor);
      cursor.continue();
    };
  });
}

/**
 * Rewrites every readable version 1 session and message record as version 2 and resolves with how many
 * records it rewrote. An unreadable record is left as it is (loading its session reports it as corrupt).
 * The message records are visited only when a session record of version 1 is found: version 1 code writes
 * its session record with every message, so without one there is no message to upgrade, and a store of
 * 100,000 messages is not read whole each time a page opens it.
 */
export async function migrateRecords(store: IDBObjectStore): Promise<number> {
  let rewritten = 0;
  let older = false;
  await eachRecord(store, ALL_SESSIONS(), (cursor) => {
    const value = cursor.value as SessionRecord;
    const id = (cursor.key as [string, string])[1];
    if (value?.version !== 1) return;
    older = true;
    if (sessionRecordProblem(value, id)) return;
    cursor.update(upgradeRecord(value));
    rewritten += 1;
  });
  if (!older) return rewritten;
  await eachRecord(store, ALL_MESSAGES(), (cursor) => {
    const value = cursor.value as MessageRecord;
    if (value?.version !== 1 || messageRecordProblem(value)) return;
    const seq = (cursor.key as [string, string, number])[2];
    cursor.update({ ...value, version: RECORD_VERSION, ...placeOf(value, seq) } satisfies MessageRecord);
    rewritten += 1;
  });
  return rewritten;
}
