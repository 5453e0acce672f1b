/**
 * Fresh ids for conversations and runs, for every layer: the store (an imported conversation whose id is
 * taken), the agents (a new conversation, an AG-UI run) and the element.
 */

/**
 * A new random id: a UUID where the page can make one, else time and randomness in base 36. Only secure
 * contexts (https, localhost) have `crypto.randomUUID`: a page served over plain http from a LAN address
 * or a host name has not, and must still start a conversation.
 */
export function newId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `id-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
