/**
 * Renders a streamed answer into a target element, one appended chunk at a time: each `append` costs
 * only the new text. Plain text for now (a text node per chunk, merged at `end`); the same interface
 * is served by the markdown stream once it is available.
 */

/** An incremental renderer for one answer block. */
export interface AnswerRenderer {
  append(text: string): void;
  end(): void;
}

/** Options for {@link createAnswerRenderer}. */
export interface AnswerRendererOptions {
  /** Remote images load only when this returns true. @defaultValue none load */
  allowImage?: (url: URL) => boolean;
}

/**
 * Creates the renderer for one answer block in `target` (which it owns: it is emptied first).
 * Text is inserted as text, never parsed as HTML.
 */
export function createAnswerRenderer(target: HTMLElement, _options: AnswerRendererOptions = {}): AnswerRenderer {
  return createTextRenderer(target);
}

/**
 * A plain-text incremental renderer: one text node per chunk (so an append never copies earlier
 * text), merged into one node at `end`. Used for reasoning and every other untrusted text.
 */
export function createTextRenderer(target: HTMLElement): AnswerRenderer {
  target.replaceChildren();
  const doc = target.ownerDocument;
  return {
    append(text) {
      if (text !== '') target.append(doc.createTextNode(text));
    },
    end() {
      target.normalize();
    },
  };
}
