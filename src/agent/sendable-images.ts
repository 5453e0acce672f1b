/**
 * Images as a provider gets them. An `image_url` part whose `data:` URL holds no PNG, JPEG, GIF, WebP or
 * AVIF — an SVG, an HTML page or broken data, from an imported or old stored conversation or from the
 * caller's own parts — is sent as a text part saying so instead: never as an image, whatever its header
 * claims (providers refuse such data with an HTTP 400, which would stop the conversation at every
 * request). The stored conversation keeps the part as it is. Loaded on first use, by a request that
 * carries a `data:` image.
 */
import { dataUrlPayload } from './data-url.js';
import { RASTER_SNIFF_BYTES, rasterType } from './raster-type.js';
import type { UserContentPart } from './content-parts.js';
import type { ChatMessage } from './messages.js';

/** The text part sent in place of a `data:` image whose bytes are no raster image. */
export const IMAGE_NOT_SENT = '[image not sent: its data is not a PNG, JPEG, GIF, WebP or AVIF image]';

function sendable(part: UserContentPart): UserContentPart {
  if (part.type !== 'image_url' || !/^data:/i.test(part.image_url.url)) return part;
  const head = dataUrlPayload(part.image_url.url, RASTER_SNIFF_BYTES);
  return head && rasterType(head) ? part : { type: 'text', text: IMAGE_NOT_SENT };
}

/**
 * The messages with every `data:` image that is no raster image replaced by {@link IMAGE_NOT_SENT}; the
 * same message objects where nothing changes. Reads only the first bytes of each image.
 */
export function sendableImages(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.role !== 'user' || typeof m.content === 'string') return m;
    const content = m.content.map(sendable);
    return content.every((part, i) => part === m.content[i]) ? m : { ...m, content };
  });
}
