/**
 * The one place the element makes `blob:` URLs to show attachments with. Only bytes that are a PNG, JPEG,
 * GIF, WebP or AVIF get one, typed by their bytes: an SVG or an HTML page behind a same-origin `blob:` URL
 * typed after its declared type would run script with the page's origin when opened in a tab of its own.
 */
import { dataUrlPayload } from '../../agent/data-url.js';
import { rasterType } from '../../agent/raster-type.js';
import type { ChatAttachment } from './types.js';

/** A new `blob:` URL of raster image bytes, typed by their format; `undefined` for any other bytes. The caller revokes it. */
export function imageObjectUrl(bytes: Uint8Array<ArrayBuffer>): string | undefined {
  const type = rasterType(bytes);
  return type ? URL.createObjectURL(new Blob([bytes], { type })) : undefined;
}

/**
 * A new `blob:` URL showing a stored image attachment (its data is a `data:` URL), or `undefined` when it
 * has no `data:` URL or its bytes are no raster image (it is then shown as a file chip). The caller revokes it.
 */
export function objectUrl(a: ChatAttachment): string | undefined {
  if (a.part.type !== 'image_url') return undefined;
  const bytes = dataUrlPayload(a.part.image_url.url);
  return bytes && imageObjectUrl(bytes);
}
