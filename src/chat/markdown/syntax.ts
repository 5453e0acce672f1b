/**
 * The character classes, patterns and string transforms of CommonMark 0.31.2 that the block and inline
 * parsers share: escapes, character references, raw HTML, link labels and destinations.
 */
import { decodeReference } from './entities.js';

/** ASCII punctuation: the characters a backslash escapes (§2.4). */
export const ESCAPABLE = /[!-/:-@[-`{-~]/;
/** A character reference (§2.5): numeric, hexadecimal or named. */
export const ENTITY_SOURCE = '&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});';

const TAG_NAME = '[A-Za-z][A-Za-z0-9-]*';
const ATTRIBUTE = '(?:\\s+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:\\s*=\\s*(?:[^"\'=<>`\\x00-\\x20]+|\'[^\']*\'|"[^"]*"))?)';
/** An open tag and a closing tag (§6.6). */
export const OPEN_TAG = `<${TAG_NAME}${ATTRIBUTE}*\\s*/?>`;
export const CLOSE_TAG = `</${TAG_NAME}\\s*[>]`;
/** Any inline raw HTML (§6.6), anchored with the sticky flag. */
export const HTML_TAG = new RegExp(
  `(?:${OPEN_TAG}|${CLOSE_TAG}|<!-->|<!--->|<!--[\\s\\S]*?-->|[<][?][\\s\\S]*?[?][>]|<![A-Za-z]+[^>]*>|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>)`,
  'y',
);

/**
 * From a `<` to the end of the text so far, anchored with the sticky flag: text that more text could still
 * make inline raw HTML (a prefix of one). A `<` it does not match is text for good, whatever follows.
 */
export const UNFINISHED_HTML_TAG = new RegExp(
  `(?:<|<${TAG_NAME}${ATTRIBUTE}*(?:\\s*/?|\\s+[a-zA-Z_:][a-zA-Z0-9:._-]*\\s*(?:=\\s*(?:'[^']*|"[^"]*)?)?)` +
    `|</(?:${TAG_NAME}\\s*)?|<!-?|<!--[\\s\\S]*|<![A-Za-z]+[^>]*|<!\\[(?:C(?:D(?:A(?:T(?:A\\[?)?)?)?)?)?|<!\\[CDATA\\[[\\s\\S]*|<[?][\\s\\S]*)$`,
  'y',
);

const ESCAPED_OR_REFERENCE = new RegExp(`\\\\[!-/:-@[-\`{-~]|${ENTITY_SOURCE}`, 'g');

/** Decodes one character reference `&…;` (numeric, or named from the HTML5 table); `null` when it is none, `undefined` while the full table loads. */
export function decodeEntity(reference: string): string | null | undefined {
  if (reference.charCodeAt(1) === 35 /* # */) {
    const hex = reference.charCodeAt(2) === 120 || reference.charCodeAt(2) === 88;
    const code = Number.parseInt(reference.slice(hex ? 3 : 2, -1), hex ? 16 : 10);
    // NUL, surrogates and out-of-range code points become U+FFFD (§2.5).
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
  }
  return decodeReference(reference.slice(1, -1));
}

/** Replaces backslash escapes and character references with the characters they stand for. */
export function unescapeString(s: string): string {
  if (!s.includes('\\') && !s.includes('&')) return s;
  return s.replace(ESCAPED_OR_REFERENCE, (m) => (m.charCodeAt(0) === 92 ? m.charAt(1) : (decodeEntity(m) ?? m)));
}

/**
 * Normalises a link label for matching (§4.7): outer brackets removed, trimmed, inner whitespace
 * collapsed, Unicode case-folded (as commonmark.js does: lower- then upper-case).
 */
export function normalizeLabel(label: string): string {
  return label.slice(1, -1).trim().replace(/[ \t\r\n]+/g, ' ').toLowerCase().toUpperCase();
}

// Characters a URL keeps as they are; everything else is percent-encoded as UTF-8.
const URL_KEEP = /[A-Za-z0-9;/?:@&=+$,\-_.!~*'()#%]/;
const HEX = '0123456789ABCDEF';

/**
 * Percent-encodes a link destination the way the CommonMark reference renderers do: characters outside
 * the URL-safe set become UTF-8 `%XX` escapes, a `%` already starting a valid escape is kept, and a lone
 * surrogate becomes U+FFFD.
 */
export function normalizeUri(uri: string): string {
  let out = '';
  for (let i = 0; i < uri.length; i++) {
    const c = uri[i]!;
    const code = uri.charCodeAt(i);
    if (c === '%') {
      out += /^[0-9a-fA-F]{2}$/.test(uri.slice(i + 1, i + 3)) ? '%' : '%25';
    } else if (code < 0x80 && URL_KEEP.test(c)) {
      out += c;
    } else {
      let char = c;
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < uri.length && (uri.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        char = uri.slice(i, i + 2);
        i++;
      } else if (code >= 0xd800 && code <= 0xdfff) {
        char = '\ufffd';
      }
      for (const byte of new TextEncoder().encode(char)) out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
    }
  }
  return out;
}

/** A whitespace character (§2.1): space, tab, line feed, line tabulation, form feed, carriage return. */
export const WHITESPACE_CHAR = /^[ \t\n\x0b\x0c\x0d]$/;
/** True for Unicode whitespace (§2.1): Zs plus tab, line feed, form feed and carriage return. */
export const isUnicodeWhitespace = (c: string): boolean => c === '' || /^[\s]$/u.test(c);
/** Unicode punctuation (§2.1): general categories P and S. */
export const PUNCTUATION = /^[\p{P}\p{S}]$/u;
