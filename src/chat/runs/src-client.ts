/**
 * The client behind `<pagent-chat src>`, a chunk loaded once `src` is set (./src-source.ts): a `WireClient`
 * that POSTs JSON and keeps the server's `X-Session-Id`. A page that runs an agent or its own client never
 * loads the wire client, its decoder and its framing.
 */
import { WireClient } from '../../wire/client.js';
import type { WireDecodeError } from '../../errors.js';

/** Options of {@link createSrcClient}. */
export interface SrcClientOptions {
  onLine?: (line: string) => void;
  onDecodeError?: (err: WireDecodeError) => void;
}

/** Creates the client for one `src` URL (unknown events included, so the timeline can skip them itself). */
export function createSrcClient(url: string, options: SrcClientOptions): WireClient<true> {
  return new WireClient(url, { method: 'POST', includeUnknown: true, ...options });
}
