/** Renderer for the files panel: the workspace's files with download and delete buttons. */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { displayName } from '../display-name.js';
import type { PagentChatStrings } from '../i18n.js';
import { formatByteSize } from '../byte-size.js';

/** One file as the panel shows it. */
export interface FileView {
  path: string;
  size: number;
}

/** What the files panel shows and calls. */
export interface FilesPanelView {
  readonly strings: PagentChatStrings;
  readonly files: readonly FileView[];
  readonly onDownload: (path: string) => void;
  readonly onDelete: (path: string) => void;
}

/**
 * The panel: a disclosure with one row per file (file names are shown as text, never as markup, their
 * bidirectional controls made visible).
 */
export function renderFilesPanel(view: FilesPanelView, locale: string): TemplateResult {
  const s = view.strings;
  // Open once there are files: an empty workspace takes one line.
  return html`<details part="files" class="files" ?open=${view.files.length > 0}>
    <summary part="files-summary">${s.files} (${view.files.length})</summary>
    ${view.files.length === 0
      ? html`<p class="files-empty">${s.filesEmpty}</p>`
      : html`<ul class="files-list" aria-label=${s.files}>
          ${repeat(view.files, (f) => f.path, (f) => {
            const name = displayName(f.path);
            return html`<li part="file" class="file">
            <span class="file-path" title=${name}>${name}</span>
            <span class="file-size">${formatByteSize(f.size, locale)}</span>
            <button part="file-download" type="button" class="secondary icon" aria-label=${s.downloadFile.replace('{name}', name)} title=${s.downloadFile.replace('{name}', name)} @click=${() => view.onDownload(f.path)}>↓</button>
            <button part="file-delete" type="button" class="secondary icon" aria-label=${s.deleteFile.replace('{name}', name)} title=${s.deleteFile.replace('{name}', name)} @click=${() => view.onDelete(f.path)}>✕</button>
          </li>`;
          })}
        </ul>`}
  </details>${nothing}`;
}
