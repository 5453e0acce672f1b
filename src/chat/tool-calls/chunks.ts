/**
 * The tool cards' two chunks, each fetched on first need: the drawing of the page's `renderers`
 * (./tool-renderers.ts) once they are set, and "Show more" and Copy under long arguments and results
 * (./tool-text.ts) once a card meets one. Lit and the card's own functions are handed to them: a chunk
 * that imported them would make the bundler split them out of the element's first load. A failed fetch
 * is tried again by a later update (see ../lazy-chunk.ts); the default card shows meanwhile.
 */
import { html, nothing, render } from 'lit';
import { AsyncDirective, directive } from 'lit/async-directive.js';
import { format } from '../i18n.js';
import { lazyChunk } from '../lazy-chunk.js';
import type { RowContext } from '../timeline/row-context.js';
import { renderApproval, renderToolCard, sliceEnd, TOOL_TEXT_STEP } from './card.js';
import type { LongText } from './text.js';

/** The element as the chunks see it. */
export interface ToolChunksHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  requestUpdate(): void;
}

export class ToolChunks {
  /** Draws a row through the page's renderers, once that chunk is here. */
  renderTool: RowContext['renderTool'];
  /** Draws a card's long text with its controls, once that chunk is here. */
  longText: LongText | undefined;
  /** A card met a long text: its row is not drawn again until the chunk is here, so updates fetch it. */
  private longTextWanted = false;

  constructor(private readonly host: ToolChunksHost) {}

  /** At each update of the element: fetches what is wanted and not here yet. */
  update(renderers: unknown): void {
    if (renderers) void this.loadRenderers();
    if (this.longTextWanted && !this.longText) void this.loadLongText();
  }

  /** A card's text longer than one slice with its controls, or `undefined` (and a fetch) while their chunk is not here. */
  readonly renderLongText: NonNullable<RowContext['renderLongText']> = (text, part, ctx, json) => {
    if (this.longText) return this.longText(text, part, ctx, json);
    this.longTextWanted = true;
    void this.loadLongText();
    return undefined;
  };

  private readonly loadRenderers = lazyChunk(() =>
    import('./renderers.js').then((m) => {
      this.renderTool = m.createToolRendering({ html, render, AsyncDirective, directive, renderToolCard, renderApproval });
      this.host.requestUpdate();
    }),
  );

  private readonly loadLongText = lazyChunk(() =>
    import('./text.js').then((m) => {
      m.adoptStyles(this.host.renderRoot);
      this.longText = m.createToolText({ html, nothing, AsyncDirective, directive, format, sliceEnd, step: TOOL_TEXT_STEP });
      this.host.requestUpdate();
    }),
  );
}
