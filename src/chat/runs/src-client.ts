/** The client behind `<pagent-chat src>`: a `WireClient` that POSTs JSON and keeps the server's `X-Session-Id`. */
import { WireClient } from '../../wire/client.js';
import type { WireDecodeError } from '../../errors.js';
import { messageParts } from '../attachments/parts.js';
import type { ChatAttachment } from '../attachments/types.js';

/** Options of {@link createSrcClient}. */
export interface SrcClientOptions {
  onLine?: (line: string) => void;
  onDecodeError?: (err: WireDecodeError) => void;
}

/** Creates the client for one `src` URL (unknown events included, so the timeline can skip them itself). */
export function createSrcClient(url: string, options: SrcClientOptions): WireClient<true> {
  return new WireClient(url, { method: 'POST', includeUnknown: true, ...options });
}

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
