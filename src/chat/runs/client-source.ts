/** The `client` run source: a `WireClient` (or anything with `stream(body, {signal})`) the page made. */
import type { UnknownEvent, WireEvent } from '../../wire/events.js';
import type { ChatBody } from './request-body.js';
import type { ChatRunSource } from './run-source.js';

/** Anything that streams a run's events for a request body: a `WireClient` fits. */
export interface ChatClient {
  stream(body?: unknown, options?: { signal?: AbortSignal }): AsyncIterable<WireEvent | UnknownEvent>;
  readonly sessionId?: string | undefined;
}

/** Runs each message as one `client.stream(body)`, the body built with the server's session id. */
export function createClientSource(client: ChatClient, body: ChatBody): ChatRunSource {
  return {
    logsLines: false,
    open: ({ text, attachments }) => (signal) => client.stream(body(text, client.sessionId, attachments), { signal }),
  };
}
