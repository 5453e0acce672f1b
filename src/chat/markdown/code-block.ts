/**
 * The DOM of a code block: a header with the language and a copy button (above the code, so it never
 * covers it), then `<pre><code class="language-…">`. Lines are appended to one Text node; past
 * {@link CODE_CHUNK_LINES} lines the code continues in block-level chunks so the browser lays out only
 * the last one (one long Text node is laid out whole on every change).
 */
import { appendNode, appendText, createElement, setAttribute, type DomContext } from './inline-dom.js';
import { createLineHighlight, type LineHighlight } from './highlight.js';

/** Lines per chunk of a long code block. */
export const CODE_CHUNK_LINES = 100;
const LANGUAGE = /^[A-Za-z0-9_+#.-]{1,40}$/;

/** Options of a code block's chrome. */
export interface CodeBlockOptions {
  /** The accessible label and text of the copy button. */
  copyLabel: string;
}

/** Appends a code block's text as it streams. */
export class CodeBlockView {
  readonly element: HTMLElement;
  private readonly code: HTMLElement;
  private readonly label: HTMLElement;
  private target: HTMLElement;
  private chunks: HTMLElement[] = [];
  private linesInChunk = 0;
  /** Text of the current line not yet given a line end. */
  private lineOpen = false;
  /** The block's highlighting (known language, supporting browser), fed each line once it is finished. */
  private highlight: LineHighlight | null = null;
  /** Highlighted code: the current line's own Text node, which the highlighter replaces by its tokens once finished. */
  private lineNode: Text | null = null;

  constructor(
    private readonly cx: DomContext,
    parent: Node,
    options: CodeBlockOptions,
  ) {
    const wrapper = createElement(cx, 'div');
    setAttribute(cx, wrapper, 'part', 'code-block');
    const header = appendNode(cx, wrapper, createElement(cx, 'div'));
    setAttribute(cx, header, 'part', 'code-header');
    this.label = appendNode(cx, header, createElement(cx, 'span'));
    setAttribute(cx, this.label, 'part', 'code-language');
    const button = appendNode(cx, header, createElement(cx, 'button'));
    setAttribute(cx, button, 'type', 'button');
    setAttribute(cx, button, 'part', 'copy-button');
    setAttribute(cx, button, 'aria-label', options.copyLabel);
    appendText(cx, button, options.copyLabel);
    this.code = appendNode(cx, appendNode(cx, wrapper, createElement(cx, 'pre')), createElement(cx, 'code'));
    this.target = this.code;
    button.addEventListener('click', () => {
      const clipboard = cx.doc.defaultView?.navigator.clipboard;
      if (!clipboard) return;
      clipboard.writeText(this.text()).then(
        () => button.setAttribute('data-copied', ''),
        () => button.removeAttribute('data-copied'),
      );
    });
    this.element = appendNode(cx, parent, wrapper);
  }

  /** Sets the language from the info string's first word (shown, and as `class="language-…"`). */
  setInfo(info: string): void {
    const language = info.split(/[ \t\n]/, 1)[0] ?? '';
    if (language === '') return;
    // The class carries the info word as CommonMark renders it; only a plain name is shown as the label.
    setAttribute(this.cx, this.code, 'class', `language-${language}`);
    if (LANGUAGE.test(language)) appendText(this.cx, this.label, language);
    this.highlight = createLineHighlight(language, this.code, this.cx.signal);
  }

  /** Appends text of the current line (no line end). */
  append(text: string): void {
    if (text === '') return;
    if (!this.lineOpen) this.startLine();
    if (this.highlight?.plain === false) {
      if (!this.lineNode) {
        this.cx.stats.nodesCreated += 1;
        this.lineNode = appendNode(this.cx, this.target, this.cx.doc.createTextNode(''));
      }
      this.cx.stats.nodesTouched += 1;
      this.lineNode.appendData(text);
    } else appendText(this.cx, this.target, text);
  }

  /** Ends the current line. */
  endLine(): void {
    if (!this.lineOpen) this.startLine();
    const node = this.lineNode;
    if (node) {
      node.appendData('\n');
      this.highlight?.line(node, 0, node.length - 1);
    } else {
      if (this.highlight?.plain === false) this.highlight.line(null, 0);
      appendText(this.cx, this.target, '\n');
    }
    this.lineNode = null;
    this.lineOpen = false;
  }

  /** The block is closed: a last line without a line end is highlighted too. */
  finish(): void {
    if (this.lineOpen && this.lineNode) this.highlight?.line(this.lineNode, 0, this.lineNode.length);
    this.lineNode = null;
  }

  private startLine(): void {
    this.lineOpen = true;
    if (this.linesInChunk === CODE_CHUNK_LINES) {
      const { cx } = this;
      if (this.chunks.length === 0) {
        const first = createElement(cx, 'div');
        for (let n = this.code.firstChild; n; ) {
          const next = n.nextSibling;
          first.appendChild(n);
          n = next;
        }
        appendNode(cx, this.code, first);
        this.chunks.push(first);
      }
      // The line end between chunks is the block boundary (so copied text has no blank line there).
      const last = this.chunks.at(-1)!.lastChild;
      if (last && last.nodeType === 3) (last as Text).deleteData((last as Text).length - 1, 1);
      this.target = appendNode(cx, this.code, createElement(cx, 'div'));
      this.chunks.push(this.target);
      this.linesInChunk = 0;
    }
    this.linesInChunk += 1;
    // A line is highlighted once, when it is finished (the open line shows plain until then).
    this.lineNode = null;
  }

  /** The code as written (what the copy button copies). */
  text(): string {
    return this.chunks.length === 0 ? (this.code.textContent ?? '') : this.chunks.map((c) => c.textContent).join('\n');
  }
}
