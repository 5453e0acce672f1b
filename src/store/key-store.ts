/**
 * The explicit opt-in to remember an API key in the browser, in its own IndexedDB database, apart from
 * sessions (so exporting, clearing or syncing sessions never carries a key).
 *
 * **Risk:** a remembered key is stored in plain text in this origin's IndexedDB. Any script running on
 * the origin (an XSS hole, a compromised dependency), a browser extension with access to the page, or
 * anyone with access to the browser profile on disk can read it. Offer it only as a choice the user
 * makes, say so next to the checkbox, prefer short-lived or spend-limited keys, and give the user a way
 * to forget it ({@link KeyStore.forget}, {@link KeyStore.forgetAll}). Clearing the site's data also
 * removes it. Nothing in pagent-web writes a key here on its own.
 */
import { createStore, del, get, keys, set, clear, type UseStore } from 'idb-keyval';
import { StoreError } from '../errors.js';

/** Options of {@link createKeyStore}. */
export interface KeyStoreOptions {
  /**
   * The IndexedDB database name (never the session store's).
   * @defaultValue `"pagent-keys"`
   */
  name?: string;
}

/** Remembered API keys, one per label (e.g. a provider name or a base URL). See the module risk note. */
export interface KeyStore {
  /** The IndexedDB database name. */
  readonly name: string;
  /** Stores `apiKey` under `label`, replacing any earlier one. Only call this when the user asked for it. */
  remember(label: string, apiKey: string): Promise<void>;
  /** The key remembered under `label`, or `undefined`. */
  recall(label: string): Promise<string | undefined>;
  /** Removes the key remembered under `label` (nothing happens when there is none). */
  forget(label: string): Promise<void>;
  /** Removes every remembered key. */
  forgetAll(): Promise<void>;
  /** The labels that have a remembered key (never the keys). */
  labels(): Promise<string[]>;
}

interface KeyRecord {
  version: 1;
  apiKey: string;
  savedAt: number;
}

/**
 * Creates the opt-in API key store. Importing or creating it touches nothing; the database opens on the
 * first call. Errors never include the key.
 *
 * @example
 * ```ts
 * const keys = createKeyStore();
 * if (rememberCheckbox.checked) await keys.remember('openai', apiKey);
 * const llm = OpenAI('gpt-4o-mini', { apiKey: (await keys.recall('openai')) ?? prompt('API key') ?? '' });
 * ```
 */
export function createKeyStore(options: KeyStoreOptions = {}): KeyStore {
  const name = options.name ?? 'pagent-keys';
  let use: UseStore | undefined;
  const db = (): UseStore => {
    if (typeof indexedDB === 'undefined') throw new StoreError('unavailable', 'Key store: IndexedDB is not available');
    use ??= createStore(name, 'keys');
    return use;
  };
  const guard = async <T>(operation: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof StoreError) throw err;
      const reason = err instanceof DOMException && err.name === 'QuotaExceededError' ? 'quota' : 'unavailable';
      // The cause is kept but the message names only the operation: a key must never reach an error text.
      throw new StoreError(reason, `Key store ${operation} failed: ${err instanceof Error ? err.name : 'error'}`, { cause: err });
    }
  };
  const checkLabel = (label: unknown, operation: string): void => {
    if (typeof label !== 'string' || label === '') {
      throw new StoreError('invalid', `Key store ${operation} failed: the label must be a non-empty string`);
    }
  };

  return {
    name,
    async remember(label, apiKey) {
      checkLabel(label, 'remember');
      if (typeof apiKey !== 'string' || apiKey === '') {
        throw new StoreError('invalid', 'Key store remember failed: the key must be a non-empty string');
      }
      const record: KeyRecord = { version: 1, apiKey, savedAt: Date.now() };
      return guard('remember', () => set(label, record, db()));
    },
    async recall(label) {
      checkLabel(label, 'recall');
      return guard('recall', async () => {
        const record = await get<unknown>(label, db());
        if (typeof record !== 'object' || record === null) return undefined;
        const key = (record as Partial<KeyRecord>).apiKey;
        return typeof key === 'string' ? key : undefined;
      });
    },
    async forget(label) {
      checkLabel(label, 'forget');
      return guard('forget', () => del(label, db()));
    },
    async forgetAll() {
      return guard('forgetAll', () => clear(db()));
    },
    async labels() {
      return guard('labels', async () => (await keys(db())).filter((k): k is string => typeof k === 'string'));
    },
  };
}
