/** Reading a `data:` URL's media type and payload, for APIs that take them apart (Anthropic's `source` objects). */

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
 * @throws when the payload is not valid base64 or percent-encoding.
 */
export function dataUrlText(url: DataUrl): string {
  if (!url.base64) return decodeURIComponent(url.data);
  const binary = atob(url.data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** The payload as base64: as it is when it is base64 already, else its decoded text's UTF-8 bytes. */
export function dataUrlBase64(url: DataUrl): string {
  if (url.base64) return url.data;
  let binary = '';
  for (const byte of new TextEncoder().encode(dataUrlText(url))) binary += String.fromCharCode(byte);
  return btoa(binary);
}
