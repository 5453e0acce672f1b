/**
 * The SSE cursor: where an event stream stands, in bytes, so that a stream cut by a network drop can be
 * resumed from a message boundary with `Last-Event-ID`. No I/O, no timers.
 */

const LF = 10;
const CR = 13;
const BOM = [0xef, 0xbb, 0xbf];
const ID = [0x69, 0x64]; // "id"
const RETRY = [0x72, 0x65, 0x74, 0x72, 0x79]; // "retry"
const fieldDecoder = new TextDecoder();

/** Options of {@link createSseCursor}. */
export interface SseCursorOptions {
  /**
   * A message held longer than this, in bytes, is handed on as it comes (the framing drops it anyway) and
   * a drop inside it cannot be resumed.
   */
  maxMessageBytes: number;
}

/** What {@link SseCursor.end} found at the end of a connection. */
export interface SseCursorEnd {
  /** Bytes to hand on: the message held, with a blank line after it when only that was missing. */
  bytes: Uint8Array[];
  /** The connection ended inside a line: the message held was cut. */
  cut: boolean;
}

/** The cursor returned by {@link createSseCursor}. */
export interface SseCursor {
  /**
   * Scans the next chunk of the connection and returns the bytes to hand on now. Until the stream's last
   * event id is set, that is every byte as it comes; from then on, whole messages only (the message in
   * progress is held), so that after a drop the framing never holds half a message. After
   * {@link SseCursor.reconnect}, messages that replay ids already seen are left out (see there).
   */
  push(chunk: Uint8Array): Uint8Array[];
  /**
   * The connection ended. A held message whose lines are all complete is dispatched (its blank line was
   * all that was missing, as the framing reads a stream's end) and handed on with a blank line; one cut
   * inside a line is reported as `cut`, its bytes handed on only for a stream that will not resume.
   */
  end(): SseCursorEnd;
  /**
   * A new connection continues the stream: the message held and the line in progress are dropped, a
   * byte order mark at its start is removed, and the last event id carries on. Its messages that carry
   * an id already seen on this stream are left out, and so are the id-less messages after them, until a
   * message carries a new id: a server that replays more than it was asked for (from the start, or the
   * `Last-Event-ID` message itself) adds no duplicate. Ids are taken as unique within the stream, as a
   * resumable server's are; every id seen is kept for that.
   */
  reconnect(): void;
  /**
   * The id of the last message dispatched (SSE: the last event ID string), `''` when none. An `id` field
   * with U+0000 is ignored; an empty one resets it to `''`.
   */
  readonly lastEventId: string;
  /** The last valid `retry` field (ASCII digits only), in milliseconds; `undefined` when none came. */
  readonly retry: number | undefined;
  /** A drop now could be resumed: there is a last event id, and no over-long message is passing. */
  readonly resumable: boolean;
  /** Since the last {@link SseCursor.reconnect}, a message with an id not seen before was handed on. */
  readonly progressed: boolean;
}

const startsWith = (bytes: Uint8Array, prefix: number[]): boolean => prefix.every((b, i) => bytes[i] === b);

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Creates a cursor over an SSE byte stream: it reads line ends (LF, CRLF, lone CR, wherever chunks are
 * cut), `id` and `retry` fields and blank lines as the SSE spec's event stream interpretation does
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation), and
 * leaves `data` and everything else to the framing.
 */
export function createSseCursor(options: SseCursorOptions): SseCursor {
  const { maxMessageBytes } = options;
  let lastEventId = '';
  /** The last event ID buffer: set by `id` fields, committed when a message is dispatched. */
  let idBuffer = '';
  let retry: number | undefined;
  /** The `id` field of the message in progress, if it has one. */
  let messageId: string | undefined;

  /** The bytes of the line in progress that came in earlier chunks. */
  let lineParts: Uint8Array[] = [];
  let lineLength = 0;
  /** The last chunk ended on CR: an LF first in the next one belongs to it. */
  let afterCR = false;
  /** Bytes at a connection's start that may be a byte order mark, held until it is known. */
  let start: Uint8Array | undefined = new Uint8Array(0);

  /** The message in progress, from earlier chunks, while messages are held. */
  let held: Uint8Array[] = [];
  let heldLength = 0;
  /** An over-long message is being handed on as it comes. */
  let passing = false;

  /** Every id dispatched, for leaving out replays after a reconnect. */
  const seen = new Set<string>();
  /** After a reconnect: whether the new connection replays ids already seen. */
  let replay: 'unknown' | 'replaying' | 'new' = 'new';
  let progressed = false;

  const holding = (): boolean => lastEventId !== '' && !passing;

  /** A complete line (its bytes, without terminator). Returns true for a blank line. */
  function line(bytes: Uint8Array): boolean {
    if (bytes.length === 0) return true;
    const isId = startsWith(bytes, ID) && (bytes.length === 2 || bytes[2] === 0x3a);
    const isRetry = !isId && startsWith(bytes, RETRY) && (bytes.length === 5 || bytes[5] === 0x3a);
    if (!isId && !isRetry) return false;
    const name = isId ? 2 : 5;
    const from = bytes[name + 1] === 0x20 ? name + 2 : name + 1;
    const value = bytes.length <= name ? '' : fieldDecoder.decode(bytes.subarray(from));
    if (isId) {
      if (!value.includes('\0')) idBuffer = messageId = value;
    } else if (/^\d+$/.test(value)) retry = Number(value);
    return false;
  }

  /**
   * A blank line: the message is dispatched. Returns whether it is handed on (false: a replayed message
   * left out).
   */
  function dispatch(): boolean {
    const id = messageId;
    const passed = passing;
    messageId = undefined;
    passing = false;
    if (replay !== 'new' && id !== undefined) replay = seen.has(id) ? 'replaying' : 'new';
    // (an over-long message was handed on as it came: too late to leave it out)
    if (replay === 'replaying' && !passed) {
      idBuffer = lastEventId;
      return false;
    }
    lastEventId = idBuffer;
    if (id !== undefined && id !== '' && !seen.has(id)) {
      seen.add(id);
      progressed = true;
    }
    return true;
  }

  /** Drops a byte order mark at a connection's start; holds up to two bytes until it is known. */
  function skipBom(chunk: Uint8Array): Uint8Array | undefined {
    if (start === undefined) return chunk;
    const bytes = start.length === 0 ? chunk : concat([start, chunk]);
    if (bytes.length < 3 && startsWith(bytes, BOM.slice(0, bytes.length))) {
      start = bytes;
      return undefined;
    }
    start = undefined;
    return startsWith(bytes, BOM) ? bytes.subarray(3) : bytes;
  }

  return {
    push(input) {
      const chunk = skipBom(input);
      if (chunk === undefined || chunk.length === 0) return [];
      const out: Uint8Array[] = [];
      /** This chunk's bytes from `from` to `upTo` are handed on: each message dispatched extends `upTo`. */
      let from = 0;
      let upTo = 0;
      let pos = 0;
      if (afterCR) {
        afterCR = false;
        if (chunk[0] === LF) pos = 1;
      }
      let lf = chunk.indexOf(LF, pos);
      let cr = chunk.indexOf(CR, pos);
      while (pos < chunk.length) {
        const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
        if (end === -1) break;
        let blank: boolean;
        if (lineParts.length === 0) blank = line(chunk.subarray(pos, end));
        else {
          // only a field of interest is joined: a long `data` line spanning chunks is never copied
          const first = lineParts[0]![0];
          if (first === ID[0] || first === RETRY[0]) line(concat([...lineParts, chunk.subarray(pos, end)]));
          blank = false;
          lineParts = [];
          lineLength = 0;
        }
        pos = end + 1;
        if (chunk[end] === CR) {
          if (pos === chunk.length) afterCR = true;
          else if (chunk[pos] === LF) pos++;
        }
        if (cr !== -1 && cr < pos) cr = chunk.indexOf(CR, pos);
        if (lf !== -1 && lf < pos) lf = chunk.indexOf(LF, pos);
        if (!blank) continue;
        if (dispatch()) {
          out.push(...held);
          upTo = pos;
        } else {
          if (upTo > from) out.push(chunk.subarray(from, upTo));
          from = upTo = pos;
        }
        held = [];
        heldLength = 0;
      }
      if (pos < chunk.length) {
        lineParts.push(chunk.subarray(pos));
        lineLength += chunk.length - pos;
      }
      if (!holding()) {
        // everything as it comes: no id yet, or an over-long message passing
        if (chunk.length > from) out.push(chunk.subarray(from));
        return out;
      }
      if (upTo > from) out.push(chunk.subarray(from, upTo));
      if (upTo < chunk.length) {
        held.push(chunk.subarray(upTo));
        heldLength += chunk.length - upTo;
        if (heldLength > maxMessageBytes) {
          out.push(...held);
          held = [];
          heldLength = 0;
          passing = true;
        }
      }
      return out;
    },
    end() {
      // bytes held at the start as a possible byte order mark are a line in progress too
      const bytes = start !== undefined && start.length > 0 ? [...held, start] : held;
      const cut = lineLength > 0 || bytes.length > held.length;
      held = [];
      heldLength = 0;
      start = undefined;
      if (cut || bytes.length === 0) return { bytes, cut };
      // only the blank line was missing; CR ends a blank line whatever ended the line before it
      return { bytes: dispatch() ? [...bytes, new Uint8Array([CR])] : [], cut };
    },
    reconnect() {
      held = [];
      heldLength = 0;
      passing = false;
      lineParts = [];
      lineLength = 0;
      afterCR = false;
      start = new Uint8Array(0);
      messageId = undefined;
      idBuffer = lastEventId;
      replay = 'unknown';
      progressed = false;
    },
    get lastEventId() {
      return lastEventId;
    },
    get retry() {
      return retry;
    },
    get resumable() {
      return holding();
    },
    get progressed() {
      return progressed;
    },
  };
}
