/**
 * The enlarged view of an image attachment: a modal `<dialog>` (focus moves into it, Escape and the close
 * button close it, a click outside the image too), labelled with the file's name (bidirectional controls
 * made visible); focus returns to the thumbnail that opened it. Only a raster image opens it.
 */
import { displayName } from '../display-name.js';
import type { AttachmentUi } from './state.js';
import { imageUrl } from './preview.js';
import { attachmentStrings } from './strings.js';
import type { ChatAttachment } from './types.js';

/** Opens `a` larger in a modal dialog inside `root`; resolves when it closes. */
export function openViewer(root: ShadowRoot, a: ChatAttachment, ui: AttachmentUi): Promise<void> {
  const url = imageUrl(a, ui);
  if (!url) return Promise.resolve();
  const s = attachmentStrings(ui.locale, ui.strings);
  const { html, render } = ui.lit;
  const name = displayName(a.name) || s.image;
  const opener = root.activeElement as HTMLElement | null;
  const dialog = document.createElement('dialog');
  dialog.className = 'viewer';
  dialog.setAttribute('part', 'viewer');
  dialog.setAttribute('aria-label', name);
  render(
    html`<figure class="viewer-figure">
        <img class="viewer-image" src=${url} alt=${name} />
        <figcaption class="viewer-caption"><bdi>${name}</bdi></figcaption>
      </figure>
      <button part="viewer-close" type="button" class="viewer-close" autofocus @click=${() => dialog.close()}>${s.closeViewer}</button>`,
    dialog,
  );
  // a click on the backdrop (the dialog itself, outside its content) closes it
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) dialog.close();
  });
  root.appendChild(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      opener?.focus();
      resolve();
    });
    dialog.showModal();
  });
}
