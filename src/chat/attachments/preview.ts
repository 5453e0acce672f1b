/**
 * Renderers for attachments: the composer's previews of files waiting to be sent (thumbnail or file chip,
 * name, size, a remove button each) with the sentences about refused files, and the attachments of a
 * sent message (thumbnails that open larger, file chips). Names are untrusted: text bindings in `<bdi>`,
 * their bidirectional controls made visible. Only raster image bytes show as an image (see
 * `./object-url.ts`); any other "image" is a file chip.
 */
import type { TemplateResult } from 'lit';
import { displayName } from '../display-name.js';
import type { AttachmentUi } from './state.js';
import { attachmentStrings, fill, formatSize, FILE_OPEN } from './strings.js';
import type { ChatAttachment } from './types.js';

/** Decoded bytes of a base64 `data:` URL. */
const dataBytes = (url: string): number => Math.floor(((url.length - url.indexOf(',') - 1) * 3) / 4);

/** A stored attachment's name and size, read from its part (a text file's from its `<file name="…">` wrapper). */
export function describePart(a: ChatAttachment): { name: string; size: number } {
  if (a.name !== '') return { name: a.name, size: a.size };
  const part = a.part;
  if (part.type === 'file') return { name: part.file.filename, size: dataBytes(part.file.file_data) };
  if (part.type === 'image_url' && part.image_url.url.startsWith('data:')) return { name: '', size: dataBytes(part.image_url.url) };
  if (part.type === 'text') {
    const end = part.text.indexOf('">\n');
    if (end > 0 && part.text.endsWith('\n</file>')) {
      const name = part.text.slice(FILE_OPEN.length, end).replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      return { name, size: new TextEncoder().encode(part.text.slice(end + 3, -8)).length };
    }
  }
  return { name: '', size: 0 };
}

/** The name shown for an attachment (`image` for a pasted or stored image without one). */
const nameOf = (a: ChatAttachment, fallback: string): string => displayName(describePart(a).name) || fallback;

/**
 * A displayable URL for an image attachment: its own blob: URL, one made from its data when that is a
 * raster image, or an allowed https URL; else `undefined` (a file chip).
 */
function imageUrl(a: ChatAttachment, ui: AttachmentUi): string | undefined {
  if (a.part.type !== 'image_url') return undefined;
  const url = a.part.image_url.url;
  if (!url.startsWith('data:') && !a.url) {
    try {
      const parsed = new URL(url);
      return parsed.protocol === 'https:' && ui.allowImage?.(parsed) ? parsed.href : undefined;
    } catch {
      return undefined;
    }
  }
  return ui.url(a);
}

/** The files waiting to be sent, and what was refused. */
export function renderPreviews(pending: readonly ChatAttachment[], errors: readonly string[], ui: AttachmentUi): TemplateResult {
  const s = attachmentStrings(ui.locale, ui.strings);
  const { html, nothing } = ui.lit;
  const fileIcon = html`<span class="file-icon" aria-hidden="true">📄</span>`;
  return html`<div class="attachments-pending">
    ${pending.length > 0
      ? html`<ul part="attachment-previews" class="attachment-list" aria-label=${s.attachments}>
          ${pending.map((a, i) => {
            const name = nameOf(a, s.image);
            const url = a.kind === 'image' ? ui.url(a) : undefined;
            return html`<li part="attachment-preview" class="attachment-chip">
              ${url ? html`<img class="thumb" src=${url} alt="" />` : fileIcon}
              <span class="attachment-name"><bdi>${name}</bdi></span>
              <span class="attachment-size">${formatSize(a.size, ui.locale)}</span>
              <button part="attachment-remove" type="button" class="attachment-remove" aria-label=${fill(s.removeAttachment, { name })} @click=${() => ui.remove(i)}>×</button>
            </li>`;
          })}
        </ul>`
      : nothing}
    ${errors.length > 0
      ? html`<div part="attachment-error" class="attachment-error" role="alert">${errors.map((e) => html`<p>${e}</p>`)}</div>`
      : nothing}
  </div>`;
}

/** The attachments of a sent message, under its text. */
export function renderAttachments(list: readonly ChatAttachment[], ui: AttachmentUi): TemplateResult {
  const s = attachmentStrings(ui.locale, ui.strings);
  const { html, nothing } = ui.lit;
  const fileIcon = html`<span class="file-icon" aria-hidden="true">📄</span>`;
  return html`<ul part="message-attachments" class="message-attachments" aria-label=${s.attachments}>
    ${list.map((a) => {
      const name = nameOf(a, s.image);
      const url = a.kind === 'image' ? imageUrl(a, ui) : undefined;
      if (url) {
        return html`<li>
          <button part="attachment-thumb" type="button" class="thumb-button" aria-label=${fill(s.viewImage, { name })} @click=${() => ui.view(a)}>
            <img class="thumb" src=${url} alt=${name} />
          </button>
        </li>`;
      }
      const size = describePart(a).size;
      return html`<li part="attachment-chip" class="attachment-chip">
        ${fileIcon}<span class="attachment-name"><bdi>${name}</bdi></span>
        ${size > 0 ? html`<span class="attachment-size">${formatSize(size, ui.locale)}</span>` : nothing}
      </li>`;
    })}
  </ul>`;
}

export { imageUrl };
