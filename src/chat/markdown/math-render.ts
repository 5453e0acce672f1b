/**
 * The TeX renderer (a lazily loaded chunk): Temml turns a formula into MathML, which Chromium, Firefox and
 * Safari lay out natively (no fonts or CSS to download). Formulas are untrusted: Temml's `trust` stays off
 * (no `\href`, `\url`, `\html…`: they render as inert error text), the work of a formula is bounded
 * (`math-budget.ts`: expanded tokens, nodes built, MathML elements and their depth), no state is shared between
 * formulas (a fresh macro table each), the MathML is built as DOM (never parsed from markup) and any link
 * or script-bearing attribute is dropped all the same. An invalid formula shows its source, marked, with
 * the error as its title. A formula taller than its box scrolls inside it.
 */
import { buildMathTree, MathTooLargeError } from './math-budget.js';
import type { MathLabels } from './math.js';

/** Typeset formulas by source, copied on reuse (a streaming tail renders the same formula again). */
const cache = new Map<string, Element | Error>();
const CACHE_SIZE = 256;

/** Work counters of math rendering, for tests and benchmarks. */
export const mathStats = {
  /** Formulas typeset (a formula met again is copied from a cache, not typeset again). */
  typeset: 0,
};

const UNSAFE_ATTRIBUTE = /^(?:on|href$|xlink:href$|src$|action$|formaction$)/i;

function typeset(tex: string, display: boolean): Element | Error {
  let math: Element;
  try {
    math = buildMathTree(tex, display).toNode();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  for (const el of [math, ...math.querySelectorAll('*')]) {
    for (const { name, value } of [...el.attributes]) {
      if (UNSAFE_ATTRIBUTE.test(name) || /javascript:|url\(/i.test(value)) el.removeAttribute(name);
    }
  }
  return math;
}

// An error's quiet mark, and boxes for formulas too wide or too tall: display math scrolls sideways in its
// span rather than widening the answer, and a formula taller than MAX_HEIGHT scrolls in its span (inline
// math's span then becomes an inline block). Only such a formula scrolls vertically: the glyphs of
// ordinary ones (an integral sign) reach a few pixels past their box, which would make every one scroll.
// Display math is cut at MAX_HEIGHT by CSS alone; scrolling, and inline math's box, come once the formula
// has been measured (before it is painted). Put into the formula's shadow root (or document) once, after
// the span has been placed.
const MAX_HEIGHT_EM = 40;
const MAX_HEIGHT_VH = 75;
const MAX_HEIGHT = `min(${MAX_HEIGHT_EM}em, ${MAX_HEIGHT_VH}vh)`;
const CSS_TEXT = `[part~='math-error'] { text-decoration: underline dotted var(--_danger, #b3261e); text-underline-offset: 3px; cursor: help; }
[part~='math-display'] { display: block; overflow-x: auto; overflow-y: hidden; max-height: ${MAX_HEIGHT}; }
[part~='math'][data-tall] { overflow-y: auto; }
[part~='math'][data-tall]:not([part~='math-display']) { display: inline-block; max-height: ${MAX_HEIGHT}; vertical-align: middle; }`;
let sheet: CSSStyleSheet | undefined;
const styled = new WeakSet<Node>();
function adoptStyles(span: HTMLElement): void {
  queueMicrotask(() => {
    const root = span.getRootNode();
    if (styled.has(root) || !(root instanceof ShadowRoot || root instanceof Document)) return;
    styled.add(root);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS_TEXT);
    }
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    root.addEventListener('copy', copySource as EventListener);
  });
}

const BLOCK = /^(?:P|DIV|LI|H[1-6]|PRE|TR|BLOCKQUOTE|UL|OL|TABLE)$/;

/** Text of copied nodes, each formula as its TeX source, a line end after each block. */
function copiedText(node: Node): string {
  if (node.nodeType === 3) return (node as Text).data;
  const el = node as Element;
  if (el.nodeType === 1 && el.getAttribute('part')?.split(' ').includes('math')) return el.getAttribute('data-source') ?? '';
  let out = '';
  for (let c = node.firstChild; c; c = c.nextSibling) out += copiedText(c);
  return el.nodeType === 1 && BLOCK.test(el.nodeName) && !out.endsWith('\n') ? `${out}\n` : out;
}

/** Copying a selection with whole formulas in it copies their TeX source, not the MathML's text. */
function copySource(event: ClipboardEvent): void {
  const root = event.currentTarget as (ShadowRoot & { getSelection?: () => Selection | null }) | Document;
  const selection = root.getSelection ? root.getSelection() : document.getSelection();
  if (!selection || selection.rangeCount === 0 || !event.clipboardData) return;
  const fragment = selection.getRangeAt(0).cloneContents();
  if (!fragment.querySelector('[part~="math"]')) return;
  event.clipboardData.setData('text/plain', copiedText(fragment).replace(/\n$/, ''));
  event.preventDefault();
}

// A formula that scrolls gets a tab stop, so a keyboard can scroll it too, and a name; only then: most
// formulas fit and need no tab stop. Watched from the moment it is placed (a narrower answer can make a
// wide formula scroll later) until it leaves the document (one dropped before it was ever placed, as a
// streaming tail's are, is never watched). Display math is watched through its span, inline math through
// its <math> (an inline span has no size of its own to watch).
let observer: ResizeObserver | undefined;
const spanLabels = new WeakMap<Element, string>();
function updateScrolling(entries: ResizeObserverEntry[]): void {
  for (const { target } of entries) {
    if (!target.isConnected) {
      observer!.unobserve(target);
      continue;
    }
    const span = target instanceof HTMLElement ? target : target.parentElement!;
    const math = span.firstElementChild!;
    const limit = Math.min(MAX_HEIGHT_EM * parseFloat(getComputedStyle(span).fontSize), (MAX_HEIGHT_VH / 100) * innerHeight);
    const tall = math.getBoundingClientRect().height > limit + 1;
    span.toggleAttribute('data-tall', tall);
    const scrolls = tall || (span === target && span.scrollWidth > span.clientWidth + 1);
    if (scrolls === span.hasAttribute('tabindex')) continue;
    if (scrolls) {
      span.setAttribute('tabindex', '0');
      span.setAttribute('role', 'group');
      span.setAttribute('aria-label', spanLabels.get(span) ?? '');
    } else {
      for (const name of ['tabindex', 'role', 'aria-label']) span.removeAttribute(name);
    }
  }
}
function watchScrolling(span: HTMLElement, display: boolean, label: string): void {
  queueMicrotask(() => {
    if (!span.isConnected) return;
    observer ??= new ResizeObserver(updateScrolling);
    spanLabels.set(span, label);
    observer.observe(display ? span : span.firstElementChild!);
  });
}

/**
 * Fills `span` with the formula's MathML, or marks it as an error (its text stays the source); `labels`
 * name a formula that scrolls in its box and a formula too large to typeset.
 */
export function typesetInto(span: HTMLElement, tex: string, display: boolean, source: string, labels: MathLabels): void {
  const key = (display ? 'D' : 'I') + tex;
  let result = cache.get(key);
  if (result === undefined) {
    mathStats.typeset += 1;
    result = typeset(tex, display);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, result);
  }
  adoptStyles(span);
  if (result instanceof Error) {
    if (span.firstChild === null) span.append(source);
    span.setAttribute('part', `${span.getAttribute('part') ?? 'math'} math-error`);
    span.title = result instanceof MathTooLargeError ? labels.tooLarge : result.message;
    return;
  }
  span.setAttribute('data-source', source);
  span.replaceChildren(result.cloneNode(true));
  watchScrolling(span, display, labels.formula);
}
