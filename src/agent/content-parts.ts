/**
 * Multimodal user input (docs/architecture.md#multimodal-user-input): OpenAI's chat content parts, sent to the provider as they are.
 * Helpers here turn parts into the text a run reports (`RunBegin.user_input`), a transcript line for
 * summaries (never the base64 data) and a token estimate (an image is a fixed estimate, not its base64).
 */
import type { ChatMessage } from './messages.js';

/** A text part. */
export interface TextContentPart {
  type: 'text';
  text: string;
}
/** An image, as a `data:` URL (local files) or an `https:` URL. */
export interface ImageContentPart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}
/** A file (a PDF, …) as a `data:` URL with its name. */
export interface FileContentPart {
  type: 'file';
  file: { filename: string; file_data: string };
}

/** One part of a user message in OpenAI's chat format. */
export type UserContentPart = TextContentPart | ImageContentPart | FileContentPart;

/** What a run takes as the user's input: plain text or content parts. */
export type UserInput = string | readonly UserContentPart[];

/**
 * Tokens an image counts for in budgets: OpenAI's figure for a 1024×1024 image at `detail: "high"`
 * (85 base + 4 tiles × 170). A `detail: "low"` image counts {@link IMAGE_TOKENS_LOW}.
 */
export const IMAGE_TOKENS = 765;
/** Tokens a `detail: "low"` image counts for (OpenAI's fixed figure). */
export const IMAGE_TOKENS_LOW = 85;
/** A file part counts one token per this many bytes of its decoded data (and at least {@link IMAGE_TOKENS_LOW}). */
export const FILE_BYTES_PER_TOKEN = 16;

/** The text parts of an input joined with `"\n"` (`RunBegin.user_input`); a string is returned as is. */
export function inputText(input: UserInput): string {
  if (typeof input === 'string') return input;
  const texts: string[] = [];
  for (const part of input) if (part.type === 'text') texts.push(part.text);
  return texts.join('\n');
}

/** True when a user message holds an image given as a `data:` URL (see {@link sendableMessages}). */
export function hasDataImage(messages: readonly ChatMessage[]): boolean {
  return messages.some(
    (m) => m.role === 'user' && typeof m.content !== 'string' && m.content.some((part) => part.type === 'image_url' && /^data:/i.test(part.image_url.url)),
  );
}

/**
 * The messages as a request may carry them: a `data:` image whose bytes are no PNG, JPEG, GIF, WebP or
 * AVIF becomes a text part saying it was not sent (see `sendable-images.ts`, loaded only when a message
 * holds a `data:` image). The same array when there is none.
 */
export async function sendableMessages<T extends readonly ChatMessage[]>(messages: T): Promise<T | ChatMessage[]> {
  if (!hasDataImage(messages)) return messages;
  return (await import('./sendable-images.js')).sendableImages(messages);
}

/** Decoded byte size of a `data:` URL's payload (0 for other URLs), computed without decoding it. */
export function dataUrlBytes(url: string): number {
  if (!url.startsWith('data:')) return 0;
  const comma = url.indexOf(',');
  if (comma < 0) return 0;
  const header = url.slice(0, comma);
  const payload = url.length - comma - 1;
  if (!header.endsWith(';base64')) return payload;
  const padding = url.endsWith('==') ? 2 : url.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((payload * 3) / 4) - padding);
}

/** Estimated tokens of content parts: text through `count`, images and files by the constants above. */
export function partsTokens(parts: readonly UserContentPart[], count: (text: string) => number): number {
  let tokens = 0;
  for (const part of parts) {
    if (part.type === 'text') tokens += count(part.text);
    else if (part.type === 'image_url') tokens += part.image_url.detail === 'low' ? IMAGE_TOKENS_LOW : IMAGE_TOKENS;
    else tokens += count(part.file.filename) + Math.max(IMAGE_TOKENS_LOW, Math.ceil(dataUrlBytes(part.file.file_data) / FILE_BYTES_PER_TOKEN));
  }
  return tokens;
}

/**
 * The parts as plain text for a summary or a title: text parts as they are, `[image]` for an image and
 * `[file <name>]` for a file. Never includes URLs or base64 data.
 */
export function partsTranscript(content: string | readonly UserContentPart[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => (part.type === 'text' ? part.text : part.type === 'image_url' ? '[image]' : `[file ${part.file.filename}]`))
    .join('\n');
}

/** Says what is wrong with a content part list, or `undefined` when it is valid. */
export function partsProblem(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return 'content is not a string or an array of parts';
  for (let i = 0; i < parts.length; i++) {
    const p: unknown = parts[i];
    const bad = `content part ${i}`;
    if (typeof p !== 'object' || p === null) return `${bad} is not an object`;
    const part = p as Record<string, unknown>;
    if (part.type === 'text') {
      if (typeof part.text !== 'string') return `${bad} has no string text`;
    } else if (part.type === 'image_url') {
      const image = part.image_url as Record<string, unknown> | null | undefined;
      if (typeof image !== 'object' || image === null || typeof image.url !== 'string') return `${bad} has no image_url.url`;
    } else if (part.type === 'file') {
      const file = part.file as Record<string, unknown> | null | undefined;
      if (typeof file !== 'object' || file === null || typeof file.filename !== 'string' || typeof file.file_data !== 'string') {
        return `${bad} has no file {filename, file_data}`;
      }
    } else {
      return `${bad} has an unknown type`;
    }
  }
  return undefined;
}
