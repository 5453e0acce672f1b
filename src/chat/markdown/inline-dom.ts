/**
 * Turns an inline tree into DOM, safely: text only ever becomes Text nodes, raw HTML is shown as its
 * source text, a link becomes `<a href>` only when {@link linkHref} allows its URL, an image loads only
 * when the page's `allowImage` says so. Adjacent text is one Text node (appended to, not added), and GFM
 * email autolinks are found in it as cmark-gfm finds them (in consolidated text outside links).
 */
import type { Inline } from './inlines.js';
import { nextEmail } from './autolink.js';

/** Inline elements (emphasis, links, code) nest at most this deep; deeper ones render their content only. */
export const MAX_INLINE_DEPTH = 32;
import { normalizeUri } from './syntax.js';
import { renderMath, type MathLabels } from './math.js';

/** Deterministic work counters of a markdown stream, for tests and benchmarks. */
export interface MarkdownStats {
  /** Characters handed to the parser: each appended one, plus each one the inline parser reads (again). */
  charsParsed: number;
  /** DOM nodes (elements and text nodes) created. */
  nodesCreated: number;
  /** DOM mutations made: insertions, removals, attribute and text writes. */
  nodesTouched: number;
}

/** What rendering needs besides the tree. */
export interface DomContext {
  readonly doc: Document;
  readonly stats: MarkdownStats;
  /** Whether an image at this (resolved, already allowed by scheme) URL may load. */
  readonly allowImage: ((url: URL) => boolean) | undefined;
  /** Aborted when the document is dropped: its deferred work (highlighting) stops. */
  readonly signal: AbortSignal | undefined;
  /** The words formulas may show. */
  readonly mathLabels: MathLabels;
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * The `href` to use for a link destination, or `null` when it must stay text: only http, https, mailto and
 * relative URLs pass. The destination was decoded and percent-encoded by the parser (CommonMark's
 * normalisation), so it holds no space, control, tab or entity that the browser's URL parser could read
 * differently: the scheme checked here is the one a click would use. An empty destination is a link to
 * the page itself, as in CommonMark.
 */
export function linkHref(destination: string): string | null {
  if (destination === '') return '';
  if (/[^\x21-\x7e]/.test(destination)) return null;
  try {
    if (!ALLOWED_SCHEMES.has(new URL(destination, 'https://relative.invalid/').protocol)) return null;
  } catch {
    return null;
  }
  return destination;
}

export function createElement<K extends keyof HTMLElementTagNameMap>(cx: DomContext, tag: K): HTMLElementTagNameMap[K] {
  cx.stats.nodesCreated += 1;
  return cx.doc.createElement(tag);
}

export function setAttribute(cx: DomContext, el: Element, name: string, value: string): void {
  cx.stats.nodesTouched += 1;
  el.setAttribute(name, value);
}

export function appendNode<N extends Node>(cx: DomContext, parent: Node, child: N): N {
  cx.stats.nodesTouched += 1;
  parent.appendChild(child);
  return child;
}

/** Appends text to `parent`, extending its last child when that is a Text node. */
export function appendText(cx: DomContext, parent: Node, s: string): void {
  if (s === '') return;
  const last = parent.lastChild;
  cx.stats.nodesTouched += 1;
  if (last !== null && last.nodeType === 3) {
    (last as Text).appendData(s);
  } else {
    cx.stats.nodesCreated += 1;
    parent.appendChild(cx.doc.createTextNode(s));
  }
}

function link(cx: DomContext, href: string, title: string): HTMLAnchorElement {
  const a = createElement(cx, 'a');
  setAttribute(cx, a, 'href', href);
  if (title !== '') setAttribute(cx, a, 'title', title);
  setAttribute(cx, a, 'rel', 'noopener noreferrer');
  setAttribute(cx, a, 'target', '_blank');
  setAttribute(cx, a, 'referrerpolicy', 'no-referrer');
  return a;
}

/** The plain text of an inline tree, as an image's alt text. */
function plainText(first: Inline | null): string {
  let out = '';
  for (let n = first; n; n = n.next) {
    if (n.type === 'text' || n.type === 'code' || n.type === 'html') out += n.literal;
    else if (n.type === 'math') out += n.destination;
    else if (n.type === 'softbreak' || n.type === 'linebreak') out += '\n';
    else out += plainText(n.first);
  }
  return out;
}

/** Appends consolidated text, linking GFM email autolinks in it. */
function appendTextWithEmails(cx: DomContext, parent: Node, s: string, inLink: boolean): void {
  let from = 0;
  for (let m = inLink ? null : nextEmail(s, 0, 0); m; m = nextEmail(s, from, from)) {
    const email = s.slice(m.start, m.end);
    appendText(cx, parent, s.slice(from, m.start));
    const a = link(cx, normalizeUri(`mailto:${email}`), '');
    appendText(cx, a, email);
    appendNode(cx, parent, a);
    from = m.end;
  }
  appendText(cx, parent, s.slice(from));
}

/**
 * Renders `first` and the siblings after it, up to (not including) `stop`, into `parent`. Text merges
 * with `parent`'s last Text node.
 */
export function renderInlines(
  cx: DomContext,
  first: Inline | null,
  stop: Inline | null,
  parent: Node,
  inLink = false,
  depth = 0,
): void {
  let run = '';
  const flush = (): void => {
    if (run !== '') appendTextWithEmails(cx, parent, run, inLink);
    run = '';
  };
  for (let n = first; n && n !== stop; n = n.next) {
    switch (n.type) {
      case 'text':
        run += n.literal;
        continue;
      case 'softbreak':
        run += '\n';
        continue;
      case 'html':
        // Raw HTML is shown as the text it is, never parsed.
        run += n.literal;
        continue;
    }
    flush();
    switch (n.type) {
      case 'linebreak':
        appendNode(cx, parent, createElement(cx, 'br'));
        break;
      case 'code': {
        const code = createElement(cx, 'code');
        appendText(cx, code, n.literal);
        appendNode(cx, parent, code);
        break;
      }
      case 'math':
        renderMath(cx, parent, n.literal, n.title !== '', n.destination);
        break;
      case 'emph': case 'strong': case 'del': {
        if (depth >= MAX_INLINE_DEPTH) {
          renderInlines(cx, n.first, null, parent, inLink, depth);
          break;
        }
        const el = createElement(cx, n.type === 'emph' ? 'em' : n.type === 'strong' ? 'strong' : 'del');
        renderInlines(cx, n.first, null, el, inLink, depth + 1);
        appendNode(cx, parent, el);
        break;
      }
      case 'link': {
        const href = inLink ? null : linkHref(n.destination);
        if (href === null || depth >= MAX_INLINE_DEPTH) {
          // A refused URL: the link text stays, as text.
          renderInlines(cx, n.first, null, parent, inLink, depth);
        } else {
          const a = link(cx, href, n.title);
          renderInlines(cx, n.first, null, a, true, depth + 1);
          appendNode(cx, parent, a);
        }
        break;
      }
      case 'image': {
        const alt = plainText(n.first);
        const src = linkHref(n.destination);
        let url: URL | undefined;
        try {
          url = src === null || src === '' ? undefined : new URL(src, cx.doc.baseURI);
        } catch {
          url = undefined;
        }
        if (url && (url.protocol === 'http:' || url.protocol === 'https:') && cx.allowImage?.(url) === true) {
          const img = createElement(cx, 'img');
          setAttribute(cx, img, 'src', src!);
          setAttribute(cx, img, 'alt', alt);
          if (n.title !== '') setAttribute(cx, img, 'title', n.title);
          setAttribute(cx, img, 'referrerpolicy', 'no-referrer');
          setAttribute(cx, img, 'loading', 'lazy');
          appendNode(cx, parent, img);
        } else {
          appendText(cx, parent, alt !== '' ? alt : n.destination);
        }
        break;
      }
    }
  }
  flush();
}
