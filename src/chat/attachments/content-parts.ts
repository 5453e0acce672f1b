/**
 * The user message of a send with attachments, and back: the typed text first, then one part per file.
 * A text-like file is a text part `<file name="…">\n…\n</file>`, so a stored conversation shows it as an
 * attachment again, not as typed text.
 */
import type { UserContentPart } from '../../agent/content-parts.js';
import type { ChatAttachment } from './types.js';

/** How a text-like file's part starts (`prepare.ts` writes it; `strings.ts` holds the same literal for the attachment chunk). */
export const FILE_OPEN = '<file name="';

/** The content a message with attachments is sent as: its text (when any), then the attachments' parts. */
export function messageParts(text: string, attachments: readonly ChatAttachment[]): UserContentPart[] {
  const parts: UserContentPart[] = text === '' ? [] : [{ type: 'text', text }];
  for (const a of attachments) parts.push(a.part);
  return parts;
}

/**
 * Splits stored content parts into the typed text and the attachments. Their names and sizes are left
 * empty: the attachment chunk reads them from the parts when it shows them.
 */
export function splitParts(parts: readonly UserContentPart[]): { text: string; attachments: ChatAttachment[] } {
  const texts: string[] = [];
  const attachments: ChatAttachment[] = [];
  for (const part of parts) {
    if (part.type === 'text' && !part.text.startsWith(FILE_OPEN)) texts.push(part.text);
    else attachments.push({ name: '', type: '', size: 0, kind: part.type === 'text' ? 'text' : part.type === 'image_url' ? 'image' : 'file', part });
  }
  return { text: texts.join('\n'), attachments };
}
