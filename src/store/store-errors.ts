/**
 * The session store's errors: every failure is a `StoreError` whose message names the operation and its
 * target (`Session store append "chat-1" failed: …`), and a failure of IndexedDB itself gets its reason
 * from the DOMException's name.
 */
import { StoreError, type StoreErrorReason } from '../errors.js';

/**
 * A `StoreError` of `operation` on session `id` (none when `undefined`) saying `why`. The error's
 * `sessionId` is `id` unless `options` says otherwise (a notes key is not a session).
 */
export function storeFailure(
  reason: StoreErrorReason,
  operation: string,
  id: string | undefined,
  why: string,
  options: { sessionId?: string | undefined; cause?: unknown } = { sessionId: id },
): StoreError {
  const target = id === undefined ? '' : ` "${id}"`;
  return new StoreError(reason, `Session store ${operation}${target} failed: ${why}`, options);
}

/** Throws `invalid` unless `id` is a non-empty string. */
export function checkId(id: unknown, operation: string): asserts id is string {
  if (typeof id !== 'string' || id === '') {
    throw storeFailure('invalid', operation, undefined, 'the session id must be a non-empty string');
  }
}

/** Which `StoreError` reason a failure of IndexedDB is. */
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

/** An error as one line of text: `Name: message`. */
export function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

/**
 * Any failure of `operation` as a `StoreError` (one already is passes through): its reason from the
 * DOMException's name (quota, invalid data, else unavailable) and a message naming the operation and id.
 */
export function storeError(err: unknown, operation: string, id: string | undefined): StoreError {
  if (err instanceof StoreError) return err;
  const reason = reasonOf(err);
  const what = reason === 'quota' ? 'storage quota exceeded' : describe(err);
  return storeFailure(reason, operation, id, what, { sessionId: id, cause: err });
}
