/**
 * The conversation list's tools, loaded as a chunk of their own once the list shows with a store that can
 * search, export or import: the search (./search.ts) and export and import (./export-import.ts) over the
 * list, sharing one polite status line.
 */
import type { TemplateResult, html as litHtml, nothing as litNothing, ReactiveControllerHost } from 'lit';
import type { SessionSearchHit, SessionSearchOptions } from '../../store/session-search.js';
import type { LocaleName, PagentChatStrings } from '../i18n.js';
import { ConversationTransfer } from './export-import.js';
import { ConversationSearch } from './search.js';

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

/** Search, export and import over the conversation list. */
export class ListTools {
  private readonly search: ConversationSearch;
  private readonly transfer: ConversationTransfer;
  /** The polite status line: results found, a file imported. */
  private status = '';

  constructor(private readonly owner: ToolsOwner) {
    const announce = (text: string): void => void (this.status = text);
    this.search = new ConversationSearch(owner, announce);
    this.transfer = new ConversationTransfer(owner, announce);
  }

  /** The newest query's hits, while a query is typed. */
  get hits(): SessionSearchHit[] | undefined {
    return this.search.hits;
  }

  /** True while an exported file is dragged over the list. */
  get dropping(): boolean {
    return this.transfer.dropping;
  }

  /** Runs the query again (the store changed). */
  searchAgain(): Promise<void> {
    return this.search.search();
  }

  /** Stops a pending search (the element left the page). */
  stop(): void {
    this.search.stop();
  }

  /** The search field and the import button, over the list, and the notes and status under them. */
  renderHeader(): TemplateResult {
    const { html } = this.owner.lit;
    return html`<div class="conv-tools">
        ${this.search.renderField()}
        ${this.transfer.renderImportButton()}
      </div>
      ${this.transfer.renderNotes()}
      <div class="sr-only" role="status" aria-live="polite">${this.status}</div>`;
  }

  /** The results in place of the list while a query is typed; `undefined` otherwise. */
  renderResults(): TemplateResult | undefined {
    return this.search.renderResults();
  }

  /** The export button of a row. */
  renderRowAction(id: string, title: string): TemplateResult | undefined {
    return this.transfer.renderRowAction(id, title);
  }

  /** The row's export choices while they are open; `undefined` otherwise. */
  renderExportChoice(id: string, title: string): TemplateResult | undefined {
    return this.transfer.renderExportChoice(id, title);
  }

  /** Drag and drop of an exported file onto the list. */
  onDrag(e: DragEvent): void {
    this.transfer.onDrag(e);
  }
}
