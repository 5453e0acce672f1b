/**
 * The composer's attachments in the element's bundle: the drop target while files are dragged over the
 * element, and a shell that loads the attachment chunk (`./lazy.ts`: reading, scaling, previews, the image
 * viewer) when the first file arrives or an attachment is shown.
 */
import type { ReactiveController } from 'lit';
import { lazyChunk } from '../lazy-chunk.js';
import type { AttachmentHost, AttachmentState } from './state.js';
import type { ChatAttachment } from './types.js';

const DRAG = ['dragenter', 'dragover', 'dragleave', 'drop'] as const;

export class AttachmentsController implements ReactiveController {
  /** True while files are dragged over the element. */
  dragging = false;
  /** The loaded state (pending files, display URLs), once the chunk is here. */
  state: AttachmentState | undefined;
  /** True when files were added while the chunk could not be fetched (cleared when it arrives). */
  unavailable = false;
  private depth = 0;

  constructor(private readonly owner: AttachmentHost) {
    owner.host.addController(this);
  }

  hostConnected(): void {
    for (const type of DRAG) this.owner.host.addEventListener(type, this.onDrag);
  }

  hostDisconnected(): void {
    for (const type of DRAG) this.owner.host.removeEventListener(type, this.onDrag);
  }

  /**
   * Loads the attachment chunk once; the host renders again when it arrives. `undefined` when it could not
   * be fetched (see ../lazy-chunk.ts: `now`, for a user's action, tries again at once).
   */
  readonly load = lazyChunk(() =>
    import('./lazy.js').then((m) => {
      m.adoptStyles(this.owner.host.shadowRoot);
      this.state = new m.AttachmentState(this.owner);
      this.unavailable = false;
      this.owner.host.requestUpdate();
      return this.state;
    }),
  );

  /**
   * Reads, checks and prepares files, then shows them in the composer (or says why one was refused).
   * When the chunk cannot be fetched the composer says so, in the user's language; the typed text stays.
   */
  async add(files: readonly File[]): Promise<void> {
    if (files.length === 0) return;
    const state = await this.load(true);
    if (state) return state.add(files);
    this.unavailable = true;
    this.owner.host.requestUpdate();
  }

  /** Hands the pending attachments over to a message. */
  take(): ChatAttachment[] {
    return this.state?.take() ?? [];
  }

  /** The attachments of a sent message (loading their renderer on first use). */
  renderMessage(list: readonly ChatAttachment[]): unknown {
    if (!this.state) void this.load();
    return this.state?.renderMessage(list);
  }

  private readonly onDrag = (e: DragEvent): void => {
    if (!e.dataTransfer?.types.includes('Files') || !this.owner.options().accept) return;
    e.preventDefault();
    // enter/leave fire for every child crossed: count them, the target shows until the last leave
    const t = e.type;
    // the drop target's styles come with the attachment chunk: it shows once that is here
    if (t === 'dragenter') void this.load(true);
    this.depth = t === 'dragenter' ? this.depth + 1 : t === 'dragleave' ? this.depth - 1 : t === 'drop' ? 0 : Math.max(this.depth, 1);
    if (t === 'drop') void this.add([...e.dataTransfer.files]);
    if (this.dragging !== this.depth > 0) {
      this.dragging = this.depth > 0;
      this.owner.host.requestUpdate();
    }
  };
}
