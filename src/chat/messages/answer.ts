/**
 * Renders a streamed answer into a target element, one appended chunk at a time: each `append` costs
 * only the new text. Answers go through the safe incremental markdown stream; reasoning and every other
 * untrusted text through the plain-text renderer.
 */
import { createMarkdownStream } from '../markdown.js';

/** An incremental renderer for one answer block. */
export interface AnswerRenderer {
  append(text: string): void;
  end(): void;
}

/** Options for {@link createAnswerRenderer}. */
export interface AnswerRendererOptions {
  /** Remote images load only when this returns true. @defaultValue none load */
  allowImage?: (url: URL) => boolean;
  /** Label of the copy button on code blocks. */
  copyLabel?: string;
  /** Accessible name of a task item's checkbox. */
  taskLabel?: string;
  /** Whether TeX delimiters make math. @defaultValue true */
  math?: boolean;
  /** Aborted when the answer is replaced: its code lines still waiting to be highlighted are dropped. */
  signal?: AbortSignal;
  /** Accessible name of a formula that scrolls in its box. */
  mathLabel?: string;
  /** Title of a formula too large to typeset. */
  mathTooLargeLabel?: string;
}

/**
 * Creates the markdown renderer for one answer block in `target` (which it owns: it is emptied first).
 * Raw HTML in the text stays text; links and images pass the URL checks of the markdown stream.
 */
export function createAnswerRenderer(target: HTMLElement, options: AnswerRendererOptions = {}): AnswerRenderer {
  return createMarkdownStream(target, options);
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
