/**
 * What a session store is to its users: the {@link SessionStore} interface that `createSessionStore`
 * (./session-store.ts) implements, what its methods return and the changes it reports.
 */
import type { ChatMessage } from '../agent/messages.js';
import type { Session } from '../agent/sessions/session.js';
import type { StoreError } from '../errors.js';
import type { SessionSearchHit, SessionSearchOptions } from './session-search.js';
import type { StorageEstimateBytes } from './storage-estimate.js';
import type { SessionTree } from './tree.js';
import type { InterruptedTurn, TurnPiece } from './turn-pieces.js';
import type { MessageFeedback } from './feedback.js';

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
