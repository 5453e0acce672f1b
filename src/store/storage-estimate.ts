/**
 * The origin's storage as the browser reports it (`navigator.storage`): how much is used of the quota, and
 * the request to keep it under storage pressure.
 */
import { storeError, storeFailure } from './store-errors.js';

/** Storage use of the origin, from `navigator.storage.estimate()`, in bytes. */
export interface StorageEstimateBytes {
  usage: number;
  quota: number;
}

/** The browser's storage manager, when this environment has one. */
function storageManager(): StorageManager | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.storage;
}

/** Asks the browser to keep this origin's storage under pressure; `false` when it refuses or cannot. */
export async function persistStorage(): Promise<boolean> {
  const storage = storageManager();
  if (!storage || typeof storage.persist !== 'function') return false;
  try {
    return await storage.persist();
  } catch {
    return false;
  }
}

/**
 * The origin's estimated usage and quota in bytes.
 * @throws StoreError `unavailable` when there is no `navigator.storage`, or the browser's reason.
 */
export async function estimateStorage(): Promise<StorageEstimateBytes> {
  const storage = storageManager();
  if (!storage || typeof storage.estimate !== 'function') {
    throw storeFailure('unavailable', 'estimate', undefined, 'navigator.storage is not available');
  }
  try {
    const e = await storage.estimate();
    return { usage: e.usage ?? 0, quota: e.quota ?? 0 };
  } catch (err) {
    throw storeError(err, 'estimate', undefined);
  }
}
