/** The attachment previews', chips' and viewer's styles: adopted by the shadow root when the chunk loads. */
import { createStyleAdopter } from '../adopt-styles.js';

const styles = `
  .drop-target {
    position: absolute; inset: 6px; z-index: 2; display: grid; place-items: center;
    border: 2px dashed var(--_accent); border-radius: var(--_radius);
    background: var(--_bg); color: var(--_accent); font-weight: 600; pointer-events: none;
  }
  .attachments-pending { display: grid; gap: 6px; flex: 1 1 100%; min-width: 0; }
  .attachment-list, .message-attachments { display: flex; flex-wrap: wrap; gap: 6px; margin: 0; padding: 0; list-style: none; }
  .message-attachments { justify-content: flex-end; margin-top: 6px; }
  .attachment-chip {
    display: inline-flex; align-items: center; gap: 6px; max-width: 100%; min-width: 0;
    padding: 4px 6px; border: 1px solid var(--_border); border-radius: var(--_radius);
    background: var(--_surface); color: var(--_text); font-size: 0.85em;
  }
  .attachment-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 16em; }
  .attachment-size { color: var(--_muted); white-space: nowrap; }
  .attachment-chip .thumb { width: 40px; height: 40px; }
  .thumb { display: block; width: 96px; height: 96px; object-fit: cover; border-radius: calc(var(--_radius) - 2px); }
  .thumb-button { padding: 0; border: 1px solid var(--_border); border-radius: var(--_radius); background: none; cursor: zoom-in; }
  .file-icon { font-size: 1.2em; line-height: 1; }
  .attachment-remove {
    display: inline-grid; place-items: center; width: 28px; height: 28px; padding: 0; font-size: 1.2em; line-height: 1;
    border: 0; border-radius: 50%; background: transparent; color: var(--_muted); cursor: pointer;
  }
  .attachment-remove:hover { background: var(--_border); color: var(--_text); }
  .thumb-button:focus-visible, .attachment-remove:focus-visible, .viewer-close:focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; }
  .viewer {
    max-width: min(96vw, 1200px); max-height: 94vh; padding: 12px; border: 1px solid var(--_border);
    border-radius: var(--_radius); background: var(--_bg); color: var(--_text);
  }
  .viewer::backdrop { background: rgb(0 0 0 / 0.7); }
  .viewer-figure { margin: 0; display: grid; gap: 8px; }
  .viewer-image { display: block; max-width: 100%; max-height: calc(94vh - 110px); margin: auto; object-fit: contain; }
  .viewer-caption { color: var(--_muted); font-size: 0.9em; overflow-wrap: anywhere; }
  .viewer-close { margin-top: 8px; float: right; }
`;

/** Adds the attachment styles to the element's shadow root (once). */
export const adoptStyles = createStyleAdopter(styles);
