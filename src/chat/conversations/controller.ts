/**
 * Keeps `<pagent-chat>`'s list of stored conversations in step with a session store: lists them,
 * reopens, renames and deletes, and refreshes on every store change (also from other tabs).
 */
import type { ReactiveController, ReactiveControllerHost, html, nothing } from 'lit';
import type { ChatMessage } from '../../agent/messages.js';
import type { InterruptedTurn } from '../../store/turn-pieces.js';
import type { SessionSearchHit, SessionSearchOptions } from '../../store/session-search.js';
import type { LocaleName, PagentChatStrings } from '../i18n.js';
import type { ListTools } from './list-tools.js';
import { lazyChunk } from '../lazy-chunk.js';
import type { ConversationSummaryView } from './list.js';

/** The parts of a session store the element uses: `createSessionStore()` fits. */
export interface ChatStore {
  list(): Promise<readonly ConversationSummaryView[]>;
  /** `seqs` (a tree store): each message's record number, to find a search hit's message on the path. */
  load(id: string): Promise<{ readonly messages: readonly ChatMessage[]; readonly seqs?: readonly number[] } | undefined>;
  rename(id: string, title: string): Promise<unknown>;
  delete(id: string): Promise<unknown>;
  /** Optional: change notifications (what changed, and whether another tab changed it); returns the unsubscribe function. */
  subscribe?(listener: (change?: { type: string; id?: string; remote?: boolean }) => void): () => void;
  /** Optional: shows a search field over the list. */
  search?(query: string, options?: SessionSearchOptions): Promise<SessionSearchHit[]>;
  /** Optional: shows an export button on each row (Markdown or this JSON). */
  export?(id: string): Promise<string>;
  /** Optional: shows an import button (and takes a dropped file) for files `export` wrote. */
  import?(json: string): Promise<string>;
  /** Optional (a tree store): makes the version holding message `seq` the conversation's active path. */
  switchBranch?(id: string, seq: number): Promise<unknown>;
  /** Optional: the turn a run left in flight (a reload cut it); shown interrupted, with Continue. */
  loadTurn?(id: string): Promise<InterruptedTurn | undefined>;
}

/** Callbacks of {@link ConversationController}. */
export interface ConversationControllerOptions {
  /**
   * A conversation was opened: from the list (`fromList`), or by {@link ConversationController.open} otherwise;
   * `refresh`: the one shown, again, after another tab changed it.
   */
  onOpen(id: string, messages: readonly ChatMessage[], fromList: boolean, refresh?: boolean): void;
  /** The open conversation is being deleted: the store deletes it once this settles. */
  onDelete(id: string): void | Promise<void>;
  /** A conversation could not be opened (e.g. another tab blocks the database). */
  onOpenError(id: string, err: unknown): void;
  onError(err: unknown): void;
  /** Another tab switched the version of, or added to, the conversation shown. */
  onRemoteChange?(id: string): void;
  /** Another tab deleted the conversation shown (or cleared the store). */
  onRemoteDelete?(id: string): void;
  /**
   * Shows one message of the conversation just opened (a search hit): once the host has rendered it,
   * it stops following the newest message and calls `show` with its timeline.
   */
  onReveal(show: (timeline: ParentNode) => void): void;
  /** Lit's `html` and `nothing`, handed to the lazily loaded tools so their chunk carries no Lit of its own. */
  lit: { html: typeof html; nothing: typeof nothing };
}

/** Whether a store offers what the conversation tools chunk works with (search, export, import). */
const hasTools = (store: ChatStore): boolean => Boolean(store.search || store.export || store.import);

/** The reactive controller behind the conversation list. */
export class ConversationController implements ReactiveController {
  private store: ChatStore | undefined;
  private unsubscribe: (() => void) | undefined;
  private conversations: readonly ConversationSummaryView[] = [];
  private editingId: string | undefined;
  private confirmingId: string | undefined;
  /** Where keyboard focus goes after the next render (a row's button), so it never drops to <body>. */
  private focusTarget: { id: string; part: string } | undefined;
  /** The conversation shown, if it came from the store. */
  openId: string | undefined;
  /** The messages of the conversation last opened, and their record numbers when the store gives them. */
  private shown: readonly ChatMessage[] = [];
  private shownSeqs: readonly number[] | undefined;
  /** The list's renderer: a chunk loaded once a store is set (an element without a store never fetches it). */
  private renderList: typeof import('./list-lazy.js').renderConversationList | undefined;
  /** Search, export and import: a chunk loaded once a store is set. */
  private tools: ListTools | undefined;
  private reveal: typeof import('./lazy.js').revealMessage | undefined;
  private strings: PagentChatStrings | undefined;
  private locale: LocaleName = 'en';

  constructor(
    private readonly host: ReactiveControllerHost & { readonly isConnected: boolean; readonly renderRoot: HTMLElement | DocumentFragment },
    private readonly options: ConversationControllerOptions,
  ) {
    host.addController(this);
  }

  /** Switches to another store (or none). */
  setStore(store: ChatStore | undefined): void {
    if (store === this.store) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.store = store;
    this.conversations = [];
    if (this.host.isConnected) this.hostConnected();
  }

  hostConnected(): void {
    const store = this.store;
    if (!store) return;
    if (hasTools(store)) void this.loadTools();
    if (!this.unsubscribe && store.subscribe) {
      this.unsubscribe = store.subscribe((change) => {
        void this.refresh();
        const id = change?.id;
        const open = this.openId;
        if (!change?.remote || open === undefined) return;
        if (id === open && (change.type === 'branch' || change.type === 'append')) this.options.onRemoteChange?.(open);
        // (the list as it was before this change: it holds the conversation shown if that was stored)
        else if ((change.type === 'clear' || (change.type === 'delete' && id === open)) && this.conversations.some((x) => x.id === open)) {
          this.options.onRemoteDelete?.(open);
        }
      });
    }
    void this.refresh();
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.tools?.stop();
  }

  /**
   * Loads the list's chunk once; the host renders again when it arrives. A failed fetch is tried again by a
   * later render (see ../lazy-chunk.ts).
   */
  private readonly loadList = lazyChunk(() =>
    import('./list-lazy.js').then((m) => {
      m.adoptListStyles((this.host as unknown as HTMLElement).shadowRoot);
      this.renderList = m.renderConversationList;
      this.host.requestUpdate();
    }),
  );

  /**
   * Loads the search / export / import chunk once; the host renders again when it arrives. A failed fetch
   * is tried again by a later render (see ../lazy-chunk.ts); the list works without the chunk meanwhile.
   */
  readonly loadTools = lazyChunk(() =>
    import('./lazy.js').then((m) => {
      const host = this.host as unknown as ReactiveControllerHost & HTMLElement;
      m.adoptStyles(host.shadowRoot);
      this.reveal = m.revealMessage;
      this.tools = new m.ListTools({
        host,
        store: () => this.store,
        strings: () => this.strings!,
        locale: () => this.locale,
        lit: this.options.lit,
        open: async (id, seq) => {
          if (seq !== undefined) return this.openAtMessage(id, seq);
          await this.refresh();
          return this.open(id, true);
        },
        title: (id) => this.conversations.find((x) => x.id === id)?.title || (this.strings?.untitled ?? ''),
        error: (err) => this.options.onError(err),
      });
      this.host.requestUpdate();
    }),
  );

  /** Reads the list again. */
  async refresh(): Promise<void> {
    const store = this.store;
    if (!store) return;
    try {
      this.conversations = await store.list();
      this.host.requestUpdate();
      if (this.tools?.hits) void this.tools.searchAgain();
    } catch (err) {
      this.options.onError(err);
    }
  }

  private opening: Promise<void> | undefined;

  /** The open in flight, if any: settles once its conversation is shown (or failed to load). */
  get pending(): Promise<void> | undefined {
    return this.opening;
  }

  /**
   * Loads a stored conversation and hands it to `onOpen` (an unknown id opens as empty). With `wanted`,
   * the loaded conversation is shown only if `wanted()` still says so once it has loaded.
   */
  open(id: string, fromList = false, refresh = false, wanted?: () => boolean): Promise<void> {
    const opening = this.load(id, fromList, refresh, wanted);
    this.opening = opening;
    void opening.finally(() => {
      if (this.opening === opening) this.opening = undefined;
    });
    return opening;
  }

  private async load(id: string, fromList: boolean, refresh: boolean, wanted?: () => boolean): Promise<void> {
    try {
      const session = await this.store?.load(id);
      if (wanted && !wanted()) return;
      this.openId = id;
      this.shown = session?.messages ?? [];
      this.shownSeqs = session?.seqs;
      this.options.onOpen(id, this.shown, fromList, refresh);
    } catch (err) {
      this.options.onOpenError(id, err);
    }
  }

  /**
   * Opens a stored conversation at one of its messages (a search hit's `seq`), then has the host scroll
   * it into view and mark it. A hit in another version of the conversation (a branch not shown) makes
   * that version the active path first, as the version switcher would, so what is shown is what the agent
   * continues. A store without `seqs` numbers its messages `0 .. n-1` along the conversation.
   */
  async openAtMessage(id: string, seq: number): Promise<void> {
    const store = this.store;
    if (store?.switchBranch) {
      try {
        await store.switchBranch(id, seq);
      } catch {
        // the message is gone (deleted meanwhile): open the conversation as it is
      }
    }
    await this.open(id, true);
    if (this.openId !== id) return;
    const index = this.shownSeqs ? this.shownSeqs.indexOf(seq) : seq;
    if (index < 0) return;
    const messages = this.shown;
    this.options.onReveal((timeline) => this.reveal?.(timeline, messages, index));
  }

  hostUpdated(): void {
    const target = this.focusTarget;
    if (!target) return;
    this.focusTarget = undefined;
    const row = [...this.host.renderRoot.querySelectorAll<HTMLElement>('[part="session"]')].find((r) => r.dataset['sessionId'] === target.id);
    row?.querySelector<HTMLElement>(`[part="${target.part}"]`)?.focus();
  }

  private focusAfterRender(id: string, part: string): void {
    this.focusTarget = { id, part };
    this.host.requestUpdate();
  }

  /** Commits the title field once (Enter, or leaving the field); a cancelled or finished rename is ignored. */
  private async rename(id: string, title: string, byKey: boolean): Promise<void> {
    if (this.editingId !== id) return;
    this.editingId = undefined;
    if (byKey) this.focusAfterRender(id, 'session-rename');
    else this.host.requestUpdate();
    const current = this.conversations.find((x) => x.id === id)?.title ?? '';
    if (title.trim() === '' || title === current) return;
    try {
      await this.store?.rename(id, title);
    } catch (err) {
      this.options.onError(err);
    }
    await this.refresh();
  }

  private async remove(id: string): Promise<void> {
    this.confirmingId = undefined;
    // keyboard focus moves to the next conversation (or the previous one) once this one is gone
    const at = this.conversations.findIndex((x) => x.id === id);
    const neighbour = this.conversations[at + 1] ?? this.conversations[at - 1];
    try {
      if (this.openId === id) {
        this.openId = undefined;
        await this.options.onDelete(id);
      }
      await this.store?.delete(id);
    } catch (err) {
      this.options.onError(err);
    }
    await this.refresh();
    if (neighbour && this.conversations.some((x) => x.id === neighbour.id)) this.focusAfterRender(neighbour.id, 'session-open');
  }

  /** The list, or nothing without a store (and until the list's chunk has arrived). */
  render(strings: PagentChatStrings, locale: LocaleName) {
    if (!this.store) return undefined;
    this.strings = strings;
    this.locale = locale;
    const tools = this.tools;
    if (!tools && hasTools(this.store)) void this.loadTools();
    const renderList = this.renderList;
    if (!renderList) {
      void this.loadList();
      return undefined;
    }
    return renderList({
      tools: tools && {
        header: tools.renderHeader(),
        results: tools.renderResults(),
        dropping: tools.dropping,
        hasExport: Boolean(this.store.export),
        rowAction: (id, title) => tools.renderRowAction(id, title),
        rowOverride: (id, title) => tools.renderExportChoice(id, title),
        onDrag: (e) => tools.onDrag(e),
      },
      strings,
      locale,
      conversations: this.conversations,
      currentId: this.openId,
      editingId: this.editingId,
      confirmingId: this.confirmingId,
      onOpen: (id) => void this.open(id, true),
      onStartRename: (id) => {
        this.confirmingId = undefined;
        this.editingId = id;
        this.host.requestUpdate();
      },
      onRename: (id, title, byKey) => void this.rename(id, title, byKey),
      onCancelRename: (id) => {
        if (this.editingId !== id) return;
        this.editingId = undefined;
        this.focusAfterRender(id, 'session-rename');
      },
      onAskDelete: (id) => {
        this.editingId = undefined;
        this.confirmingId = id;
        this.focusAfterRender(id, 'session-delete-cancel');
      },
      onCancelDelete: (id) => {
        this.confirmingId = undefined;
        this.focusAfterRender(id, 'session-delete');
      },
      onDelete: (id) => void this.remove(id),
    });
  }
}
