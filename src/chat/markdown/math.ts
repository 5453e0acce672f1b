/**
 * Math in answers, the part that ships with the element: a formula becomes a `<span part="math">` that
 * shows its source until the TeX renderer (`math-render.ts`, a lazily loaded chunk with Temml) has
 * arrived, and its MathML after: spans made before that are filled in place when it lands.
 */
import { appendNode, appendText, createElement, setAttribute, type DomContext } from './inline-dom.js';

/** The words of math rendering, in the reader's language. */
export interface MathLabels {
  /** The accessible name of a formula that scrolls in its box. */
  formula: string;
  /** The title of a formula too large to typeset (it shows as its source). */
  tooLarge: string;
}

type Engine = typeof import('./math-render.js');
let engine: Engine | undefined;
let loading: Promise<void> | undefined;
let waiting: Array<[HTMLElement, string, boolean, string, MathLabels]> = [];

/** Loads the TeX renderer (once); resolves when formulas render. */
export function loadMath(): Promise<void> {
  if (!loading) {
    loading = import('./math-render.js').then(
      (m) => {
        engine = m;
        const spans = waiting;
        waiting = [];
        // Spans of a streaming tail that was rendered again since are gone from the DOM: skipped.
        for (const [span, tex, display, source, labels] of spans) if (span.parentNode) m.typesetInto(span, tex, display, source, labels);
      },
      () => {
        loading = undefined; // a failed chunk load is retried by the next formula
      },
    );
  }
  return loading;
}

/** Appends a formula: MathML once the renderer is here, its source (`source`, with delimiters) until then. */
export function renderMath(cx: DomContext, parent: Node, tex: string, display: boolean, source: string): void {
  const span = createElement(cx, 'span');
  setAttribute(cx, span, 'part', display ? 'math math-display' : 'math');
  if (engine) {
    engine.typesetInto(span, tex, display, source, cx.mathLabels);
  } else {
    appendText(cx, span, source);
    waiting.push([span, tex, display, source, cx.mathLabels]);
    void loadMath();
  }
  appendNode(cx, parent, span);
}
