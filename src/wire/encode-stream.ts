/**
 * `encodeStream`: our events as the bytes of another protocol (pagent NDJSON, AG-UI, the AI SDK UI
 * message stream), so an `Agent` can serve any of their clients. The writer itself (./stream-writer.ts)
 * is loaded on first use, so an agent that never writes wire text does not carry it.
 */
import type { UnknownEvent, WireEvent } from './events.js';
import type { WireFormat } from './framing.js';

/** The protocols `encodeStream` writes. */
export type EncodeDialect = 'pagent' | 'ag-ui' | 'ai-sdk';

/** Options of {@link encodeStream}. */
export interface EncodeStreamOptions {
  /** The protocol to write. */
  dialect: EncodeDialect;
  /**
   * `'ndjson'`: one JSON document a line. `'sse'`: one `data: <json>` message each.
   * @defaultValue `'ndjson'` for pagent, `'sse'` for AG-UI and the AI SDK (the transports their clients read)
   */
  format?: WireFormat | undefined;
}

/**
 * The response headers a server sends with {@link encodeStream}'s output: the `Content-Type` of the
 * format, and for the AI SDK its `x-vercel-ai-ui-message-stream: v1` marker (which `useChat` and our
 * `WireClient` recognise).
 */
export function encodeStreamHeaders(options: EncodeStreamOptions): Record<string, string> {
  const sse = (options.format ?? (options.dialect === 'pagent' ? 'ndjson' : 'sse')) === 'sse';
  const headers: Record<string, string> = { 'Content-Type': sse ? 'text/event-stream' : 'application/x-ndjson' };
  if (options.dialect === 'ai-sdk') headers['x-vercel-ai-ui-message-stream'] = 'v1';
  return headers;
}

/**
 * Writes events as another protocol's stream: each yielded string is one NDJSON line or one SSE message,
 * ready to write to a response.
 *
 * Runs are written whole, whatever the input does (docs/wire.md#writing-other-dialects): an event outside a run is preceded by a
 * `RunBegin{user_input: ""}`; a `RunBegin` while a run is open, and the end of the input while a run is
 * open, first close that run as failed (`RunError{code: "truncated"}` + `RunEnd{stop_reason: "error"}`
 * with the partial answer), so the other side never waits on a cut run. If the input throws, the open
 * run is closed the same way (with the error's message) before the error is rethrown. Unknown events are
 * written only in the pagent dialect. Tool call ids are kept; a cancelled run is written as the protocol's
 * cancel (AG-UI outcome `cancelled`, AI SDK `abort`) and a failed run carries its message (`RUN_ERROR`,
 * `error`). docs/wire.md, "Dialects", gives each mapping. Breaking out of the loop stops reading the
 * input.
 *
 * @example
 * // a Node server answering an AI SDK `useChat` front end with an in-browser-style Agent
 * res.writeHead(200, encodeStreamHeaders({ dialect: 'ai-sdk' }));
 * for await (const chunk of encodeStream(agent.events(message), { dialect: 'ai-sdk' })) res.write(chunk);
 * res.end();
 */
export async function* encodeStream(
  events: AsyncIterable<WireEvent | UnknownEvent>,
  options: EncodeStreamOptions,
): AsyncGenerator<string, void, undefined> {
  const { writeStream } = await import('./stream-writer.js');
  yield* writeStream(events, options);
}
