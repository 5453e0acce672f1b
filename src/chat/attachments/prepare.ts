/**
 * Turns files into content parts for the model. A file's bytes, not its declared type, make it an image:
 * PNG, JPEG, GIF, WebP and AVIF are scaled down to `maxImageSide` (decoded with `createImageBitmap`, EXIF
 * orientation applied, drawn on an `OffscreenCanvas`); another file declared as an image that the browser
 * decodes (a BMP) is redrawn as PNG. Text-like files (SVG included: its source, never a picture) become text
 * parts with their name, other files `file` parts. Files of a type `accept` does not list, over
 * `maxAttachmentBytes`, past the message's `maxTotalAttachmentBytes` or unreadable (a file declared as an
 * image that no image decoder reads, e.g. HTML named `photo.png`) are refused with a sentence naming them;
 * the others are still added.
 */
import type { PagentChatStrings } from '../i18n.js';
import type { UserContentPart } from '../../agent/content-parts.js';
import { rasterType, type RasterType } from '../../agent/raster-type.js';
import { displayName } from '../display-name.js';
import { imageObjectUrl } from './object-url.js';
import { attachmentStrings, fill as format, formatSize, FILE_OPEN } from './strings.js';
import type { AttachmentOptions, ChatAttachment } from './types.js';

/** Image types every provider preset that takes images accepts as they are. */
const SENT_AS_IS = new Set<RasterType>(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const TEXT_TYPES = /^(text\/|image\/svg\+xml|application\/(json|ld\+json|x-ndjson|xml|javascript|x-javascript|typescript|x-sh|x-yaml|yaml|toml|sql|x-python))/;
const TEXT_EXTENSIONS = new Set(
  ('md markdown txt text csv tsv json jsonl ndjson xml svg yaml yml toml ini cfg conf log html htm css scss js mjs cjs ts tsx jsx ' +
    'py rb go rs java kt kts c h cc cpp hpp cs php sh bash zsh sql swift lua r pl tex rst vue svelte dart scala').split(' '),
);

/** The text part that carries a text-like file, with its name (`&` and `"` escaped, newlines as spaces). */
export function fileTextPart(name: string, text: string): UserContentPart {
  const escaped = name.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/[\r\n]/g, ' ');
  return { type: 'text', text: `${FILE_OPEN}${escaped}">\n${text}\n</file>` };
}

const extension = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

/** True when `accept` (the `<input accept>` syntax: `.ext`, `type/*`, `type/subtype`) takes the file. */
export function accepts(file: Pick<File, 'name' | 'type'>, accept: string): boolean {
  const type = file.type.toLowerCase();
  const name = file.name.toLowerCase();
  return accept
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .some((t) => t !== '' && (t.startsWith('.') ? name.endsWith(t) : t.endsWith('/*') ? type.startsWith(t.slice(0, -1)) : type === t));
}

/** True for files sent as text: `text/*`, JSON, XML, SVG, YAML, scripts, or a known source/text extension. */
export function isTextLike(file: Pick<File, 'name' | 'type'>): boolean {
  return TEXT_TYPES.test(file.type.toLowerCase()) || TEXT_EXTENSIONS.has(extension(file.name));
}

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x6000) out += btoa(String.fromCharCode(...bytes.subarray(i, i + 0x6000)));
  return out;
}

/** The EXIF orientation (1–8) of a JPEG, or 1 when it has none. */
export function jpegOrientation(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.byteLength < 4 || view.getUint16(0) !== 0xffd8) return 1;
  let at = 2;
  while (at + 4 <= view.byteLength) {
    const marker = view.getUint16(at);
    const length = view.getUint16(at + 2);
    if (marker === 0xffe1 && at + 10 <= view.byteLength && view.getUint32(at + 4) === 0x45786966) {
      const tiff = at + 10;
      if (tiff + 8 > view.byteLength) return 1;
      const little = view.getUint16(tiff) === 0x4949;
      const ifd = tiff + view.getUint32(tiff + 4, little);
      if (ifd + 2 > view.byteLength) return 1;
      const entries = view.getUint16(ifd, little);
      for (let i = 0; i < entries; i++) {
        const entry = ifd + 2 + i * 12;
        if (entry + 12 > view.byteLength) return 1;
        if (view.getUint16(entry, little) === 0x0112) return view.getUint16(entry + 8, little);
      }
      return 1;
    }
    if ((marker & 0xff00) !== 0xff00 || marker === 0xffda) return 1;
    at += 2 + length;
  }
  return 1;
}

/** What {@link prepareImage} made: the part's data URL, the bytes sent and their pixel size. */
export interface PreparedImage {
  url: string;
  bytes: Uint8Array<ArrayBuffer>;
  width: number;
  height: number;
  scaled: boolean;
}

/**
 * The image as sent: the bytes themselves when they are a PNG, JPEG, WebP or GIF (`type`, from
 * {@link rasterType}) within `maxSide` whose pixels need no turning, else redrawn (EXIF orientation applied)
 * at most `maxSide` pixels on its longer side, as JPEG (quality 0.9) for a JPEG and PNG for anything else
 * (transparency kept).
 *
 * @throws when the browser cannot decode the image.
 */
export async function prepareImage(bytes: Uint8Array<ArrayBuffer>, type: RasterType | undefined, maxSide: number): Promise<PreparedImage> {
  const bitmap = await createImageBitmap(new Blob([bytes], { type: type ?? '' }), { imageOrientation: 'from-image' });
  try {
    const { width, height } = bitmap;
    const scale = Math.min(1, maxSide / Math.max(width, height));
    const turned = type === 'image/jpeg' && jpegOrientation(bytes) > 1;
    if (scale === 1 && type && SENT_AS_IS.has(type) && !turned) {
      return { url: `data:${type};base64,${base64(bytes)}`, bytes, width, height, scaled: false };
    }
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    const canvas = new OffscreenCanvas(w, h);
    const context = canvas.getContext('2d')!;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, w, h);
    const sentType = type === 'image/jpeg' ? 'image/jpeg' : 'image/png';
    const sent = new Uint8Array(await (await canvas.convertToBlob({ type: sentType, quality: 0.9 })).arrayBuffer());
    return { url: `data:${sentType};base64,${base64(sent)}`, bytes: sent, width: w, height: h, scaled: true };
  } finally {
    bitmap.close();
  }
}

const base64Bytes = (url: string): number => Math.floor(((url.length - url.indexOf(',') - 1) * 3) / 4);
const sentBytes = (part: UserContentPart): number =>
  part.type === 'text' ? new TextEncoder().encode(part.text).length : base64Bytes(part.type === 'image_url' ? part.image_url.url : part.file.file_data);

/** One file as an attachment. @throws when it cannot be read (or decoded, for images and text). */
async function prepareFile(file: File, options: AttachmentOptions): Promise<ChatAttachment> {
  const base = { name: file.name, type: file.type, size: file.size };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const raster = rasterType(bytes);
  if (raster || (file.type.startsWith('image/') && !isTextLike(file))) {
    const image = await prepareImage(bytes, raster, options.maxImageSide);
    const part: UserContentPart = { type: 'image_url', image_url: { url: image.url } };
    // the bubble shows the original when it is a raster image, else the PNG it was redrawn as
    return { ...base, kind: 'image', part, url: imageObjectUrl(raster ? bytes : image.bytes) };
  }
  if (isTextLike(file)) {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { ...base, kind: 'text', part: fileTextPart(file.name, text) };
  }
  const part: UserContentPart = { type: 'file', file: { filename: file.name, file_data: `data:${file.type || 'application/octet-stream'};base64,${base64(bytes)}` } };
  return { ...base, kind: 'file', part };
}

/**
 * Prepares files for the next message, after those already `pending`. Refused files are named in
 * `errors` (in the element's language); the accepted ones are returned in order.
 */
export async function prepareFiles(
  files: readonly File[],
  options: AttachmentOptions,
  pending: readonly ChatAttachment[],
  strings: PagentChatStrings,
  locale = 'en',
): Promise<{ attachments: ChatAttachment[]; errors: string[] }> {
  const s = attachmentStrings(locale, strings);
  const attachments: ChatAttachment[] = [];
  const errors: string[] = [];
  let total = pending.reduce((sum, a) => sum + sentBytes(a.part), 0);
  for (const file of files) {
    const values = { name: displayName(file.name), size: formatSize(file.size, locale), max: formatSize(options.maxAttachmentBytes, locale) };
    if (!accepts(file, options.accept)) {
      errors.push(format(s.attachmentUnsupported, values));
      continue;
    }
    if (file.size > options.maxAttachmentBytes) {
      errors.push(format(s.attachmentTooLarge, values));
      continue;
    }
    let attachment: ChatAttachment;
    try {
      attachment = await prepareFile(file, options);
    } catch {
      errors.push(format(s.attachmentUnreadable, values));
      continue;
    }
    const bytes = sentBytes(attachment.part);
    if (total + bytes > options.maxTotalAttachmentBytes) {
      if (attachment.url) URL.revokeObjectURL(attachment.url);
      errors.push(format(s.attachmentsTooLarge, { ...values, max: formatSize(options.maxTotalAttachmentBytes, locale) }));
      continue;
    }
    total += bytes;
    attachments.push(attachment);
  }
  return { attachments, errors };
}
