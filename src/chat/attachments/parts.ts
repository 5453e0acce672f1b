/**
 * The user message of a send with attachments, and back: the typed text first, then one part per file.
 * A text-like file is a text part `<file name="…">\n…\n</file>`, so a stored conversation shows it as an
 * attachment again, not as typed text.
 */
import type { UserContentPart } from '../../agent/content-parts.js';
import type { ChatAttachment } from './types.js';

/** How a text-like file's part starts (`prepare.ts` writes it). */
export const FILE_OPEN = '<file name="';

const unescapeName = (name: string): string => name.replace(/&quot;/g, '"').replace(/&amp;/g, '&');

/** The content a message with attachments is sent as: its text (when any), then the attachments' parts. */
export function messageParts(text: string, attachments: readonly ChatAttachment[]): UserContentPart[] {
  const parts: UserContentPart[] = text === '' ? [] : [{ type: 'text', text }];
  for (const a of attachments) parts.push(a.part);
  return parts;
}

/** Splits stored content parts into the typed text and the attachments (without display URLs). */
export function splitParts(parts: readonly UserContentPart[]): { text: string; attachments: ChatAttachment[] } {
  const texts: string[] = [];
  const attachments: ChatAttachment[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      const end = part.text.indexOf('">\n');
      if (part.text.startsWith(FILE_OPEN) && end > 0 && part.text.endsWith('\n</file>')) {
        const body = part.text.slice(end + 3, -8);
        attachments.push({ name: unescapeName(part.text.slice(FILE_OPEN.length, end)), type: 'text/plain', size: body.length, kind: 'text', part });
      } else texts.push(part.text);
    } else if (part.type === 'image_url') {
      attachments.push({ name: '', type: '', size: 0, kind: 'image', part });
    } else {
      attachments.push({ name: part.file.filename, type: '', size: 0, kind: 'file', part });
    }
  }
  return { text: texts.join('\n'), attachments };
}
