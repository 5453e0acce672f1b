/** The request body `<pagent-chat>` sends to a `src` URL or a `client`. */
import { messageParts } from '../attachments/content-parts.js';
import type { ChatAttachment } from '../attachments/types.js';

/** Builds the POST body for `src` from the user's text, the server's session id and the message's files. */
export type ChatBody = (text: string, sessionId: string | undefined, attachments: readonly ChatAttachment[]) => unknown;

/**
 * The request body of a `src` or `client` source without a `body` function: `{message, session_id?}`, and
 * the user message as OpenAI content parts in `content` only when files came with it (text-only sends keep
 * their shape).
 */
export function defaultRequestBody(text: string, sessionId: string | undefined, attachments: readonly ChatAttachment[]): Record<string, unknown> {
  const body: Record<string, unknown> = { message: text };
  if (sessionId !== undefined) body['session_id'] = sessionId;
  if (attachments.length > 0) body['content'] = messageParts(text, attachments);
  return body;
}
