/**
 * The session store's connection to its IndexedDB database (through an idb-keyval custom store): opened
 * on the first operation, reopened when another tab upgrades or deletes the database or the browser
 * closes it, given up with a `blocked` error when it does not open in time, and every operation preceded
 * once by the upgrade of version 1 records (./migrate.ts). Failures become typed `StoreError`s.
 */
import { createStore, promisifyRequest, type UseStore } from 'idb-keyval';
import { StoreError } from '../errors.js';
import { migrateRecords } from './migrate.js';
import { storeError, storeFailure } from './store-errors.js';

/** The one object store every record lives in. */
const OBJECT_STORE = 'sessions';

/** Rejects with `err` from inside a transaction callback: aborts the transaction so nothing is written. */
export function abortWith(store: IDBObjectStore, reject: (e: unknown) => void, err: unknown): void {
  try {
    store.transaction.abort();
  } catch {
    // already finished or aborting: nothing was committed by this callback anyway
  }
  reject(err);
}

/** A connection to the database `name`, as {@link openConnection} returns it. */
export interface Connection {
  /**
   * Runs `body` in a transaction of the object store (after the version 1 upgrade, once); a failure
   * rejects with a `StoreError` naming `operation` and `id`.
   */
  run<T>(
    mode: IDBTransactionMode,
    operation: string,
    id: string | undefined,
    body: (store: IDBObjectStore) => T | PromiseLike<T>,
  ): Promise<T>;
  /** Closes the database; the next `run` opens it again. */
  close(): void;
}

/** Opens nothing yet: the database `name` opens on the first `run`. */
export function openConnection(name: string, openTimeoutMs: number): Connection {
  let use: UseStore | undefined;
  let db: IDBDatabase | undefined;

  function connection(): UseStore {
    if (typeof indexedDB === 'undefined') {
      throw new StoreError('unavailable', 'Session store: IndexedDB is not available in this environment');
    }
    use ??= createStore(name, OBJECT_STORE);
    return use;
  }

  function adopt(current: UseStore, opened: IDBDatabase): void {
    if (db === opened) return;
    db = opened;
    const drop = (): void => {
      if (use === current) use = undefined;
      if (db === opened) db = undefined;
    };
    // Another tab upgrades or deletes the database: let it, and reopen on the next call.
    opened.addEventListener('versionchange', () => {
      opened.close();
      drop();
    });
    // The browser closed the connection (site data cleared, disk error).
    opened.addEventListener('close', drop);
  }

  // Version 1 records become version 2 before this store's first operation (see ./migrate.ts). Reads
  // understand version 1 too, so an operation goes ahead when the upgrade fails; the next one tries again.
  let migration: Promise<unknown> | undefined;

  async function run<T>(
    mode: IDBTransactionMode,
    operation: string,
    id: string | undefined,
    body: (store: IDBObjectStore) => T | PromiseLike<T>,
  ): Promise<T> {
    migration ??= transact('readwrite', 'upgrade', undefined, async (store) => {
      await migrateRecords(store);
      await promisifyRequest(store.transaction);
    }).catch(() => {
      migration = undefined;
    });
    await migration;
    return transact(mode, operation, id, body);
  }

  async function transact<T>(
    mode: IDBTransactionMode,
    operation: string,
    id: string | undefined,
    body: (store: IDBObjectStore) => T | PromiseLike<T>,
    retry = true,
  ): Promise<T> {
    let current: UseStore;
    try {
      current = connection();
    } catch (err) {
      throw storeError(err, operation, id);
    }
    let started = false;
    let abandoned = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const work = current(mode, (store) => {
      const opened = store.transaction.db;
      if (abandoned) {
        opened.close();
        throw new StoreError('blocked', `Session store ${operation}: gave up waiting for the database`);
      }
      started = true;
      adopt(current, opened);
      return body(store);
    });
    const blocked = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (started) return;
        abandoned = true;
        if (use === current) use = undefined;
        reject(
          storeFailure('blocked', operation, id, `the database "${name}" did not open within ${openTimeoutMs} ms (another tab may be blocking it)`),
        );
      }, openTimeoutMs);
    });
    try {
      return await Promise.race([work, blocked]);
    } catch (err) {
      // The connection closed under us (the database was deleted or upgraded elsewhere): reopen once.
      if (retry && !started && err instanceof DOMException && err.name === 'InvalidStateError') {
        if (use === current) use = undefined;
        return transact(mode, operation, id, body, false);
      }
      throw storeError(err, operation, id);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    run,
    close() {
      db?.close();
      db = undefined;
      use = undefined;
    },
  };
}
