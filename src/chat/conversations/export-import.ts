/**
 * Export and import of conversations (in the list's tools chunk): a row's export as Markdown or as the
 * store's JSON (after a cancelable `pagent-export`), and the import of an exported file, picked or dropped
 * on the list; a bad file writes nothing and says why, in the reader's language.
 */
import type { TemplateResult } from 'lit';
import { conversationToMarkdown } from '../../store/session-markdown.js';
import { formatByteSize } from '../byte-size.js';
import { conversationStrings, fill, markdownLabels, type ConversationStrings } from './strings.js';
import { download, fileNameFor } from './file-name.js';
import type { ToolsOwner } from './list-tools.js';

/** Largest file the import takes: 50 MiB. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
const download16 = 'M8 2.5v8M4.8 7.5 8 10.7l3.2-3.2M3 13.5h10';
const import16 = 'M8 13.5v-8M4.8 8.5 8 5.3l3.2 3.2M3 2.5h10';

/** The import failure's sentence, worked out from the file's text once the store refused it. */
function importProblem(text: string, s: ConversationStrings): string {
  let parsed: unknown;
  try {
    // as the store reads it: one byte-order mark first is not part of the JSON
    parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    return s.importNotJson;
  }
  const f = parsed as { format?: unknown; version?: unknown; session?: { version?: unknown } } | null;
  if (typeof f !== 'object' || f === null || f.format !== 'pagent-web/session') return s.importWrongFormat;
  if ((f.version !== 1 && f.version !== 2) || (typeof f.session === 'object' && f.session !== null && f.session.version !== 1)) return s.importWrongVersion;
  return s.importInvalid;
}

/** Export and import of the stored conversations. */
export class ConversationTransfer {
  /** The last import's failure, in the reader's language. */
  importError = '';
  /** The conversation whose export formats are shown. */
  exportingId: string | undefined;
  /** True while an exported file is dragged over the list. */
  dropping = false;

  /** `announce` says politely that a file was imported. */
  constructor(
    private readonly owner: ToolsOwner,
    private readonly announce: (text: string) => void,
  ) {}

  private get s(): ConversationStrings {
    return conversationStrings(this.owner.locale(), this.owner.strings());
  }

  private update(): void {
    this.owner.host.requestUpdate();
  }

  private focusSoon(selector: string): void {
    void this.owner.host.updateComplete.then(() => this.owner.host.shadowRoot?.querySelector<HTMLElement>(selector)?.focus());
  }

  /** The import button over the list, with its hidden file picker (nothing when the store cannot import). */
  renderImportButton(): unknown {
    const { html, nothing } = this.owner.lit;
    const s = this.s;
    return this.owner.store()?.import
      ? html`<button part="session-import" type="button" class="icon" aria-label=${s.importConversation} title=${s.importConversation}
          @click=${(e: Event) => ((e.currentTarget as HTMLElement).nextElementSibling as HTMLInputElement).click()}
        ><svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path d=${import16} /></svg></button
        ><input type="file" hidden accept=".json,application/json" @change=${(e: Event) => {
          const input = e.currentTarget as HTMLInputElement;
          const file = input.files?.[0];
          input.value = '';
          if (file) void this.importFile(file);
        }} />`
      : nothing;
  }

  /** The last import's failure and the drop hint, under the list's header. */
  renderNotes(): TemplateResult {
    const { html, nothing } = this.owner.lit;
    return html`${this.importError ? html`<p part="session-import-error" class="conv-error" role="alert">${this.importError}</p>` : nothing}
      ${this.dropping ? html`<p class="conv-drop">${this.s.dropImport}</p>` : nothing}`;
  }

  /** The export button of a row. */
  renderRowAction(id: string, title: string): TemplateResult | undefined {
    if (!this.owner.store()?.export) return undefined;
    const { html } = this.owner.lit;
    const label = fill(this.s.exportConversation, { title });
    return html`<button part="session-export" type="button" class="icon" aria-label=${label} title=${label}
      @click=${() => {
        this.exportingId = id;
        this.update();
        this.focusSoon(`[data-session-id="${CSS.escape(id)}"] [part="session-export-markdown"]`);
      }}
    ><svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path d=${download16} /></svg></button>`;
  }

  /** The row's export choices while they are open; `undefined` otherwise. */
  renderExportChoice(id: string, title: string): TemplateResult | undefined {
    if (this.exportingId !== id) return undefined;
    const { html } = this.owner.lit;
    const s = this.s;
    const close = (): void => {
      this.exportingId = undefined;
      this.update();
      this.focusSoon(`[data-session-id="${CSS.escape(id)}"] [part="session-export"]`);
    };
    return html`<div part="session-export-choice" class="session-confirm" role="group" aria-label=${fill(s.exportConversation, { title })}
      @keydown=${(e: KeyboardEvent) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        close();
      }}
    >
      <span class="session-confirm-text">${s.exportAs}</span>
      <span class="session-confirm-actions">
        <button part="session-export-markdown" type="button" @click=${() => void this.exportAs(id, 'markdown').then(close)}>${s.exportMarkdown}</button>
        <button part="session-export-json" type="button" @click=${() => void this.exportAs(id, 'json').then(close)}>${s.exportJson}</button>
        <button part="session-export-cancel" type="button" class="secondary" @click=${close}>${this.owner.strings().cancel}</button>
      </span>
    </div>`;
  }

  /** Downloads a conversation as Markdown or as `store.export(id)`'s JSON, after a cancelable `pagent-export`. */
  async exportAs(id: string, format: 'markdown' | 'json'): Promise<void> {
    const store = this.owner.store();
    if (!store?.export) return;
    try {
      const json = await store.export(id);
      const title = this.owner.title(id);
      const markdown = format === 'markdown';
      const fileName = fileNameFor(title, markdown ? 'md' : 'json');
      const text = markdown
        ? conversationToMarkdown(JSON.parse(json), { labels: markdownLabels(this.owner.locale(), this.owner.strings()) })
        : json;
      const detail = { id, format, fileName, text };
      const event = new CustomEvent('pagent-export', { detail, bubbles: true, composed: true, cancelable: true });
      if (this.owner.host.dispatchEvent(event)) {
        download(text, fileName, markdown ? 'text/markdown;charset=utf-8' : 'application/json', this.owner.host.shadowRoot ?? undefined);
      }
    } catch (err) {
      this.owner.error(err);
    }
  }

  /** Imports an exported file and opens it; a bad file writes nothing and says why. */
  async importFile(file: File): Promise<void> {
    const store = this.owner.store();
    if (!store?.import) return;
    const s = this.s;
    const locale = this.owner.locale();
    this.importError = '';
    this.update();
    if (file.size > MAX_IMPORT_BYTES) {
      this.importError = fill(s.importTooLarge, { name: file.name, size: formatByteSize(file.size, locale), max: formatByteSize(MAX_IMPORT_BYTES, locale) });
      this.update();
      return;
    }
    let text = '';
    try {
      text = await file.text();
      const id = await store.import(text);
      this.owner.host.dispatchEvent(new CustomEvent('pagent-import', { detail: { id, fileName: file.name }, bubbles: true, composed: true }));
      await this.owner.open(id, undefined);
      this.announce(fill(s.imported, { title: this.owner.title(id) }));
    } catch (err) {
      const invalid = (err as { reason?: unknown } | null)?.reason === 'invalid';
      this.importError = fill(invalid ? importProblem(text, s) : s.importFailed, { name: file.name });
    }
    this.update();
  }

  /** Drag and drop of an exported file onto the list (kept from the composer's attachment drop). */
  onDrag(e: DragEvent): void {
    if (!e.dataTransfer?.types.includes('Files') || !this.owner.store()?.import) return;
    e.preventDefault();
    e.stopPropagation();
    const inside = e.type === 'dragleave' && e.relatedTarget instanceof Node && (e.currentTarget as Node).contains(e.relatedTarget);
    const dropping = e.type === 'dragenter' || e.type === 'dragover' || inside;
    if (dropping !== this.dropping) {
      this.dropping = dropping;
      this.update();
    }
    const file = e.type === 'drop' ? e.dataTransfer.files[0] : undefined;
    if (file) void this.importFile(file);
  }
}
