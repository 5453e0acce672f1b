/**
 * Keeps `<pagent-chat>`'s files panel in step with a workspace: lists its files, refreshes after every
 * write and delete, downloads and deletes on the user's request.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PagentChatStrings } from '../i18n.js';
import { lazyChunk } from '../lazy-chunk.js';
import type { FileView } from './panel.js';

/** The parts of a workspace the panel uses: `createWorkspace()` fits. */
export interface ChatWorkspace {
  files(): Promise<ReadonlyArray<{ path: string; size: number }>>;
  file(path: string): Promise<Blob>;
  delete(path: string): Promise<void>;
  subscribe?(listener: () => void): () => void;
}

/** The reactive controller behind the files panel. */
export class FilesController implements ReactiveController {
  private workspace: ChatWorkspace | undefined;
  private unsubscribe: (() => void) | undefined;
  private list: FileView[] = [];
  private reading = 0;
  /** The panel's renderer: a chunk loaded once a workspace is set. */
  private renderPanel: typeof import('./lazy.js').renderFilesPanel | undefined;
  private readonly loadPanel = lazyChunk(() =>
    import('./lazy.js').then((m) => {
      m.adoptFilesStyles((this.host as unknown as HTMLElement).shadowRoot);
      this.renderPanel = m.renderFilesPanel;
      this.host.requestUpdate();
    }),
  );

  constructor(
    private readonly host: ReactiveControllerHost & { readonly isConnected: boolean },
    private readonly onError: (err: unknown) => void,
  ) {
    host.addController(this);
  }

  /** Switches to another workspace (or none). */
  setWorkspace(workspace: ChatWorkspace | undefined): void {
    if (workspace === this.workspace) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.workspace = workspace;
    this.list = [];
    if (this.host.isConnected) this.hostConnected();
    this.host.requestUpdate();
  }

  hostConnected(): void {
    const ws = this.workspace;
    if (!ws) return;
    if (!this.unsubscribe && ws.subscribe) this.unsubscribe = ws.subscribe(() => void this.refresh());
    void this.refresh();
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Reads the file list again (only the newest read is shown). */
  async refresh(): Promise<void> {
    const ws = this.workspace;
    if (!ws) return;
    const ticket = ++this.reading;
    try {
      const files = await ws.files();
      if (ticket !== this.reading || ws !== this.workspace) return;
      this.list = files.map((f) => ({ path: f.path, size: f.size }));
      this.host.requestUpdate();
    } catch (err) {
      this.onError(err);
    }
  }

  private async download(path: string): Promise<void> {
    try {
      const blob = await this.workspace!.file(path);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = path.split('/').pop() ?? 'file';
      a.rel = 'noopener';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      this.onError(err);
    }
  }

  private async remove(path: string): Promise<void> {
    try {
      await this.workspace!.delete(path);
    } catch (err) {
      this.onError(err);
    }
    await this.refresh();
  }

  /** The panel, or nothing without a workspace (and until the panel's chunk has arrived). */
  render(strings: PagentChatStrings, locale: string) {
    if (!this.workspace) return undefined;
    const renderPanel = this.renderPanel;
    if (!renderPanel) {
      void this.loadPanel();
      return undefined;
    }
    return renderPanel(
      { strings, files: this.list, onDownload: (p) => void this.download(p), onDelete: (p) => void this.remove(p) },
      locale,
    );
  }
}
