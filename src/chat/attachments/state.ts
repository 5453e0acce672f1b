/**
 * The composer's attachments once the attachment chunk is loaded: files waiting to be sent, the sentences
 * about refused ones, and the `blob:` URLs the element made for showing images (revoked when the
 * conversation they belong to leaves the view, or the element leaves the page).
 */
import type { ReactiveControllerHost, TemplateResult, html, nothing, render } from 'lit';
import type { PagentChatStrings } from '../i18n.js';
import { objectUrl } from './object-url.js';
import { prepareFiles } from './prepare.js';
import { renderAttachments, renderPreviews } from './preview.js';
import { openViewer } from './viewer.js';
import type { AttachmentOptions, ChatAttachment } from './types.js';

/**
 * Lit's template functions, handed over by the element: the chunk imports nothing the element's bundle
 * holds, so a bundler splits off no shared chunk for it.
 */
export interface LitTemplates {
  html: typeof html;
  nothing: typeof nothing;
  render: typeof render;
}

/** What the attachment renderers get. */
export interface AttachmentUi {
  readonly lit: LitTemplates;
  readonly strings: PagentChatStrings;
  readonly locale: string;
  /** Remote images load only when this returns true. */
  readonly allowImage: ((url: URL) => boolean) | undefined;
  /** The display URL of an attachment (its own `blob:` URL, or one made from its data now). */
  url(a: ChatAttachment): string | undefined;
  remove(index: number): void;
  view(a: ChatAttachment): void;
}

/** The element's side: its options, strings and locale, and its shadow root. */
export interface AttachmentHost {
  readonly host: ReactiveControllerHost & HTMLElement;
  readonly options: () => AttachmentOptions;
  readonly ui: () => Pick<AttachmentUi, 'strings' | 'locale' | 'allowImage' | 'lit'>;
}

export class AttachmentState {
  pending: ChatAttachment[] = [];
  errors: string[] = [];
  /** `blob:` URLs made and not yet revoked, and the one each attachment is shown with. */
  private readonly live = new Set<string>();
  private readonly urls = new Map<ChatAttachment, string>();

  constructor(private readonly owner: AttachmentHost) {}

  async add(files: readonly File[]): Promise<void> {
    const { strings, locale } = this.owner.ui();
    const result = await prepareFiles(files, this.owner.options(), this.pending, strings, locale);
    for (const a of result.attachments) {
      if (!a.url) continue;
      this.live.add(a.url);
      this.urls.set(a, a.url);
    }
    this.pending = [...this.pending, ...result.attachments];
    this.errors = result.errors;
    this.owner.host.requestUpdate();
  }

  take(): ChatAttachment[] {
    const taken = this.pending;
    this.pending = [];
    this.errors = [];
    return taken;
  }

  release(): void {
    for (const url of this.live) URL.revokeObjectURL(url);
    this.live.clear();
    this.urls.clear();
  }

  clear(): void {
    this.release();
    this.pending = [];
    this.errors = [];
    this.owner.host.requestUpdate();
  }

  renderComposer(): TemplateResult | undefined {
    return this.pending.length > 0 || this.errors.length > 0 ? renderPreviews(this.pending, this.errors, this.api()) : undefined;
  }

  renderMessage(list: readonly ChatAttachment[]): TemplateResult {
    return renderAttachments(list, this.api());
  }

  private api(): AttachmentUi {
    return {
      ...this.owner.ui(),
      url: (a) => {
        let url = this.urls.get(a);
        if (url === undefined) {
          url = a.url && this.live.has(a.url) ? a.url : objectUrl(a);
          if (url === undefined) return undefined;
          this.live.add(url);
          this.urls.set(a, url);
        }
        return url;
      },
      remove: (index) => {
        const [gone] = this.pending.splice(index, 1);
        const url = gone && this.urls.get(gone);
        if (url) {
          URL.revokeObjectURL(url);
          this.live.delete(url);
        }
        if (gone) this.urls.delete(gone);
        this.pending = [...this.pending];
        this.errors = [];
        this.owner.host.requestUpdate();
      },
      view: (a) => void openViewer(this.owner.host.shadowRoot!, a, this.api()),
    };
  }
}
