/**
 * Framing: bytes → documents. A sync push line splitter, NDJSON and SSE framing over its lines, and
 * format sniffing from the first non-whitespace bytes. No I/O, no timers.
 */
import { WireDecodeError } from '../errors.js';

/** How a body is framed: one JSON document a line, or Server-Sent Events `data:` payloads. */
export type WireFormat = 'ndjson' | 'sse';

/** The default cap on one line (or one SSE message): 16 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 16_777_216; // 16 MiB

const LF = 10;
const CR = 13;

/** UTF-8 length of a string, counting a lone surrogate as the 3 bytes of U+FFFD. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // the pair: 2 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** Callbacks of {@link createLineSplitter}. */
export interface LineSplitterOptions {
  /** Longest line kept, in UTF-8 bytes (terminator excluded). */
  maxLineBytes: number;
  /**
   * Every complete line, blank ones included, with its 1-based number: the line is
   * `text.slice(start, end)`, handed over as a range so that a reader who needs only part of it (an SSE
   * field's value) or none of it (a blank line) makes no string for the whole.
   */
  onLine(text: string, start: number, end: number, lineNumber: number): void;
  /** A line over `maxLineBytes`: called once, as soon as it is known; the line is then dropped. */
  onTooLong(lineNumber: number, head: string): void;
}

/** A push line splitter over text. */
export interface LineSplitter {
  /** Splits the next piece of text, cut anywhere. */
  push(text: string): void;
  /** Flushes a last line without a terminator. */
  end(): void;
}

/**
 * Splits text into lines on LF, CRLF and lone CR, wherever chunks are cut (a CRLF split across two
 * pushes is one terminator). Each character is scanned once: a partial line is kept as fragments and
 * joined once when its terminator arrives. A line over `maxLineBytes` is reported and its bytes are
 * dropped up to its terminator, never buffered.
 */
export function createLineSplitter(options: LineSplitterOptions): LineSplitter {
  const { maxLineBytes, onLine, onTooLong } = options;
  let fragments: string[] = [];
  let pendingUnits = 0;
  /** Exact UTF-8 length of the fragments, computed only once the line could be over the cap. */
  let pendingBytes: number | undefined;
  let lineNumber = 0;
  let skipping = false;
  let swallowLF = false;

  /** Over the cap: exact UTF-8 bytes are counted only when the UTF-16 units say they could be. */
  const tooLong = (text: string, start: number, end: number): boolean =>
    end - start > maxLineBytes || ((end - start) * 3 > maxLineBytes && utf8Length(text.slice(start, end)) > maxLineBytes);

  function drop(head: string): void {
    fragments = [];
    pendingUnits = 0;
    pendingBytes = undefined;
    skipping = true;
    onTooLong(lineNumber + 1, head.slice(0, 200));
  }

  function complete(text: string, start: number, end: number): void {
    lineNumber++;
    if (skipping) {
      skipping = false;
      return;
    }
    if (fragments.length > 0) {
      fragments.push(text.slice(start, end));
      text = fragments.join('');
      start = 0;
      end = text.length;
      fragments = [];
      pendingUnits = 0;
      pendingBytes = undefined;
    }
    if (tooLong(text, start, end)) onTooLong(lineNumber, text.slice(start, Math.min(end, start + 200)));
    else onLine(text, start, end, lineNumber);
  }

  function keep(fragment: string): void {
    if (skipping || fragment === '') return;
    pendingUnits += fragment.length;
    if (pendingBytes !== undefined) pendingBytes += utf8Length(fragment);
    else if (pendingUnits * 3 > maxLineBytes) pendingBytes = utf8Length(fragments.join('')) + utf8Length(fragment);
    if (pendingUnits > maxLineBytes || (pendingBytes !== undefined && pendingBytes > maxLineBytes)) {
      drop(fragments.length > 0 ? fragments[0]! : fragment);
      return;
    }
    fragments.push(fragment);
  }

  return {
    push(text) {
      let pos = 0;
      if (swallowLF && text.length > 0) {
        swallowLF = false;
        if (text.charCodeAt(0) === LF) pos = 1;
      }
      let lf = text.indexOf('\n', pos);
      let cr = text.indexOf('\r', pos);
      while (pos < text.length) {
        const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
        if (end === -1) break;
        complete(text, pos, end);
        pos = end + 1;
        if (end === cr) {
          if (pos === text.length) swallowLF = true;
          else if (text.charCodeAt(pos) === LF) pos++;
        }
        if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
        if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      }
      if (pos < text.length) keep(pos === 0 ? text : text.slice(pos));
    },
    end() {
      if (skipping) {
        skipping = false;
        lineNumber++;
      } else if (fragments.length > 0) {
        const line = fragments.join('');
        fragments = [];
        pendingUnits = 0;
        pendingBytes = undefined;
        onLine(line, 0, line.length, ++lineNumber);
      }
    },
  };
}

/** Callbacks of {@link createFraming}. */
export interface FramingOptions {
  /** `'auto'` sniffs the first non-whitespace bytes. */
  format: WireFormat | 'auto';
  maxLineBytes: number;
  /** One document (an NDJSON line or an SSE message's data) with its 1-based line / message number. */
  onDocument(text: string, number: number): void;
  /** A line or SSE message over `maxLineBytes`. */
  onTooLong(err: WireDecodeError): void;
}

/** The framing layer: bytes (or text) in, documents out. */
export interface Framing {
  /** Frames the next chunk, cut anywhere (inside a UTF-8 sequence, a CRLF or a line). */
  push(chunk: Uint8Array | string): void;
  /** EOF: flushes a last line without a terminator and a last SSE message without its blank line. */
  end(): void;
  /** The format in use, once known. */
  readonly format: WireFormat | undefined;
  /** The first characters of the body after leading whitespace (for error messages). */
  readonly head: string;
  /** SSE lines that are neither a field nor a comment (ignored, as the SSE spec says). */
  readonly garbageLines: number;
}

const HEAD_CHARS = 120;
/** Enough characters after leading whitespace for {@link sniffFormat} to decide (`retry:` is 6). */
const SNIFF_CHARS = 8;
const SSE_FIELDS = ['data', 'event', 'id', 'retry'];

/**
 * Sniffs the format from the start of a body (leading whitespace and BOM already skipped): `{` or `[`
 * → NDJSON; `:` or an SSE field name followed by `:` → SSE. Returns `undefined` when `text` is too
 * short to tell.
 */
export function sniffFormat(text: string): WireFormat | undefined {
  if (text === '') return undefined;
  const first = text.charCodeAt(0);
  if (first === 0x7b || first === 0x5b) return 'ndjson';
  if (first === 0x3a) return 'sse';
  for (const field of SSE_FIELDS) {
    const n = Math.min(text.length, field.length);
    if (text.slice(0, n) !== field.slice(0, n)) continue;
    if (text.length <= field.length) return undefined;
    const next = text.charCodeAt(field.length);
    if (next === 0x3a || next === LF || next === CR) return 'sse';
  }
  return 'ndjson';
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === LF || c === CR;

/**
 * Creates the framing layer. Bytes are decoded as UTF-8 exactly as one `TextDecoder` over the whole body
 * would (a sequence split across chunks decodes once; one leading BOM is dropped), then go through the
 * line splitter. NDJSON:
 * every non-blank line is a document. SSE: each message's `data` (its `data` lines joined by LF, as the
 * SSE spec reads them) is a document, except empty data and `[DONE]`; `event`, `id`, `retry` and comments are ignored.
 * Unlike `EventSource`, a last message whose blank line never came is still delivered at `end()` (a cut
 * one then fails to decode, as a cut NDJSON line does). An SSE message's size is capped in UTF-16
 * units of its lines (each line on its own in exact UTF-8 bytes).
 *
 * With format `'auto'`, chunks are held until the first non-whitespace characters tell the format;
 * each character is scanned once. More than `maxLineBytes` UTF-16 units of held leading whitespace
 * decides NDJSON, so an over-long whitespace line is reported as such and memory stays bounded.
 */
export function createFraming(options: FramingOptions): Framing {
  const { maxLineBytes, onDocument, onTooLong } = options;
  let format: WireFormat | undefined = options.format === 'auto' ? undefined : options.format;
  /** The streaming decoder, and the one that decodes whole chunks. */
  let decoder: TextDecoder | undefined;
  let whole: TextDecoder | undefined;
  /** The streaming decoder holds no bytes of a cut UTF-8 sequence (the last chunk ended on an ASCII byte). */
  let clean = true;
  let started = false;
  /** Chunks held until the format is known: leading whitespace and at most a few sniffed characters. */
  let held: string[] = [];
  let heldUnits = 0;
  let sniffText = '';
  let head = '';

  // SSE state (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
  // messages are numbered from 1; one that grows over the cap is dropped whole.
  let data = '';
  let dataLines = 0;
  let messageNumber = 0;
  let messageUnits = 0;
  let droppingMessage = false;
  let garbageLines = 0;

  /** A blank line ends a message: its data is a document unless empty or `[DONE]`; no data, no message. */
  function dispatch(): void {
    messageUnits = 0;
    if (dataLines === 0) return;
    const text = data;
    data = '';
    dataLines = 0;
    messageNumber++;
    if (text !== '' && text !== '[DONE]') onDocument(text, messageNumber);
  }

  /**
   * One SSE line, `text.slice(start, end)`: `data` lines gather (joined by LF); `event`, `id`, `retry`
   * and comments are ignored. Only a `data` value is made a string.
   */
  function sseLine(text: string, start: number, end: number): void {
    if (droppingMessage) {
      if (start === end) {
        droppingMessage = false;
        messageNumber++;
      }
      return;
    }
    if (start === end) return dispatch();
    messageUnits += end - start;
    if (messageUnits > maxLineBytes) return dropMessage(text.slice(start, end));
    let value: string;
    if (text.startsWith('data:', start) && end - start >= 5) {
      value = text.slice(end > start + 5 && text.charCodeAt(start + 5) === 0x20 ? start + 6 : start + 5, end);
    } else if (end - start === 4 && text.startsWith('data', start)) value = '';
    else {
      let colon = start;
      while (colon < end && text.charCodeAt(colon) !== 0x3a) colon++;
      if (colon !== start && !SSE_FIELDS.includes(text.slice(start, colon))) garbageLines++;
      return;
    }
    data = dataLines++ === 0 ? value : `${data}\n${value}`;
  }

  function dropMessage(head: string): void {
    droppingMessage = true;
    messageUnits = 0;
    data = '';
    dataLines = 0;
    onTooLong(
      new WireDecodeError(
        'line-too-long',
        `SSE message longer than maxLineBytes (${maxLineBytes} bytes)`,
        head,
        messageNumber + 1,
      ),
    );
  }

  const splitter = createLineSplitter({
    maxLineBytes,
    onLine(text, start, end, lineNumber) {
      if (format === 'ndjson') {
        // blank (whitespace-only) lines are skipped; the first character usually settles it
        if (start === end || (isSpace(text.charCodeAt(start)) && text.slice(start, end).trim() === '')) return;
        onDocument(text.slice(start, end), lineNumber);
        return;
      }
      sseLine(text, start, end);
    },
    onTooLong(lineNumber, lineHead) {
      if (format === 'ndjson') {
        onTooLong(
          new WireDecodeError('line-too-long', `Line longer than maxLineBytes (${maxLineBytes} bytes)`, lineHead, lineNumber),
        );
      } else if (!droppingMessage) {
        dropMessage(lineHead);
      }
    },
  });

  /** Decides the format: the held pieces go through the splitter in order, never joined. */
  function decide(to: WireFormat): void {
    format = to;
    const pieces = held;
    held = [];
    heldUnits = 0;
    for (const piece of pieces) splitter.push(piece);
  }

  function pushText(text: string): void {
    if (!started) {
      if (text === '') return;
      started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // Only the new chunk is scanned for the first non-space character, and only until one is seen.
    const from = head === '' ? skipSpace(text) : 0;
    if (head.length < HEAD_CHARS && from < text.length) head += text.slice(from, from + HEAD_CHARS - head.length);
    if (format === undefined) {
      if (text === '') return;
      held.push(text);
      heldUnits += text.length;
      if (from < text.length && sniffText.length < SNIFF_CHARS) sniffText += text.slice(from, from + SNIFF_CHARS - sniffText.length);
      const sniffed = sniffFormat(sniffText);
      if (sniffed !== undefined) decide(sniffed);
      else if (heldUnits > maxLineBytes) decide('ndjson');
      return;
    }
    splitter.push(text);
  }

  return {
    push(chunk) {
      if (typeof chunk === 'string') return pushText(chunk);
      // A chunk that ends on an ASCII byte (so no UTF-8 sequence is cut), while nothing is held from the
      // last one, is decoded as a whole buffer: Node decodes those natively, but every chunk of a decoder
      // that ever streamed through ICU, 7x slower. Other chunks are streamed. The BOM is pushText's.
      const ascii = chunk[chunk.length - 1]! < 128;
      pushText(
        ascii && clean
          ? (whole ??= new TextDecoder('utf-8', { ignoreBOM: true })).decode(chunk)
          : (decoder ??= new TextDecoder('utf-8', { ignoreBOM: true })).decode(chunk, { stream: true }),
      );
      clean = ascii;
    },
    end() {
      if (decoder) pushText(decoder.decode());
      if (format === undefined) decide('ndjson');
      splitter.end();
      if (format === 'sse' && !droppingMessage) dispatch();
    },
    get format() {
      return format;
    },
    get head() {
      return head;
    },
    get garbageLines() {
      return garbageLines;
    },
  };
}

function skipSpace(text: string): number {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}
