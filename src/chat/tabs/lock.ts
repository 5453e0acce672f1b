/**
 * The Web Lock a tab holds while it runs a conversation of a store: one name per database and
 * conversation, so two tabs never run the same conversation at once.
 */

/** The lock's name for conversation `id` of `store` (a store without a `name` shares one namespace). */
export function conversationLock(store: unknown, id: string): string {
  const name = (store as { name?: unknown } | undefined)?.name;
  return `pagent-web:run:${typeof name === 'string' ? name : ''}:${id}`;
}

/** True when a tab (this one or another) holds the lock `name`; false where Web Locks are missing. */
export async function lockHeld(name: string): Promise<boolean> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return false;
  try {
    return (await locks.query()).held?.some((lock) => lock.name === name) ?? false;
  } catch {
    return false;
  }
}
