/**
 * Notes kept beside the sessions (a `Memory`'s `save` and `load` use them): one record per key at
 * `["notes", key]`, never listed with the sessions; the store's `clear()` deletes them too.
 */
import { promisifyRequest } from 'idb-keyval';
import type { Connection } from './connection.js';
import { checkId, storeFailure } from './store-errors.js';

/** The record of one list of notes. */
interface NotesRecord {
  version: 1;
  notes: string[];
}

/** Saves `notes` under `key`, replacing what was there. */
export async function saveNotes(run: Connection['run'], key: string, notes: readonly string[]): Promise<void> {
  checkId(key, 'saveNotes');
  const record: NotesRecord = { version: 1, notes: notes.map(String) };
  await run('readwrite', 'saveNotes', key, (store) => {
    store.put(record, ['notes', key]);
    return promisifyRequest(store.transaction);
  });
}

/** The notes saved under `key`, or `undefined`. @throws StoreError `corrupt` when the record is unreadable. */
export async function loadNotes(run: Connection['run'], key: string): Promise<string[] | undefined> {
  checkId(key, 'loadNotes');
  const record: unknown = await run('readonly', 'loadNotes', key, (store) => promisifyRequest(store.get(['notes', key])));
  if (record === undefined) return undefined;
  const notes = (record as { notes?: unknown }).notes;
  if ((record as { version?: unknown }).version !== 1 || !Array.isArray(notes) || !notes.every((n) => typeof n === 'string')) {
    throw storeFailure('corrupt', 'loadNotes', key, 'not a version 1 notes record', {});
  }
  return notes as string[];
}
