/**
 * Conversations kept in IndexedDB (through idb-keyval custom stores), so a user can close the tab and
 * come back to every session. Importing this module never touches IndexedDB: the database opens on the
 * first call.
 *
 * Layout: one object store holding a small meta record per session at `["session", id]` and one record per
 * message at `["message", id, seq]`. `append` writes only the new messages plus the meta record in one
 * readwrite transaction, so a turn costs the same at the 1,000th message as at the 10th, and two tabs
 * appending at once are serialised by IndexedDB (each reads the current count inside its transaction):
 * no message is lost. The base64 data of a user message's images and files lives in Blob records of its own
 * (`["blob", id, seq, part]`, see ./attachment-blobs.ts): written once with its turn, never read by `list()`.
 */
import { createStore, promisifyRequest, type UseStore } from 'idb-keyval';
import type { ChatMessage } from '../agent/messages.js';
import { StoreError, type StoreErrorReason } from '../errors.js';
import {
  EXPORT_FORMAT,
  RECORD_VERSION,
  exportProblem,
  messageRecordProblem,
  messagesProblem,
  sessionRecordProblem,
  titleFrom,
  type MessageRecord,
  type SessionExport,
  type SessionKind,
  type SessionRecord,
} from './records.js';
import { Session } from '../agent/session.js';
import { blobRange, nameQuotaAttachment, putMessage, restoreMessage, type BlobKey } from './attachment-blobs.js';
import { searchSessions, type SessionSearchHit, type SessionSearchOptions } from './session-search.js';

/** Options of {@link createSessionStore}. */
export interface SessionStoreOptions {
  /**
   * The IndexedDB database name. Two stores with the same name (in one page or in several tabs) share
   * their sessions and see each other's writes.
   * @defaultValue `"pagent-sessions"`
   */
  name?: string;
  /**
   * How long opening the database may wait before failing with `StoreError{reason: "blocked"}` (another
   * tab keeps an old connection open during an upgrade or a delete).
   * @defaultValue `5000`
   */
  openTimeoutMs?: number;
}

/** A session as listed by {@link SessionStore.list}: its meta data only, no messages. */
export interface SessionSummary {
  id: string;
  title: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds of the last write. */
  updatedAt: number;
  messageCount: number;
  /** Set when the stored meta record is unreadable: the session can only be deleted. */
  corrupt?: true;
}

/**
 * A change to the store, from this page (`remote: false`) or from another page on the same origin
 * (`remote: true`, delivered through a `BroadcastChannel`). An `append` names the range it added, so a
 * view can read just that.
 */
export type StoreChange =
  | { type: 'append'; id: string; from: number; count: number; messageCount: number; remote: boolean }
  | { type: 'save'; id: string; messageCount: number; remote: boolean }
  | { type: 'rename'; id: string; title: string; remote: boolean }
  | { type: 'delete'; id: string; remote: boolean }
  | { type: 'clear'; remote: boolean };

/** Receives every {@link StoreChange}. */
export type StoreListener = (change: StoreChange) => void;

/** Storage use of the origin, from `navigator.storage.estimate()`, in bytes. */
export interface StorageEstimateBytes {
  usage: number;
  quota: number;
}

/**
 * Sessions in IndexedDB. Every method rejects with a {@link StoreError} (never a raw DOMException); a
 * failed write changes nothing and never touches the session object it was given.
 */
export interface SessionStore {
  /** The IndexedDB database name. */
  readonly name: string;
  /** Summaries of every session, newest `updatedAt` first, read without loading any message. */
  list(): Promise<SessionSummary[]>;
  /**
   * The stored session, or `undefined` when there is none.
   * @throws StoreError `corrupt` when its records are unreadable (other sessions stay readable).
   */
  load(id: string): Promise<Session | undefined>;
  /**
   * Replaces the stored session with this one (all its messages), keeping `createdAt`. Use it to store a
   * session built elsewhere; a running conversation should use {@link SessionStore.append}.
   */
  save(id: string, session: Pick<Session, 'toJSON'>, options?: { title?: string }): Promise<void>;
  /**
   * Adds messages after the stored ones, writing only these messages and the small meta record, in one
   * transaction. Creates the session when it does not exist.
   * @throws StoreError `deleted` when this store saw the session before and it has since been deleted
   *   (through this store, by another tab, or by clearing site data): appending only the tail would store
   *   a broken conversation. {@link SessionStore.save} of the whole session stores it again.
   */
  append(id: string, messages: readonly ChatMessage[]): Promise<void>;
  /** Sets the title. @throws StoreError `not-found` when there is no such session. */
  rename(id: string, title: string): Promise<void>;
  /** Deletes a session and all its messages; deleting a missing session does nothing. */
  delete(id: string): Promise<void>;
  /** Deletes every session of this store (a remembered API key lives elsewhere and stays). */
  clear(): Promise<void>;
  /** One session as JSON text (see `import`). @throws StoreError `not-found`. */
  export(id: string): Promise<string>;
  /**
   * Stores an exported session and returns its id: the file's id when it is free, else a new one (an
   * import never overwrites). @throws StoreError `invalid` for a malformed file; nothing is written then.
   */
  import(json: string): Promise<string>;
  /**
   * Finds conversations by title and message text (case- and width-insensitive, CJK included): title hits
   * first, then message hits, newest `updatedAt` first, each with a snippet around the match. Reads one
   * conversation at a time in small batches (never every message at once) and stops at `limit` hits.
   * An empty query finds nothing. @throws the signal's reason when `signal` aborts.
   */
  search(query: string, options?: SessionSearchOptions): Promise<SessionSearchHit[]>;
  /** Asks the browser to keep this origin's storage under pressure; `true` when it is persisted. */
  persist(): Promise<boolean>;
  /** The origin's estimated storage usage and quota in bytes. */
  estimate(): Promise<StorageEstimateBytes>;
  /**
   * Calls `listener` for every change made through any store of this name, in this page or another tab.
   * Returns the function that unsubscribes.
   */
  subscribe(listener: StoreListener): () => void;
  /** Closes the database connection and the change channel; the store reopens them if used again. */
  close(): void;
  /**
   * Saves a list of notes under `key` (a `Memory`'s `save` uses it), beside the sessions and never
   * listed with them; `clear()` deletes them too.
   */
  saveNotes(key: string, notes: readonly string[]): Promise<void>;
  /** The notes saved under `key`, or `undefined`. @throws StoreError `corrupt` when the record is unreadable. */
  loadNotes(key: string): Promise<string[] | undefined>;
}

const OBJECT_STORE = 'sessions';
type SessionKey = ['session', string];
type MessageKey = ['message', string, number];
const sessionKey = (id: string): SessionKey => ['session', id];
const messageKey = (id: string, seq: number): MessageKey => ['message', id, seq];
const messageRange = (id: string): IDBKeyRange => IDBKeyRange.bound(['message', id, 0], ['message', id, Infinity]);
// Array keys sort after strings, so this range holds every ["session", <string>] key and nothing else.
const sessionRange = (): IDBKeyRange => IDBKeyRange.bound(['session'], ['session', []]);

/** A change as posted on the BroadcastChannel (receivers add `remote`). */
type ChangeMessage = Omit<Extract<StoreChange, { type: 'append' }>, 'remote'> | Omit<Extract<StoreChange, { type: 'save' }>, 'remote'>
  | Omit<Extract<StoreChange, { type: 'rename' }>, 'remote'> | Omit<Extract<StoreChange, { type: 'delete' }>, 'remote'>
  | Omit<Extract<StoreChange, { type: 'clear' }>, 'remote'>;

function reasonOf(err: unknown): StoreErrorReason {
  const name = err instanceof Error || (typeof DOMException !== 'undefined' && err instanceof DOMException)
    ? (err as { name: string }).name : '';
  switch (name) {
    case 'QuotaExceededError':
      return 'quota';
    case 'DataCloneError':
    case 'DataError':
      return 'invalid';
    default:
      return 'unavailable';
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

function storeError(err: unknown, operation: string, id: string | undefined): StoreError {
  if (err instanceof StoreError) return err;
  const reason = reasonOf(err);
  const target = id === undefined ? '' : ` "${id}"`;
  const what = reason === 'quota' ? 'storage quota exceeded' : describe(err);
  return new StoreError(reason, `Session store ${operation}${target} failed: ${what}`, { sessionId: id, cause: err });
}

/** Rejects with `err` from inside a transaction callback: aborts the transaction so nothing is written. */
function abortWith(store: IDBObjectStore, reject: (e: unknown) => void, err: unknown): void {
  try {
    store.transaction.abort();
  } catch {
    // already finished or aborting: nothing was committed by this callback anyway
  }
  reject(err);
}

function newId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Creates a session store on the IndexedDB database `name`. Nothing is opened until a method is called.
 *
 * @example
 * ```ts
 * const store = createSessionStore();
 * const agent = new Agent({ llm, store, sessionId: 'chat-1' }); // restores, then appends at every turn end
 * const sessions = await store.list();
 * store.subscribe((change) => { if (change.remote) refresh(change); }); // writes from other tabs
 * ```
 */
export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  const name = options.name ?? 'pagent-sessions';
  const openTimeoutMs = options.openTimeoutMs ?? 5000;
  const listeners = new Set<StoreListener>();
  // Sessions this store has seen stored, deleted ones included: if one vanishes (deleted here, in another
  // tab or with the site data), an append must not recreate it from a tail; `save` writes it whole again.
  const known = new Set<string>();
  let use: UseStore | undefined;
  let db: IDBDatabase | undefined;
  let channel: BroadcastChannel | undefined;

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

  async function run<T>(
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
          new StoreError(
            'blocked',
            `Session store ${operation}${id === undefined ? '' : ` "${id}"`} failed: the database "${name}" did not open within ${openTimeoutMs} ms (another tab may be blocking it)`,
            { sessionId: id },
          ),
        );
      }, openTimeoutMs);
    });
    try {
      return await Promise.race([work, blocked]);
    } catch (err) {
      // The connection closed under us (the database was deleted or upgraded elsewhere): reopen once.
      if (retry && !started && err instanceof DOMException && err.name === 'InvalidStateError') {
        if (use === current) use = undefined;
        return run(mode, operation, id, body, false);
      }
      throw storeError(err, operation, id);
    } finally {
      clearTimeout(timer);
    }
  }

  // A throwing listener must not turn a committed write into a rejected call: report it and go on.
  function notify(change: StoreChange): void {
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch (err) {
        if (typeof reportError === 'function') reportError(err);
        else queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  function emit(change: ChangeMessage): void {
    notify({ ...change, remote: false } as StoreChange);
    openChannel()?.postMessage(change);
  }

  function openChannel(): BroadcastChannel | undefined {
    if (channel || typeof BroadcastChannel === 'undefined') return channel;
    channel = new BroadcastChannel(`pagent-web:store:${name}`);
    channel.onmessage = (event: MessageEvent<ChangeMessage>) => notify({ ...event.data, remote: true } as StoreChange);
    // Node's BroadcastChannel would otherwise keep the process alive
    (channel as BroadcastChannel & { unref?: () => void }).unref?.();
    return channel;
  }

  function readSession(store: IDBObjectStore, id: string): Promise<SessionExport | undefined> {
    const metaReq = store.get(sessionKey(id));
    const keysReq = store.getAllKeys(messageRange(id));
    const valuesReq = store.getAll(messageRange(id));
    const blobKeysReq = store.getAllKeys(blobRange(id));
    const blobsReq = store.getAll(blobRange(id));
    return Promise.all([
      promisifyRequest(metaReq), promisifyRequest(keysReq), promisifyRequest(valuesReq),
      promisifyRequest(blobKeysReq), promisifyRequest(blobsReq),
    ]).then(
      async ([meta, keys, values, blobKeys, blobValues]) => {
        if (meta === undefined) return undefined;
        const corrupt = (why: string): StoreError =>
          new StoreError('corrupt', `Session store load "${id}" failed: ${why}`, { sessionId: id });
        const metaProblem = sessionRecordProblem(meta, id);
        if (metaProblem) throw corrupt(metaProblem);
        const record = meta as SessionRecord;
        if (values.length !== record.messageCount) {
          throw corrupt(`${values.length} message records stored, the session record says ${record.messageCount}`);
        }
        const blobs = new Map<number, Map<number, unknown>>();
        blobKeys.forEach((k, i) => {
          const [, , seq, part] = k as BlobKey;
          let forMessage = blobs.get(seq);
          if (!forMessage) blobs.set(seq, (forMessage = new Map()));
          forMessage.set(part, blobValues[i]);
        });
        const messages: ChatMessage[] = [];
        for (let i = 0; i < values.length; i++) {
          const key = keys[i] as MessageKey;
          if (key[2] !== i) throw corrupt(`message ${i} is missing`);
          const problem = messageRecordProblem(values[i]);
          if (problem) throw corrupt(`message ${i}: ${problem}`);
          try {
            messages.push(await restoreMessage(values[i] as MessageRecord, blobs.get(i), i));
          } catch (err) {
            throw corrupt(err instanceof Error ? err.message : String(err));
          }
        }
        return {
          format: EXPORT_FORMAT,
          version: 1,
          id,
          title: record.title,
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
          session: { version: 1, kind: record.kind, systemPrompt: record.systemPrompt, messages },
        };
      },
    );
  }

  /** Writes a whole session (replacing any stored one) inside `store`'s transaction. */
  function writeWhole(
    store: IDBObjectStore,
    id: string,
    previous: SessionRecord | undefined,
    data: { kind: SessionKind; systemPrompt: string | undefined; messages: readonly ChatMessage[] },
    meta: { title: string | undefined; createdAt?: number; updatedAt?: number },
  ): SessionRecord {
    const now = Date.now();
    store.delete(messageRange(id));
    store.delete(blobRange(id));
    data.messages.forEach((message, seq) => putMessage(store, messageKey(id, seq), id, seq, message));
    const record: SessionRecord = {
      version: RECORD_VERSION,
      id,
      title: meta.title ?? previous?.title ?? titleFrom(data.messages),
      createdAt: meta.createdAt ?? previous?.createdAt ?? now,
      updatedAt: meta.updatedAt ?? now,
      messageCount: data.messages.length,
      revision: (previous?.revision ?? 0) + 1,
      kind: data.kind,
      systemPrompt: data.systemPrompt,
    };
    store.put(record, sessionKey(id));
    return record;
  }

  /** Reads the meta record inside a transaction; a bad one rejects (and aborts) with `corrupt`. */
  function withMeta<T>(
    store: IDBObjectStore,
    id: string,
    operation: string,
    then: (meta: SessionRecord | undefined) => T,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const req = store.get(sessionKey(id));
      req.onerror = () => reject(req.error);
      req.onsuccess = () => {
        const meta: unknown = req.result;
        const problem = meta === undefined ? undefined : sessionRecordProblem(meta, id);
        if (problem) {
          abortWith(store, reject, new StoreError('corrupt', `Session store ${operation} "${id}" failed: ${problem}`, { sessionId: id }));
          return;
        }
        try {
          const out = then(meta as SessionRecord | undefined);
          promisifyRequest(store.transaction).then(() => resolve(out), reject);
        } catch (err) {
          abortWith(store, reject, err);
        }
      };
    });
  }

  function checkId(id: unknown, operation: string): asserts id is string {
    if (typeof id !== 'string' || id === '') {
      throw new StoreError('invalid', `Session store ${operation} failed: the session id must be a non-empty string`);
    }
  }

  return {
    name,

    async list() {
      const [keys, values] = await run('readonly', 'list', undefined, (store) =>
        Promise.all([promisifyRequest(store.getAllKeys(sessionRange())), promisifyRequest(store.getAll(sessionRange()))]),
      );
      const out: SessionSummary[] = [];
      values.forEach((value: unknown, i) => {
        const id = (keys[i] as SessionKey)[1];
        if (sessionRecordProblem(value, id)) {
          out.push({ id, title: '', createdAt: 0, updatedAt: 0, messageCount: 0, corrupt: true });
          return;
        }
        const r = value as SessionRecord;
        out.push({ id, title: r.title, createdAt: r.createdAt, updatedAt: r.updatedAt, messageCount: r.messageCount });
      });
      return out.sort((a, b) => b.updatedAt - a.updatedAt);
    },

    async load(id) {
      checkId(id, 'load');
      const data = await run('readonly', 'load', id, (store) => readSession(store, id));
      if (!data) return undefined;
      known.add(id);
      return Session.fromJSON(data.session);
    },

    async save(id, session, saveOptions = {}) {
      checkId(id, 'save');
      const json = session.toJSON();
      const problem = messagesProblem(json.messages);
      if (problem) throw new StoreError('invalid', `Session store save "${id}" failed: ${problem}`, { sessionId: id });
      const record = await run('readwrite', 'save', id, (store) =>
        withMeta(store, id, 'save', (previous) =>
          writeWhole(store, id, previous, { kind: json.kind, systemPrompt: json.systemPrompt, messages: json.messages }, {
            title: saveOptions.title,
          }),
        ),
      ).catch((err: unknown) => {
        throw nameQuotaAttachment(err, json.messages);
      });
      known.add(id);
      emit({ type: 'save', id, messageCount: record.messageCount });
    },

    async append(id, messages) {
      checkId(id, 'append');
      const problem = messagesProblem(messages);
      if (problem) throw new StoreError('invalid', `Session store append "${id}" failed: ${problem}`, { sessionId: id });
      const { from, record } = await run('readwrite', 'append', id, (store) =>
        withMeta(store, id, 'append', (previous) => {
          if (!previous && known.has(id)) {
            throw new StoreError('deleted', `Session store append "${id}" failed: the session was deleted from storage`, {
              sessionId: id,
            });
          }
          const now = Date.now();
          const start = previous?.messageCount ?? 0;
          messages.forEach((message, i) => putMessage(store, messageKey(id, start + i), id, start + i, message));
          const next: SessionRecord = {
            version: RECORD_VERSION,
            id,
            title: previous?.title || titleFrom(messages),
            createdAt: previous?.createdAt ?? now,
            updatedAt: now,
            messageCount: start + messages.length,
            revision: (previous?.revision ?? 0) + 1,
            kind: previous?.kind ?? 'session',
            systemPrompt: previous?.systemPrompt,
          };
          store.put(next, sessionKey(id));
          return { from: start, record: next };
        }),
      ).catch((err: unknown) => {
        throw nameQuotaAttachment(err, messages);
      });
      known.add(id);
      emit({ type: 'append', id, from, count: messages.length, messageCount: record.messageCount });
    },

    async rename(id, title) {
      checkId(id, 'rename');
      await run('readwrite', 'rename', id, (store) =>
        withMeta(store, id, 'rename', (previous) => {
          if (!previous) throw new StoreError('not-found', `Session store rename "${id}" failed: no such session`, { sessionId: id });
          store.put({ ...previous, title, revision: previous.revision + 1, updatedAt: Date.now() } satisfies SessionRecord, sessionKey(id));
        }),
      );
      emit({ type: 'rename', id, title });
    },

    async delete(id) {
      checkId(id, 'delete');
      await run('readwrite', 'delete', id, (store) => {
        store.delete(messageRange(id));
        store.delete(blobRange(id));
        store.delete(sessionKey(id));
        return promisifyRequest(store.transaction);
      });
      emit({ type: 'delete', id });
    },

    async saveNotes(key, notes) {
      checkId(key, 'saveNotes');
      const record = { version: 1, notes: notes.map(String) };
      await run('readwrite', 'saveNotes', key, (store) => {
        store.put(record, ['notes', key]);
        return promisifyRequest(store.transaction);
      });
    },

    async loadNotes(key) {
      checkId(key, 'loadNotes');
      const record: unknown = await run('readonly', 'loadNotes', key, (store) => promisifyRequest(store.get(['notes', key])));
      if (record === undefined) return undefined;
      const notes = (record as { notes?: unknown }).notes;
      if ((record as { version?: unknown }).version !== 1 || !Array.isArray(notes) || !notes.every((n) => typeof n === 'string')) {
        throw new StoreError('corrupt', `Session store loadNotes "${key}" failed: not a version 1 notes record`);
      }
      return notes as string[];
    },

    async clear() {
      await run('readwrite', 'clear', undefined, (store) => {
        store.clear();
        return promisifyRequest(store.transaction);
      });
      emit({ type: 'clear' });
    },

    async export(id) {
      checkId(id, 'export');
      const data = await run('readonly', 'export', id, (store) => readSession(store, id));
      if (!data) throw new StoreError('not-found', `Session store export "${id}" failed: no such session`, { sessionId: id });
      return JSON.stringify(data);
    },

    async import(json) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch (err) {
        throw new StoreError('invalid', `Session store import failed: the file is not JSON (${describe(err)})`, { cause: err });
      }
      const problem = exportProblem(parsed);
      if (problem) throw new StoreError('invalid', `Session store import failed: ${problem}`);
      const file = parsed as SessionExport;
      const { id, record } = await run('readwrite', 'import', file.id, (store) =>
        new Promise<{ id: string; record: SessionRecord }>((resolve, reject) => {
          const req = store.get(sessionKey(file.id));
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const target = req.result === undefined ? file.id : newId();
            try {
              const r = writeWhole(store, target, undefined, file.session, {
                title: file.title,
                createdAt: file.createdAt,
                updatedAt: file.updatedAt,
              });
              promisifyRequest(store.transaction).then(() => resolve({ id: target, record: r }), reject);
            } catch (err) {
              abortWith(store, reject, err);
            }
          };
        }),
      ).catch((err: unknown) => {
        throw nameQuotaAttachment(err, file.session.messages);
      });
      known.add(id);
      emit({ type: 'save', id, messageCount: record.messageCount });
      return id;
    },

    search(query, searchOptions) {
      return searchSessions((body) => run('readonly', 'search', undefined, body), query, searchOptions);
    },

    async persist() {
      const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
      if (!storage || typeof storage.persist !== 'function') return false;
      try {
        return await storage.persist();
      } catch {
        return false;
      }
    },

    async estimate() {
      const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
      if (!storage || typeof storage.estimate !== 'function') {
        throw new StoreError('unavailable', 'Session store estimate failed: navigator.storage is not available');
      }
      try {
        const e = await storage.estimate();
        return { usage: e.usage ?? 0, quota: e.quota ?? 0 };
      } catch (err) {
        throw storeError(err, 'estimate', undefined);
      }
    },

    subscribe(listener) {
      listeners.add(listener);
      openChannel();
      return () => {
        listeners.delete(listener);
      };
    },

    close() {
      channel?.close();
      channel = undefined;
      db?.close();
      db = undefined;
      use = undefined;
    },
  };
}
