/**
 * Which raster image format bytes hold, told by their signatures alone. An attachment is shown as an image,
 * and sent to a provider as one, only when its bytes are a PNG, JPEG, GIF, WebP or AVIF: a declared type
 * (a `data:` URL's header, `File.type`, an extension) is chosen by whoever made the file, and an SVG or an
 * HTML page opened from a same-origin `blob:` URL typed after it runs script with the page's origin.
 */

/** The raster formats an attachment may be shown as. */
export type RasterType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/avif';

/** The most leading bytes {@link rasterType} reads: an AVIF `ftyp` box with a few compatible brands fits. */
export const RASTER_SNIFF_BYTES = 64;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const hasBytes = (bytes: Uint8Array, at: number, expected: readonly number[]): boolean =>
  bytes.length >= at + expected.length && expected.every((b, i) => bytes[at + i] === b);

const hasAscii = (bytes: Uint8Array, at: number, text: string): boolean =>
  hasBytes(bytes, at, Array.from(text, (c) => c.charCodeAt(0)));

/** An ISO-BMFF `ftyp` box (first, as the format requires) naming `avif` or `avis` as its major or a compatible brand. */
function isAvif(bytes: Uint8Array): boolean {
  if (!hasAscii(bytes, 4, 'ftyp')) return false;
  const size = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  if (size < 16) return false;
  const isBrand = (at: number): boolean => hasAscii(bytes, at, 'avif') || hasAscii(bytes, at, 'avis');
  // the major brand at 8, the minor version at 12, then the compatible brands to the box's end
  if (isBrand(8)) return true;
  const end = Math.min(size, bytes.length, RASTER_SNIFF_BYTES);
  for (let at = 16; at + 4 <= end; at += 4) if (isBrand(at)) return true;
  return false;
}

/**
 * The raster format of `bytes`, or `undefined` when they are none of PNG (signature and the `IHDR` chunk
 * that must follow it), JPEG (`FF D8 FF`), GIF (`GIF87a`/`GIF89a`), WebP (`RIFF` … `WEBP` and a `VP8 `,
 * `VP8L` or `VP8X` chunk) or AVIF (an `ftyp` box with the `avif` or `avis` brand). Reads at most
 * {@link RASTER_SNIFF_BYTES} leading bytes, so a prefix of the data is enough. Empty or truncated data,
 * SVG, HTML, XML and anything else give `undefined`, whatever type they were declared as.
 */
export function rasterType(bytes: Uint8Array): RasterType | undefined {
  if (hasBytes(bytes, 0, PNG) && hasAscii(bytes, 12, 'IHDR')) return 'image/png';
  if (hasBytes(bytes, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (hasAscii(bytes, 0, 'GIF87a') || hasAscii(bytes, 0, 'GIF89a')) return 'image/gif';
  if (hasAscii(bytes, 0, 'RIFF') && ['VP8 ', 'VP8L', 'VP8X'].some((chunk) => hasAscii(bytes, 8, `WEBP${chunk}`))) return 'image/webp';
  if (isAvif(bytes)) return 'image/avif';
  return undefined;
}
