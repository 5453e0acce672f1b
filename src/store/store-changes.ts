/**
 * The session store's change feed: its own writes reach its listeners at once and other tabs through a
 * BroadcastChannel per database, where they arrive marked `remote`.
 */
import type { StoreChange, StoreListener } from './session-store-types.js';

/** A change as posted on the BroadcastChannel (receivers add `remote`). */
export type ChangeMessage = Omit<Extract<StoreChange, { type: 'append' }>, 'remote'> | Omit<Extract<StoreChange, { type: 'save' }>, 'remote'>
  | Omit<Extract<StoreChange, { type: 'rename' }>, 'remote'> | Omit<Extract<StoreChange, { type: 'delete' }>, 'remote'>
  | Omit<Extract<StoreChange, { type: 'clear' }>, 'remote'> | Omit<Extract<StoreChange, { type: 'branch' }>, 'remote'>;

/** What {@link createChangeFeed} returns. */
export interface ChangeFeed {
  /** Tells this store's listeners (`remote: false`) and the other tabs'. */
  emit(change: ChangeMessage): void;
  /** Adds a listener (and starts listening to other tabs); returns its removal. */
  subscribe(listener: StoreListener): () => void;
  /** Stops listening to other tabs. */
  close(): void;
}

/** The change feed of the database `name`; the channel opens on the first emit or subscription. */
export function createChangeFeed(name: string): ChangeFeed {
  const listeners = new Set<StoreListener>();
  let channel: BroadcastChannel | undefined;

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

  return {
    emit,
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
    },
  };
}
