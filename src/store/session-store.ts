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
import { promisifyRequest } from 'idb-keyval';
import type { ChatMessage } from '../agent/messages.js';
import { StoreError } from '../errors.js';
import {
  EXPORT_FORMAT,
  RECORD_VERSION,
  exportProblem,
  sessionRecordProblem,
  titleFrom,
  type SessionExport,
  type SessionRecord,
} from './records.js';
import { Session } from '../agent/session.js';
import { messagesProblem } from './message-checks.js';
import { blobRange, nameQuotaAttachment, putMessage } from './attachment-blobs.js';
import { messageKey, messageRange, placeOf, readTree, sessionKey, upgradeRecord, type TreeRecord } from './read-tree.js';
import { activePath, choicesFor, childrenOf, leafBelow, type SessionTree } from './tree.js';
import { messageRecordProblem, type MessageRecord } from './records.js';
import { feedbackProblem, storedFeedback, type MessageFeedback } from './feedback.js';
import { abortWith, describe, openConnection, storeError } from './connection.js';
import { createChangeFeed } from './store-changes.js';
import { writeWhole } from './write-tree.js';
import { searchSessions, type SessionSearchHit, type SessionSearchOptions } from './session-search.js';
import { pieceKey, pieceProblem, pieceRange, turnFromPieces, type InterruptedTurn, type PieceRecord, type TurnPiece } from './turn-pieces.js';

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
  /**
   * How often, at most, an agent saves the turn in flight while it streams ({@link SessionStore.savePieces}):
   * one transaction per this many milliseconds at most, so a reload, crash or closed tab loses at most the
   * text of the last this-many milliseconds.
   * @defaultValue `250`
   */
  inFlightSaveMs?: number;
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
  | {
      type: 'append';
      id: string;
      /** The seq of the first message added (they have `from .. from + count - 1`). */
      from: number;
      count: number;
      messageCount: number;
      /** The seq the first message added continues, `null` for a first message. */
      parent: number | null;
      /** The last message of the active path after the append. */
      head: number;
      remote: boolean;
    }
  | { type: 'branch'; id: string; head: number; messageCount: number; remote: boolean }
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
   * The stored session, or `undefined` when there is none: the messages of its active path (the branch
   * last chosen), or with `through` the path through message `through`, continuing below it through the
   * branches chosen last (else the newest). `seqs` names each message's seq.
   * @throws StoreError `corrupt` when its records are unreadable (other sessions stay readable);
   *   `not-found` when there is no message `through`.
   */
  load(id: string, options?: { through?: number }): Promise<StoredSession | undefined>;
  /**
   * Every branch of a stored conversation, or `undefined` when there is none. {@link activePath} gives
   * the active path's nodes, `siblingsOf` a message's versions.
   * @throws StoreError `corrupt` as {@link SessionStore.load}.
   */
  loadTree(id: string): Promise<SessionTree | undefined>;
  /**
   * Makes the path through message `seq` the active one (continuing below it through the branches
   * chosen last, else the newest) and saves that choice; resolves with the new head's seq.
   * @throws StoreError `not-found` when the session or the message does not exist.
   */
  switchBranch(id: string, seq: number): Promise<number>;
  /**
   * Replaces the stored session with this one (all its messages, as one path: other branches are
   * deleted), keeping `createdAt`. Use it to store a
   * session built elsewhere; a running conversation should use {@link SessionStore.append}.
   */
  save(id: string, session: Pick<Session, 'toJSON'>, options?: { title?: string }): Promise<void>;
  /**
   * Adds messages after the active path's last message (or after `options.parent`, as a new branch),
   * writing only these messages and the small meta record, in one transaction; resolves with their seqs.
   * Creates the session when it does not exist. Two tabs appending at once never lose a message: each
   * write takes the next free seqs inside its transaction.
   * @throws StoreError `deleted` when this store saw the session before and it has since been deleted
   *   (through this store, by another tab, or by clearing site data): appending only the tail would store
   *   a broken conversation. {@link SessionStore.save} of the whole session stores it again.
   */
  append(id: string, messages: readonly ChatMessage[], options?: AppendOptions): Promise<AppendResult>;
  /**
   * Keeps the reader's rating of message `seq` (👍/👎 and an optional comment) on its record, beside the
   * message (never sent to a provider); `null` removes it. `loadTree` and `export` give it back on the
   * message's node, and `import` restores it. It changes neither the conversation's `updatedAt` nor its
   * place in the list.
   * @throws StoreError `invalid` for a rating that is not `{rating: "up" | "down", comment?: string}`
   *   (nothing is written then); `not-found` when there is no such session or message.
   */
  setFeedback(id: string, seq: number, feedback: MessageFeedback | null): Promise<void>;
  /** Sets the title. @throws StoreError `not-found` when there is no such session. */
  rename(id: string, title: string): Promise<void>;
  /** Deletes a session and all its messages; deleting a missing session does nothing. */
  delete(id: string): Promise<void>;
  /** Deletes every session of this store (a remembered API key lives elsewhere and stays). */
  clear(): Promise<void>;
  /**
   * One session as JSON text (see `import`): export version 2, its `tree` holding every branch and
   * `session.messages` the active path. @throws StoreError `not-found`.
   */
  export(id: string): Promise<string>;
  /**
   * Stores an exported session (export version 2 with its branches, or version 1) and returns its id: the
   * file's id when it is free, else a new one (an import never overwrites). @throws StoreError `invalid` for a malformed file; nothing is written then.
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
   * Saves pieces of the turn in flight of conversation `id` (an agent calls it while a turn streams): the
   * pieces are written at `at`, `at + 1`, … in one transaction that writes nothing else — the session's
   * record, its list entry and its change feed stay as they are. Each piece holds only what is new, so a
   * save costs the size of what came since the last one. `at` 0 starts a turn: the pieces stored before
   * are removed first (with no pieces, that is all it does). Any write of the conversation's messages
   * (`append`, `save`, `switchBranch`, `delete`) removes its pieces too.
   * @throws StoreError `invalid` for a piece that is not a {@link TurnPiece} (nothing is written then).
   */
  savePieces(id: string, pieces: readonly TurnPiece[], at: number): Promise<void>;
  /**
   * The turn a run left in flight in conversation `id` (the page was reloaded, crashed or closed before
   * the turn was stored as messages), put back together from its pieces; `undefined` when there is none.
   * Unreadable piece records are skipped. `export` and `load` never include it.
   */
  loadTurn(id: string): Promise<InterruptedTurn | undefined>;
  /** The throttle of the in-flight save (see `SessionStoreOptions.inFlightSaveMs`). */
  readonly inFlightSaveMs: number;
  /**
   * Saves a list of notes under `key` (a `Memory`'s `save` uses it), beside the sessions and never
   * listed with them; `clear()` deletes them too.
   */
  saveNotes(key: string, notes: readonly string[]): Promise<void>;
  /** The notes saved under `key`, or `undefined`. @throws StoreError `corrupt` when the record is unreadable. */
  loadNotes(key: string): Promise<string[] | undefined>;
}

type SessionKey = ['session', string];
// Array keys sort after strings, so this range holds every ["session", <string>] key and nothing else.
const sessionRange = (): IDBKeyRange => IDBKeyRange.bound(['session'], ['session', []]);

/** A conversation as {@link SessionStore.load} returns it: the messages of one path and their seqs. */
export type StoredSession = Session & {
  /** The seq of each message of `messages`, in the same order (not enumerable). */
  readonly seqs: readonly number[];
};

/** What {@link SessionStore.append} resolves with. */
export interface AppendResult {
  /** The seq of the first message written (the others follow it: `from + 1`, …). */
  from: number;
  /** The seq of the last message of the active path: the last one written (or the old head when none was). */
  head: number;
}

/** Options of {@link SessionStore.append}. */
export interface AppendOptions {
  /**
   * The seq of the message the new ones follow (`null`: they start the conversation anew, beside its first
   * message). When it is not the active path's last message, the messages form a new branch from it,
   * which becomes the active path; the other branches stay. @defaultValue the active path's last message
   */
  parent?: number | null;
}

/** The text without the one byte-order mark an editor may have written first (JSON itself has none). */
function withoutBom(text: string): string {
  return typeof text === 'string' && text.startsWith('\uFEFF') ? text.slice(1) : text;
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
  const inFlightSaveMs = options.inFlightSaveMs ?? 250;
  // Sessions this store has seen stored, deleted ones included: if one vanishes (deleted here, in another
  // tab or with the site data), an append must not recreate it from a tail; `save` writes it whole again.
  const known = new Set<string>();
  const { run, close } = openConnection(name, openTimeoutMs);
  const changes = createChangeFeed(name);
  const emit = changes.emit;

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
    inFlightSaveMs,

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

    async load(id, loadOptions = {}) {
      checkId(id, 'load');
      const through = loadOptions.through;
      const data = await run('readonly', 'load', id, (store) => readTree(store, id));
      if (!data) return undefined;
      known.add(id);
      if (through !== undefined && !data.tree.nodes[through]) {
        throw new StoreError('not-found', `Session store load "${id}" failed: no message ${through}`, { sessionId: id });
      }
      const path = activePath(data.tree, through);
      const session = Session.fromJSON({
        version: 1,
        kind: data.record.kind,
        systemPrompt: data.record.systemPrompt,
        messages: path.map((n) => n.message),
      }) as StoredSession;
      Object.defineProperty(session, 'seqs', { value: path.map((n) => n.seq), enumerable: false });
      return session;
    },

    async loadTree(id) {
      checkId(id, 'loadTree');
      const data = await run('readonly', 'loadTree', id, (store) => readTree(store, id));
      if (data) known.add(id);
      return data?.tree;
    },

    async switchBranch(id, seq) {
      checkId(id, 'switchBranch');
      const head = await run('readwrite', 'switchBranch', id, async (store) => {
        const data = await readTree(store, id);
        if (!data || !data.tree.nodes[seq]) {
          throw new StoreError('not-found', `Session store switchBranch "${id}" failed: no message ${seq}`, { sessionId: id });
        }
        const { record, tree } = data;
        const leaf = leafBelow(seq, childrenOf(tree.nodes), tree.choices);
        let depth = 0;
        for (let at = tree.nodes[leaf]!.parent; at !== null; at = tree.nodes[at]!.parent) depth += 1;
        const next: TreeRecord = {
          ...record,
          head: leaf,
          choices: choicesFor(leaf, tree.nodes, tree.choices),
          messageCount: depth + 1,
          revision: record.revision + 1,
        };
        store.put(next, sessionKey(id));
        store.delete(pieceRange(id));
        await promisifyRequest(store.transaction);
        return next;
      });
      emit({ type: 'branch', id, head: head.head, messageCount: head.messageCount });
      return head.head;
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

    async append(id, messages, appendOptions = {}) {
      checkId(id, 'append');
      const problem = messagesProblem(messages);
      if (problem) throw new StoreError('invalid', `Session store append "${id}" failed: ${problem}`, { sessionId: id });
      const asked = appendOptions.parent;
      if (asked !== undefined && asked !== null && !(Number.isSafeInteger(asked) && asked >= 0)) {
        throw new StoreError('invalid', `Session store append "${id}" failed: the parent is not a message number`, { sessionId: id });
      }
      const result = await run('readwrite', 'append', id, async (store) => {
       try {
        const [meta, parentRecord] = await Promise.all([
          promisifyRequest(store.get(sessionKey(id))),
          typeof asked === 'number' ? promisifyRequest(store.get(messageKey(id, asked))) : undefined,
        ]);
        const metaProblem = meta === undefined ? undefined : sessionRecordProblem(meta, id);
        if (metaProblem) throw new StoreError('corrupt', `Session store append "${id}" failed: ${metaProblem}`, { sessionId: id });
        if (meta === undefined && known.has(id)) {
          throw new StoreError('deleted', `Session store append "${id}" failed: the session was deleted from storage`, { sessionId: id });
        }
        const previous = meta === undefined ? undefined : upgradeRecord(meta as SessionRecord);
        const head = previous?.head ?? -1;
        const parent = asked === undefined ? (head < 0 ? null : head) : asked;
        let depth: number;
        if (parent === null) depth = 0;
        else if (parent === head) depth = previous!.messageCount;
        else if (parentRecord === undefined) {
          throw new StoreError('not-found', `Session store append "${id}" failed: no message ${parent} to continue`, { sessionId: id });
        } else depth = placeOf(parentRecord as MessageRecord, parent).depth + 1;
        const from = previous?.nextSeq ?? 0;
        messages.forEach((message, i) => {
          const seq = from + i;
          putMessage(store, messageKey(id, seq), id, seq, message, { parent: i === 0 ? parent : seq - 1, depth: depth + i });
        });
        const now = Date.now();
        const last = messages.length === 0 ? head : from + messages.length - 1;
        const choices = { ...previous?.choices };
        // a new branch beside others becomes the chosen one at its fork
        if (messages.length > 0 && (parent ?? -1) !== head) choices[parent ?? -1] = from;
        const next: TreeRecord = {
          version: RECORD_VERSION,
          id,
          title: previous?.title || titleFrom(messages),
          createdAt: previous?.createdAt ?? now,
          updatedAt: now,
          messageCount: messages.length === 0 ? (previous?.messageCount ?? 0) : depth + messages.length,
          revision: (previous?.revision ?? 0) + 1,
          kind: previous?.kind ?? 'session',
          systemPrompt: previous?.systemPrompt,
          nextSeq: from + messages.length,
          head: last,
          choices,
        };
        store.put(next, sessionKey(id));
        store.delete(pieceRange(id));
        await promisifyRequest(store.transaction);
        return { from, head: last, parent, record: next };
       } catch (err) {
        abortWith(store, () => undefined, err);
        throw err;
       }
      }).catch((err: unknown) => {
        throw nameQuotaAttachment(err, messages);
      });
      known.add(id);
      const { from, head, parent, record } = result;
      emit({ type: 'append', id, from, count: messages.length, messageCount: record.messageCount, parent, head });
      return { from, head };
    },

    async setFeedback(id, seq, feedback) {
      checkId(id, 'setFeedback');
      const problem = !Number.isSafeInteger(seq) || seq < 0 ? 'the message seq is not a count' : feedback === null ? undefined : feedbackProblem(feedback);
      if (problem) throw new StoreError('invalid', `Session store setFeedback "${id}" failed: ${problem}`, { sessionId: id });
      await run('readwrite', 'setFeedback', id, async (store) => {
        const record: unknown = await promisifyRequest(store.get(messageKey(id, seq)));
        if (record === undefined) throw new StoreError('not-found', `Session store setFeedback "${id}" failed: no message ${seq}`, { sessionId: id });
        const bad = messageRecordProblem(record);
        if (bad) throw new StoreError('corrupt', `Session store setFeedback "${id}" failed: message ${seq}: ${bad}`, { sessionId: id });
        const { feedback: _old, ...rest } = record as MessageRecord;
        store.put(feedback === null ? rest : { ...rest, feedback: storedFeedback(feedback) }, messageKey(id, seq));
        await promisifyRequest(store.transaction);
      });
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
        store.delete(pieceRange(id));
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

    async savePieces(id, pieces, at) {
      checkId(id, 'savePieces');
      if (!(Number.isSafeInteger(at) && at >= 0)) throw new StoreError('invalid', `Session store savePieces "${id}" failed: the place is not a count`, { sessionId: id });
      for (const piece of pieces) {
        const problem = pieceProblem(piece);
        if (problem) throw new StoreError('invalid', `Session store savePieces "${id}" failed: ${problem}`, { sessionId: id });
      }
      await run('readwrite', 'savePieces', id, (store) => {
        // piece 0 starts a turn: what the store held of an earlier one goes
        if (at === 0) store.delete(pieceRange(id));
        pieces.forEach((piece, i) => store.put({ version: 1, piece } satisfies PieceRecord, pieceKey(id, at + i)));
        return promisifyRequest(store.transaction);
      });
    },

    async loadTurn(id) {
      checkId(id, 'loadTurn');
      const records: unknown[] = await run('readonly', 'loadTurn', id, (store) => promisifyRequest(store.getAll(pieceRange(id))));
      const pieces = records.flatMap((r) => {
        const piece = (r as Partial<PieceRecord> | null)?.piece;
        return (r as Partial<PieceRecord> | null)?.version === 1 && pieceProblem(piece) === undefined ? [piece!] : [];
      });
      return turnFromPieces(pieces);
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
      const data = await run('readonly', 'export', id, (store) => readTree(store, id));
      if (!data) throw new StoreError('not-found', `Session store export "${id}" failed: no such session`, { sessionId: id });
      const { record, tree } = data;
      const file: SessionExport = {
        format: EXPORT_FORMAT,
        version: 2,
        id,
        title: record.title,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
        session: { version: 1, kind: record.kind, systemPrompt: record.systemPrompt, messages: activePath(tree).map((n) => n.message) },
        tree,
      };
      return JSON.stringify(file);
    },

    async import(json) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(withoutBom(json));
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
              }, file.version === 2 ? file.tree : undefined);
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

    subscribe: changes.subscribe,

    close() {
      changes.close();
      close();
    },
  };
}
