/**
 * `data:` URLs (RFC 2397, as browsers read them: base64 or percent-encoded): the bytes they carry, and
 * their media type and payload taken apart for APIs that want them so (Anthropic's `source` objects).
 */

const WHITESPACE = /[\t\n\f\r ]/g;
const HAS_WHITESPACE = /[\t\n\f\r ]/;

function fromBase64(text: string, limit: number): Uint8Array<ArrayBuffer> | undefined {
  let chars = text;
  if (limit < Infinity) {
    chars = text.slice(0, Math.ceil(limit / 3) * 4);
    // whitespace inside a base64 payload is allowed (and rare): then the whole payload is read
    if (HAS_WHITESPACE.test(chars)) chars = text;
    else if (chars.length < text.length) chars = chars.slice(0, chars.length - (chars.length % 4));
  }
  try {
    const binary = atob(chars.replace(WHITESPACE, ''));
    const bytes = new Uint8Array(Math.min(binary.length, limit));
    for (let i = 0; i < bytes.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

function fromPercent(text: string, limit: number): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < text.length && out.length < limit; i++) {
    const escape = text[i] === '%' ? /^[0-9a-f]{2}$/i.exec(text.slice(i + 1, i + 3)) : null;
    if (escape) {
      out.push(parseInt(escape[0], 16));
      i += 2;
    } else {
      const c = text.codePointAt(i)!;
      if (c > 0xffff) i++;
      out.push(...utf8.encode(String.fromCodePoint(c)));
    }
  }
  return new Uint8Array(out.slice(0, limit));
}

/**
 * The first `limit` bytes (all by default) of a `data:` URL's payload: base64-decoded when its header ends
 * in `;base64` (ASCII whitespace ignored, as browsers do), else percent-decoded (other characters as
 * UTF-8). `undefined` when `url` is not a `data:` URL or its base64 does not decode. With a `limit`, only
 * about that many bytes are decoded, however long the URL.
 */
export function dataUrlPayload(url: string, limit = Infinity): Uint8Array<ArrayBuffer> | undefined {
  if (!/^data:/i.test(url)) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const payload = url.slice(comma + 1);
  return /;[\t ]*base64[\t ]*$/i.test(url.slice(0, comma)) ? fromBase64(payload, limit) : fromPercent(payload, limit);
}

/** A `data:` URL taken apart; `base64` says whether `data` is base64 or percent-encoded text. */
export interface DataUrl {
  mediaType: string;
  base64: boolean;
  data: string;
}

/**
 * Splits a `data:` URL (RFC 2397) into its media type (without parameters, lower case; `text/plain` when
 * absent, as the RFC says) and payload. `undefined` for any other URL.
 */
export function parseDataUrl(url: string): DataUrl | undefined {
  const match = /^data:([^,]*?)(;base64)?,/i.exec(url);
  if (!match) return undefined;
  const mediaType = (match[1]!.split(';')[0] ?? '').trim().toLowerCase() || 'text/plain';
  return { mediaType, base64: match[2] !== undefined, data: url.slice(match[0].length) };
}

/**
 * The text of a `data:` URL's payload, decoded as UTF-8 (invalid sequences become U+FFFD).
 * @throws when the payload is not valid base64.
 */
export function dataUrlText(url: DataUrl): string {
  const bytes = url.base64 ? fromBase64(url.data, Infinity) : fromPercent(url.data, Infinity);
  if (!bytes) throw new Error('the data: URL is not valid base64');
  return new TextDecoder().decode(bytes);
}

/** The payload as base64: as it is when it is base64 already, else its decoded text's UTF-8 bytes. */
export function dataUrlBase64(url: DataUrl): string {
  if (url.base64) return url.data;
  let binary = '';
  for (const byte of new TextEncoder().encode(dataUrlText(url))) binary += String.fromCharCode(byte);
  return btoa(binary);
}
