/**
 * `decodeWebSocket`: NDJSON lines carried in WebSocket frames → the same events as an HTTP stream.
 */
import { DataLostError, decodeWireStream, type DecodeStreamOptions } from './decode-stream.js';
import type { UnknownEvent, WireEvent } from './events.js';

/** Options of {@link decodeWebSocket}: those of `decodeWireStream` except `format` (always NDJSON). */
export interface DecodeWebSocketOptions extends Omit<DecodeStreamOptions, 'format'> {
  /**
   * Most bytes of received frames held unread (the server sends faster than events are consumed).
   * Past it the socket is closed with code 4009 (1009 "message too big" is reserved to the browser)
   * and the run ends with `RunError{code: "network"}` + `RunEnd`; the unread frames are dropped.
   * @defaultValue 16 MiB (`16 * 1024 * 1024`)
   */
  maxBufferedBytes?: number | undefined;
}

/** The default of {@link DecodeWebSocketOptions.maxBufferedBytes}: 16 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16_777_216; // a literal (16 MiB): bundlers drop it where unused

/** Close code sent when the unread frames pass `maxBufferedBytes` (private-use mirror of 1009). */
const BUFFER_FULL_CODE = 4009;

/**
 * Decodes the frames of a WebSocket as one NDJSON stream: frames are concatenated, so a frame may hold
 * several lines or part of one (binary frames are read as UTF-8). Listening starts at once, so frames
 * that arrive before iteration are kept; the socket may still be connecting.
 *
 * How the socket ending shows up (docs/wire.md#runs-and-the-termination-contract):
 * - a clean close while a run is open → `RunError{code: "truncated"}` + `RunEnd{stop_reason: "error"}`;
 *   a close between runs adds nothing;
 * - an `error` event or an abnormal close (e.g. code 1006) → `RunError{code: "network"}` (with the close
 *   code and reason) + `RunEnd`; when nothing had arrived yet (the connection failed), that is a run of
 *   its own: `RunBegin`, `RunError{code: "network"}`, `RunEnd`;
 * - aborting `options.signal` or breaking out of `for await` closes the socket (code 1000); an open run
 *   ends with `RunEnd{stop_reason: "cancelled"}`;
 * - more than `maxBufferedBytes` of frames waiting unread → the socket is closed (code 4009) and the
 *   unread frames dropped; the open run (or, between runs, a run of its own) gets
 *   `RunError{code: "network"}` + `RunEnd`;
 * - `idleTimeoutMs`: a stall inside a run ends it with `RunError{code: "timeout"}` and closes the socket.
 *
 * Sets `socket.binaryType` to `"arraybuffer"`.
 *
 * @example
 * const socket = new WebSocket('wss://example.com/events');
 * for await (const event of decodeWebSocket(socket)) console.log(event.method);
 */
export function decodeWebSocket(
  socket: WebSocket,
  options: DecodeWebSocketOptions & { includeUnknown: true },
): AsyncIterable<WireEvent | UnknownEvent>;
export function decodeWebSocket(
  socket: WebSocket,
  options?: DecodeWebSocketOptions & { includeUnknown?: false | undefined },
): AsyncIterable<WireEvent>;
export function decodeWebSocket(socket: WebSocket, options?: DecodeWebSocketOptions): AsyncIterable<WireEvent | UnknownEvent>;
export function decodeWebSocket(socket: WebSocket, options: DecodeWebSocketOptions = {}): AsyncIterable<WireEvent | UnknownEvent> {
  const { maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES, ...streamOptions } = options;
  const encoder = new TextEncoder();
  let failure: string | undefined;
  let settled = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const onMessage = (event: MessageEvent): void => {
    const data: unknown = event.data;
    if (typeof data === 'string') controller.enqueue(encoder.encode(data));
    else if (data instanceof ArrayBuffer) controller.enqueue(new Uint8Array(data));
    else return;
    // desiredSize is maxBufferedBytes minus the bytes queued unread
    if ((controller.desiredSize ?? 0) < 0) overflow();
  };
  const overflow = (): void => {
    detach();
    socket.close(BUFFER_FULL_CODE, 'buffer limit');
    controller.error(
      new DataLostError(`WebSocket ${socket.url} closed: more than maxBufferedBytes (${maxBufferedBytes} bytes) arrived unread`),
    );
  };
  const onError = (): void => {
    failure ??= `WebSocket ${socket.url} failed`;
  };
  const onClose = (event: CloseEvent): void => {
    if (settled) return;
    detach();
    if (failure !== undefined || !event.wasClean) {
      const why = event.reason ? `, ${event.reason}` : '';
      failure = `${failure ?? `WebSocket ${socket.url} closed abnormally`} (close code ${event.code}${why})`;
      controller.error(new Error(failure));
    } else {
      controller.close();
    }
  };
  const close = (): void => {
    if (settled) return;
    detach();
    if (socket.readyState === socket.CONNECTING || socket.readyState === socket.OPEN) socket.close(1000);
  };
  function detach(): void {
    settled = true;
    socket.removeEventListener('message', onMessage);
    socket.removeEventListener('error', onError);
    socket.removeEventListener('close', onClose);
    options.signal?.removeEventListener('abort', close);
  }

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    // The decoder cancels the body on break, abort and stall: that closes the socket.
    cancel: close,
  }, new ByteLengthQueuingStrategy({ highWaterMark: maxBufferedBytes }));

  socket.binaryType = 'arraybuffer';
  if (socket.readyState === socket.CLOSED) {
    settled = true;
    controller.close();
  } else {
    socket.addEventListener('message', onMessage);
    socket.addEventListener('error', onError);
    socket.addEventListener('close', onClose);
    // Closing here (listeners removed first) leaves the body open, so the decoder sees the abort, not EOF.
    options.signal?.addEventListener('abort', close, { once: true });
  }

  return decodeWireStream(body, { ...streamOptions, format: 'ndjson' });
}
