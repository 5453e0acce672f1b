/**
 * A feature of the element that arrives as a chunk of its own on first use (message actions, conversation
 * tools, attachments, the Chinese and Japanese strings). The chunk is fetched once. A failed fetch (offline, a deploy that removed the
 * chunk) is not kept: a later use fetches it again, but an automatic one (a render) not before
 * {@link RETRY_AFTER_MS} or the browser's `online` event, so an element updating every frame never sends a
 * burst of requests; a user's action (`now`) always tries at once.
 */

/** How long automatic uses wait after a failed fetch before the next try. */
export const RETRY_AFTER_MS = 5_000;

let onlineAt = -Infinity;
if (typeof window !== 'undefined') window.addEventListener('online', () => (onlineAt = performance.now()));

/**
 * Wraps `load` (a dynamic `import()` and what is made of it): the returned function resolves with the
 * feature, or `undefined` when it could not be fetched (it never rejects).
 */
export function lazyChunk<T>(load: () => Promise<T>): (now?: boolean) => Promise<T | undefined> {
  let loading: Promise<T | undefined> | undefined;
  let failedAt = -Infinity;
  return (now = false) => {
    if (loading) return loading;
    if (!now && onlineAt < failedAt && performance.now() - failedAt < RETRY_AFTER_MS) return Promise.resolve(undefined);
    const attempt = load().then(undefined, () => {
      loading = undefined;
      failedAt = performance.now();
      return undefined;
    });
    loading = attempt;
    return attempt;
  };
}
