/**
 * The conversation list's tools, loaded as a chunk of their own once the list shows: the search field and
 * its results (debounced; only the newest query updates the list), export of a conversation as Markdown or
 * JSON, and import of an exported file (picker or drop).
 */
import type { TemplateResult, html as litHtml, nothing as litNothing } from 'lit';
import type { ReactiveControllerHost } from 'lit';
import type { SessionSearchHit, SessionSearchOptions } from '../../store/session-search.js';
import { conversationToMarkdown } from '../../store/session-markdown.js';
import { formatByteSize } from '../byte-size.js';
import type { LocaleName, PagentChatStrings } from '../i18n.js';
import { conversationStrings, fill, markdownLabels, type ConversationStrings } from './strings.js';
import { displayName } from '../display-name.js';
import { download, fileNameFor } from './file-name.js';

/** The store calls the tools use; each is optional on the element's `store`. */
export interface ToolStore {
  search?(query: string, options?: SessionSearchOptions): Promise<SessionSearchHit[]>;
  export?(id: string): Promise<string>;
  import?(json: string): Promise<string>;
}

/** What the tools need from the element. */
export interface ToolsOwner {
  host: ReactiveControllerHost & HTMLElement;
  store(): ToolStore | undefined;
  strings(): PagentChatStrings;
  locale(): LocaleName;
  lit: { html: typeof litHtml; nothing: typeof litNothing };
  /** Opens a conversation, at the message `seq` when given. */
  open(id: string, seq: number | undefined): Promise<void>;
  /** The title shown for a conversation. */
  title(id: string): string;
  /** Reports a failure as a `pagent-error`. */
  error(err: unknown): void;
}

/** Largest file the import takes: 50 MiB. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
const DEBOUNCE_MS = 150;
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

export class ConversationTools {
  /** The query as typed; results show while it is not blank. */
  query = '';
  /** The newest query's hits (`undefined` until it has some, or while the query is blank). */
  hits: SessionSearchHit[] | undefined;
  /** The result chosen with the arrow keys (-1: none). */
  active = -1;
  /** The polite status line: results found, a file imported. */
  status = '';
  /** The last import's failure, in the reader's language. */
  importError = '';
  /** The conversation whose export formats are shown. */
  exportingId: string | undefined;
  dropping = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private searching: AbortController | undefined;
  /** True while a search reads the store (its results, or "Searching…", show when it is done). */
  busy = false;

  constructor(private readonly owner: ToolsOwner) {}

  private get s(): ConversationStrings {
    return conversationStrings(this.owner.locale(), this.owner.strings());
  }

  private update(): void {
    this.owner.host.requestUpdate();
  }

  private focusSoon(selector: string): void {
    void this.owner.host.updateComplete.then(() => this.owner.host.shadowRoot?.querySelector<HTMLElement>(selector)?.focus());
  }

  /** Sets the query: searches after a short pause; a newer query aborts an older one. */
  setQuery(query: string): void {
    this.query = query;
    clearTimeout(this.timer);
    this.searching?.abort();
    this.searching = undefined;
    if (query.trim() === '') {
      this.busy = false;
      this.hits = undefined;
      this.active = -1;
      this.status = '';
      this.update();
      return;
    }
    this.timer = setTimeout(() => void this.search(), DEBOUNCE_MS);
  }

  /** Runs the current query now (again, after a store change). */
  async search(): Promise<void> {
    const store = this.owner.store();
    if (!store?.search || this.query.trim() === '') return;
    this.searching?.abort();
    const controller = new AbortController();
    this.searching = controller;
    // a search that finds nothing reads every conversation: say that it is under way
    this.busy = true;
    this.update();
    try {
      const hits = await store.search(this.query, { signal: controller.signal });
      if (this.searching !== controller) return;
      this.busy = false;
      this.hits = hits;
      this.active = -1;
      const s = this.s;
      this.status = hits.length === 0 ? s.searchNone : hits.length === 1 ? s.searchFoundOne : fill(s.searchFound, { count: String(hits.length) });
      this.update();
    } catch (err) {
      if (this.searching === controller) {
        this.busy = false;
        this.update();
      }
      if (!controller.signal.aborted) this.owner.error(err);
    }
  }

  /** Stops a pending search (the element left the page). */
  stop(): void {
    clearTimeout(this.timer);
    this.searching?.abort();
  }

  private openHit(hit: SessionSearchHit): void {
    void this.owner.open(hit.id, hit.seq);
  }

  private onKey(e: KeyboardEvent): void {
    const hits = this.hits ?? [];
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (hits.length === 0) return;
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      this.active = this.active < 0 ? (step > 0 ? 0 : hits.length - 1) : (this.active + step + hits.length) % hits.length;
      this.update();
      void this.owner.host.updateComplete.then(() =>
        this.owner.host.shadowRoot?.getElementById(`conv-hit-${this.active}`)?.scrollIntoView({ block: 'nearest' }),
      );
    } else if (e.key === 'Enter' && !e.isComposing && e.keyCode !== 229) {
      const hit = hits[this.active] ?? (this.active < 0 ? hits[0] : undefined);
      if (!hit) return;
      e.preventDefault();
      this.openHit(hit);
    } else if (e.key === 'Escape' && this.query !== '') {
      e.preventDefault();
      (e.currentTarget as HTMLInputElement).value = '';
      this.setQuery('');
    }
  }

  /** The search field and the import button, over the list. */
  renderHeader(): TemplateResult {
    const { html, nothing } = this.owner.lit;
    const s = this.s;
    const store = this.owner.store();
    const open = this.hits !== undefined;
    return html`<div class="conv-tools">
        ${store?.search
          ? html`<input
              part="session-search"
              class="conv-search"
              type="search"
              role="combobox"
              aria-label=${s.searchConversations}
              placeholder=${s.searchConversations}
              aria-expanded=${open ? 'true' : 'false'}
              aria-controls="conv-results"
              aria-autocomplete="list"
              aria-activedescendant=${open && this.active >= 0 ? `conv-hit-${this.active}` : nothing}
              .value=${this.query}
              @input=${(e: InputEvent) => this.setQuery((e.currentTarget as HTMLInputElement).value)}
              @keydown=${(e: KeyboardEvent) => this.onKey(e)}
            />`
          : nothing}
        ${store?.import
          ? html`<button part="session-import" type="button" class="icon" aria-label=${s.importConversation} title=${s.importConversation}
                @click=${(e: Event) => ((e.currentTarget as HTMLElement).nextElementSibling as HTMLInputElement).click()}
              ><svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path d=${import16} /></svg></button
              ><input type="file" hidden accept=".json,application/json" @change=${(e: Event) => {
                const input = e.currentTarget as HTMLInputElement;
                const file = input.files?.[0];
                input.value = '';
                if (file) void this.importFile(file);
              }} />`
          : nothing}
      </div>
      ${this.importError ? html`<p part="session-import-error" class="conv-error" role="alert">${this.importError}</p>` : nothing}
      ${this.dropping ? html`<p class="conv-drop">${s.dropImport}</p>` : nothing}
      <div class="sr-only" role="status" aria-live="polite">${this.status}</div>`;
  }

  /** The snippet with its match in a `<mark>` (all bound as text). */
  private renderHit(hit: SessionSearchHit, i: number): TemplateResult {
    const { html, nothing } = this.owner.lit;
    const { before, match, after } = hit.snippet;
    const marked = html`${before}<mark>${match}</mark>${after}`;
    const title = displayName(hit.title || this.owner.strings().untitled);
    return html`<li
      part="search-hit"
      class="session search-hit"
      role="option"
      id=${`conv-hit-${i}`}
      data-session-id=${hit.id}
      aria-selected=${i === this.active ? 'true' : 'false'}
      @click=${() => this.openHit(hit)}
    >
      <span class="session-open">
        <span part="session-title" class="session-title">${hit.seq === undefined ? marked : title}</span>
        ${hit.seq === undefined ? nothing : html`<span part="search-snippet" class="search-snippet">${marked}</span>`}
      </span>
    </li>`;
  }

  /** The results in place of the list while a query is typed; `undefined` otherwise. */
  renderResults(): TemplateResult | undefined {
    const { html, nothing } = this.owner.lit;
    const progress = html`<p part="search-progress" class="sessions-empty">${this.s.searching}</p>`;
    if (this.hits === undefined) return this.busy ? progress : undefined;
    // the previous query's results stay (marked busy) until the new ones are in
    return html`${this.busy ? progress : nothing}<ul id="conv-results" role="listbox" aria-label=${this.s.searchConversations} aria-busy=${this.busy ? 'true' : 'false'}>
      ${this.hits.map((hit, i) => this.renderHit(hit, i))}
    </ul>${this.hits.length === 0 && !this.busy ? html`<p class="sessions-empty">${this.s.searchNone}</p>` : ''}`;
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
      this.status = fill(s.imported, { title: this.owner.title(id) });
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
