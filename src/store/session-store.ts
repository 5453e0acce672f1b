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
import { newId } from '../new-id.js';
import {
  EXPORT_FORMAT,
  exportProblem,
  messageRecordProblem,
  sessionRecordProblem,
  type MessageRecord,
  type SessionExport,
  type SessionRecord,
} from './records.js';
import { Session } from '../agent/sessions/session.js';
import { messagesProblem } from './message-checks.js';
import { blobRange, nameQuotaAttachment, putMessage } from './attachment-blobs.js';
import { messageKey, messageRange, readTree, sessionKey } from './read-tree.js';
import { activePath } from './tree.js';
import { appendedRecord, appendPlace, switchedRecord, upgradeRecord } from './tree-records.js';
import { feedbackProblem, storedFeedback } from './feedback.js';
import { abortWith, openConnection } from './connection.js';
import { checkId, describe, storeFailure } from './store-errors.js';
import { loadNotes, saveNotes } from './notes.js';
import { estimateStorage, persistStorage } from './storage-estimate.js';
import { createChangeFeed } from './store-changes.js';
import { writeWhole } from './write-tree.js';
import { searchSessions } from './session-search.js';
import { pieceKey, pieceProblem, pieceRange, turnFromPieces, type PieceRecord } from './turn-pieces.js';
import type { SessionStore, SessionSummary, StoredSession } from './session-store-types.js';

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

type SessionKey = ['session', string];
// Array keys sort after strings, so this range holds every ["session", <string>] key and nothing else.
const sessionRange = (): IDBKeyRange => IDBKeyRange.bound(['session'], ['session', []]);

/** The text without the one byte-order mark an editor may have written first (JSON itself has none). */
function withoutBom(text: string): string {
  return typeof text === 'string' && text.startsWith('\uFEFF') ? text.slice(1) : text;
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
          abortWith(store, reject, storeFailure('corrupt', operation, id, problem));
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
        throw storeFailure('not-found', 'load', id, `no message ${through}`);
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
          throw storeFailure('not-found', 'switchBranch', id, `no message ${seq}`);
        }
        const next = switchedRecord(data.record, data.tree, seq);
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
      if (problem) throw storeFailure('invalid', 'save', id, problem);
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
      if (problem) throw storeFailure('invalid', 'append', id, problem);
      const asked = appendOptions.parent;
      if (asked !== undefined && asked !== null && !(Number.isSafeInteger(asked) && asked >= 0)) {
        throw storeFailure('invalid', 'append', id, 'the parent is not a message number');
      }
      const result = await run('readwrite', 'append', id, async (store) => {
       try {
        const [meta, parentRecord] = await Promise.all([
          promisifyRequest(store.get(sessionKey(id))),
          typeof asked === 'number' ? promisifyRequest(store.get(messageKey(id, asked))) : undefined,
        ]);
        const metaProblem = meta === undefined ? undefined : sessionRecordProblem(meta, id);
        if (metaProblem) throw storeFailure('corrupt', 'append', id, metaProblem);
        if (meta === undefined && known.has(id)) throw storeFailure('deleted', 'append', id, 'the session was deleted from storage');
        const previous = meta === undefined ? undefined : upgradeRecord(meta as SessionRecord);
        const place = appendPlace(previous, asked, parentRecord as MessageRecord | undefined);
        if (!place) throw storeFailure('not-found', 'append', id, `no message ${String(asked)} to continue`);
        const from = previous?.nextSeq ?? 0;
        messages.forEach((message, i) => {
          const seq = from + i;
          putMessage(store, messageKey(id, seq), id, seq, message, { parent: i === 0 ? place.parent : seq - 1, depth: place.depth + i });
        });
        const next = appendedRecord(id, previous, place, messages, Date.now());
        store.put(next, sessionKey(id));
        store.delete(pieceRange(id));
        await promisifyRequest(store.transaction);
        return { from, head: next.head, parent: place.parent, record: next };
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
      if (problem) throw storeFailure('invalid', 'setFeedback', id, problem);
      await run('readwrite', 'setFeedback', id, async (store) => {
        const record: unknown = await promisifyRequest(store.get(messageKey(id, seq)));
        if (record === undefined) throw storeFailure('not-found', 'setFeedback', id, `no message ${seq}`);
        const bad = messageRecordProblem(record);
        if (bad) throw storeFailure('corrupt', 'setFeedback', id, `message ${seq}: ${bad}`);
        const { feedback: _old, ...rest } = record as MessageRecord;
        store.put(feedback === null ? rest : { ...rest, feedback: storedFeedback(feedback) }, messageKey(id, seq));
        await promisifyRequest(store.transaction);
      });
    },

    async rename(id, title) {
      checkId(id, 'rename');
      await run('readwrite', 'rename', id, (store) =>
        withMeta(store, id, 'rename', (previous) => {
          if (!previous) throw storeFailure('not-found', 'rename', id, 'no such session');
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

    saveNotes: (key, notes) => saveNotes(run, key, notes),

    loadNotes: (key) => loadNotes(run, key),

    async savePieces(id, pieces, at) {
      checkId(id, 'savePieces');
      if (!(Number.isSafeInteger(at) && at >= 0)) throw storeFailure('invalid', 'savePieces', id, 'the place is not a count');
      for (const piece of pieces) {
        const problem = pieceProblem(piece);
        if (problem) throw storeFailure('invalid', 'savePieces', id, problem);
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
      if (!data) throw storeFailure('not-found', 'export', id, 'no such session');
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
        throw storeFailure('invalid', 'import', undefined, `the file is not JSON (${describe(err)})`, { cause: err });
      }
      const problem = exportProblem(parsed);
      if (problem) throw storeFailure('invalid', 'import', undefined, problem);
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

    persist: persistStorage,

    estimate: estimateStorage,

    subscribe: changes.subscribe,

    close() {
      changes.close();
      close();
    },
  };
}
