/**
 * The SSE cursor: where an event stream stands, in bytes, so that a stream cut by a network drop can be
 * resumed from a message boundary with `Last-Event-ID`. No I/O, no timers.
 */

const LF = 10;
const CR = 13;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = [0xef, 0xbb, 0xbf];
const ID = [0x69, 0x64]; // "id"
const RETRY = [0x72, 0x65, 0x74, 0x72, 0x79]; // "retry"
const DATA = 0x64; // "d" of "data"
const NO_BYTES: Uint8Array = new Uint8Array(0);

/**
 * An `id` value where it lies in the bytes read. Not a view of them: a typed array view costs more to
 * make than the whole line scan of a message.
 */
interface Span {
  bytes: Uint8Array;
  start: number;
  end: number;
}

const EMPTY: Span = { bytes: NO_BYTES, start: 0, end: 0 };

function equal(a: Span, b: Span): boolean {
  if (a.end - a.start !== b.end - b.start) return false;
  for (let i = 0; i < a.end - a.start; i++) if (a.bytes[a.start + i] !== b.bytes[b.start + i]) return false;
  return true;
}
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
  bytes: Uint8Array;
  /** The connection ended inside a line: the message held was cut. */
  cut: boolean;
}

/** The cursor returned by {@link createSseCursor}. */
export interface SseCursor {
  /**
   * Scans the next chunk of the connection and returns the bytes to hand on now, in one piece (empty when
   * none). Until the stream's last event id is set, that is every byte as it comes; from then on, whole
   * messages only (the message in progress is held), so that after a drop the framing never holds half a
   * message. After {@link SseCursor.reconnect}, a replay of what was already read is left out (see there).
   */
  push(chunk: Uint8Array): Uint8Array;
  /**
   * The connection ended. A held message whose lines are all complete is dispatched (its blank line was
   * all that was missing, as the framing reads a stream's end) and handed on with a blank line; one cut
   * inside a line is reported as `cut`, its bytes handed on only for a stream that will not resume.
   */
  end(): SseCursorEnd;
  /**
   * A new connection continues the stream: the message held and the line in progress are dropped, a
   * byte order mark at its start is removed, and the last event id carries on. When the new connection's
   * first id is the stream's first id or the last event id itself, the server is replaying what was
   * already read (it ignored `Last-Event-ID`, or sent that message again): its messages are left out up
   * to and including the one with the last event id. Ids are taken as unique within the stream, as a
   * resumable server's are.
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
  /** Since the last {@link SseCursor.reconnect}, a message with an id was handed on. */
  readonly progressed: boolean;
}

const isBomPrefix = (bytes: Uint8Array, length: number): boolean => BOM.slice(0, length).every((byte, i) => bytes[i] === byte);

/** `line[from, to)` is the field `name`: the name alone, or the name and a colon. */
function isField(line: Uint8Array, from: number, to: number, name: number[]): boolean {
  if (to - from < name.length || (to - from > name.length && line[from + name.length] !== COLON)) return false;
  for (let i = 1; i < name.length; i++) if (line[from + i] !== name[i]) return false;
  return true;
}

/** Where the value of the field `name` on `line[from, to)` starts: after the colon, less one leading space. */
function valueStart(line: Uint8Array, from: number, to: number, name: number[]): number {
  const colon = from + name.length;
  if (colon === to) return to;
  return line[colon + 1] === SPACE ? colon + 2 : colon + 1;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 0) return NO_BYTES;
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
 * leaves `data` and everything else to the framing. Ids are kept where they lie and decoded when read.
 */
export function createSseCursor(options: SseCursorOptions): SseCursor {
  const { maxMessageBytes } = options;
  let lastEventId = EMPTY;
  /** The last event ID buffer: set by `id` fields, committed when a message is dispatched. */
  let idBuffer = EMPTY;
  let retry: number | undefined;
  /** The `id` field of the message in progress, if it has one. */
  let messageId: Span | undefined;
  /** The first id of the stream, to tell a server that replays it from the start. */
  let firstId: Span | undefined;

  /** Bytes of the line in progress from earlier chunks, and those bytes themselves if it may be a field read. */
  let lineLength = 0;
  let lineParts: Uint8Array[] = [];
  /** The first byte of the line in progress from an earlier chunk. */
  let lineStart = 0;
  /** The last chunk ended on CR: an LF first in the next one belongs to it. */
  let afterCR = false;
  /** Bytes at a connection's start that may be a byte order mark, held until it is known. */
  let start: Uint8Array | undefined = NO_BYTES;

  /** The message in progress, from earlier chunks, while messages are held. */
  let held: Uint8Array[] = [];
  let heldLength = 0;
  /** An over-long message is being handed on as it comes. */
  let passing = false;

  /**
   * After a reconnect: `'unknown'` until the first id of the new connection tells, `'replaying'` while
   * its messages repeat what was read, up to the one with `resumedFrom`.
   */
  let replay: 'unknown' | 'replaying' | 'new' = 'new';
  let resumedFrom = EMPTY;
  let progressed = false;
  /** The message in progress has a `data` field. */
  let hasData = false;
  /**
   * The stream's first event came without an id: it is one a server does not resume, so the rest passes
   * through unread (reading every line of a stream without ids cost WireClient about a sixth of its time).
   */
  let unread = false;

  const holding = (): boolean => lastEventId.end > lastEventId.start && !passing;

  /**
   * A complete line `line[from, to)` whose first byte is that of `id` or `retry` (the caller checked):
   * `id` and `retry` fields are read, the `id` value kept as a span of the line.
   */
  function field(line: Uint8Array, from: number, to: number): void {
    if (line[from] === ID[0] && isField(line, from, to, ID)) {
      const start = valueStart(line, from, to, ID);
      for (let i = start; i < to; i++) if (line[i] === 0) return;
      idBuffer = messageId = { bytes: line, start, end: to };
    } else if (isField(line, from, to, RETRY)) {
      const start = valueStart(line, from, to, RETRY);
      for (let i = start; i < to; i++) if (line[i]! < 0x30 || line[i]! > 0x39) return;
      if (start < to) retry = Number(fieldDecoder.decode(line.subarray(start, to)));
    }
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
    if (hasData && id === undefined && lastEventId.end === lastEventId.start && replay === 'new' && !progressed) unread = true;
    hasData = false;
    if (replay === 'unknown' && id !== undefined) {
      replay = equal(id, resumedFrom) || (firstId !== undefined && equal(id, firstId)) ? 'replaying' : 'new';
    }
    // (an over-long message was handed on as it came: too late to leave it out)
    if (replay === 'replaying' && !passed) {
      if (id !== undefined && equal(id, resumedFrom)) replay = 'new';
      idBuffer = lastEventId;
      return false;
    }
    lastEventId = idBuffer;
    if (id !== undefined && id.end > id.start) {
      // (a span of the chunk would keep the whole chunk alive)
      firstId ??= { bytes: id.bytes.slice(id.start, id.end), start: 0, end: id.end - id.start };
      progressed = true;
    }
    return true;
  }

  /** Drops a byte order mark at a connection's start; holds up to two bytes until it is known. */
  function skipBom(chunk: Uint8Array): Uint8Array | undefined {
    if (start === undefined) return chunk;
    const bytes = start.length === 0 ? chunk : concat([start, chunk]);
    const bom = bytes.length >= 3 && isBomPrefix(bytes, 3);
    if (bytes.length < 3 && isBomPrefix(bytes, bytes.length)) {
      start = bytes;
      return undefined;
    }
    start = undefined;
    return bom ? bytes.subarray(3) : bytes;
  }

  return {
    push(input) {
      if (unread) return input;
      const chunk = skipBom(input);
      if (chunk === undefined || chunk.length === 0) return NO_BYTES;
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
        // only a line that may be `id` or `retry` is looked at, and a line that began in an earlier chunk
        // was kept in parts only then: `data` lines, most of the bytes, are never copied
        const blank = end === pos && lineLength === 0;
        if (lineLength === 0) {
          const first = chunk[pos];
          if (first === ID[0] || first === RETRY[0]) field(chunk, pos, end);
          else if (first === DATA) hasData = true;
        } else {
          if (lineParts.length === 0 && lineStart === DATA) hasData = true;
          if (lineParts.length > 0) {
            lineParts.push(chunk.subarray(pos, end));
            const line = concat(lineParts);
            field(line, 0, line.length);
            lineParts = [];
          }
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
        const handed = dispatch();
        // the stream's first event had no id: the rest of it passes unread
        if (unread) return from === 0 ? chunk : chunk.subarray(from);
        if (handed) {
          if (held.length > 0) out.push(...held);
          upTo = pos;
        } else {
          if (upTo > from) out.push(chunk.subarray(from, upTo));
          from = upTo = pos;
        }
        if (held.length > 0) {
          held = [];
          heldLength = 0;
        }
      }
      if (pos < chunk.length) {
        if (lineLength === 0) lineStart = chunk[pos]!;
        if (lineLength === 0 ? chunk[pos] === ID[0] || chunk[pos] === RETRY[0] : lineParts.length > 0) lineParts.push(chunk.subarray(pos));
        lineLength += chunk.length - pos;
      }
      if (!holding()) {
        // everything as it comes: no id yet, or an over-long message passing
        if (chunk.length > from) out.push(from === 0 ? chunk : chunk.subarray(from));
        return concat(out);
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
      // one piece: a read per chunk downstream, and the held part copied once, not read on its own
      return concat(out);
    },
    end() {
      if (unread) return { bytes: NO_BYTES, cut: false };
      // bytes held at the start as a possible byte order mark are a line in progress too
      const bytes = start !== undefined && start.length > 0 ? [...held, start] : held;
      const cut = lineLength > 0 || bytes.length > held.length;
      held = [];
      heldLength = 0;
      start = undefined;
      if (cut || bytes.length === 0) return { bytes: concat(bytes), cut };
      // only the blank line was missing; CR ends a blank line whatever ended the line before it
      return { bytes: dispatch() ? concat([...bytes, new Uint8Array([CR])]) : NO_BYTES, cut };
    },
    reconnect() {
      held = [];
      heldLength = 0;
      passing = false;
      lineParts = [];
      lineLength = 0;
      afterCR = false;
      start = NO_BYTES;
      messageId = undefined;
      idBuffer = lastEventId;
      resumedFrom = lastEventId;
      replay = 'unknown';
      progressed = false;
    },
    get lastEventId() {
      return fieldDecoder.decode(lastEventId.bytes.subarray(lastEventId.start, lastEventId.end));
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
