/** `blob:` URLs for attachments read back from a stored conversation (their data is a `data:` URL). */
import type { ChatAttachment } from './types.js';

/** A new `blob:` URL holding the image's data, or `undefined` when it has no `data:` URL. The caller revokes it. */
export function objectUrl(a: ChatAttachment): string | undefined {
  if (a.part.type !== 'image_url') return undefined;
  const url = a.part.image_url.url;
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0 || !url.slice(0, comma).endsWith(';base64')) return undefined;
  try {
    const binary = atob(url.slice(comma + 1));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return URL.createObjectURL(new Blob([bytes], { type: url.slice(5, comma - 7) }));
  } catch {
    return undefined;
  }
}
