/**
 * What the CommonMark and GFM conformance tests share: the spec's examples, rendering a text through
 * `<pagent-chat>` (pushed as deltas) or through the markdown stream directly, reading the rendered answer
 * as HTML without the element's chrome, and the reference output under our deliberate deviations (made by
 * commonmark.js, the spec's reference implementation, with raw HTML and refused URLs rendered as text).
 */
import specText from 'commonmark-spec/spec.txt?raw';
import { HtmlRenderer, Parser, type Node as CmNode } from 'commonmark';
import '../../../src/chat/pagent-chat.js';
import type { PagentChat } from '../../../src/chat/element.js';
import { createMarkdownStream } from '../../../src/chat/markdown.js';
import { END } from './helpers.js';

export interface SpecExample {
  number: number;
  section: string;
  markdown: string;
  html: string;
}

/** The examples of spec.txt, extracted as commonmark-spec's own index.js does (→ stands for a tab). */
export function specExamples(text = specText): SpecExample[] {
  const examples: SpecExample[] = [];
  let section = '';
  const body = text.replace(/\r\n?/g, '\n').replace(/^<!-- END TESTS -->(.|[\n])*/m, '');
  for (const m of body.matchAll(/^`{32} example[^\n]*\n([\s\S]*?)^\.\n([\s\S]*?)^`{32}$|^#{1,6} *(.*)$/gm)) {
    if (m[3] !== undefined) section = m[3];
    else examples.push({ number: examples.length + 1, section, markdown: m[1]!.replace(/→/g, '\t'), html: m[2]!.replace(/→/g, '\t') });
  }
  return examples;
}

/** The element's chrome that is not markdown output: removed before comparing with a spec's HTML. */
export function answerHtml(answer: Element): string {
  const copy = answer.cloneNode(true) as Element;
  for (const header of copy.querySelectorAll('[part="code-header"]')) header.remove();
  for (const block of copy.querySelectorAll('[part="code-block"]')) block.replaceWith(...block.childNodes);
  for (const el of copy.querySelectorAll('*')) {
    // safety attributes we add to links and images, theming parts, a task checkbox's accessible name
    for (const name of ['rel', 'target', 'referrerpolicy', 'loading', 'part', 'aria-label']) el.removeAttribute(name);
  }
  return copy.innerHTML;
}

/** Renders `pieces` as one answer through a fresh `<pagent-chat>`, one TextDelta each, awaiting each render. */
export async function renderThroughElement(pieces: readonly string[]): Promise<string> {
  const el = document.createElement('pagent-chat') as PagentChat;
  el.frameBatching = false;
  el.allowImage = () => true;
  document.body.append(el);
  try {
    await el.updateComplete;
    el.push({ method: 'RunBegin', params: { user_input: 'example' } });
    for (const text of pieces) {
      el.push({ method: 'TextDelta', params: { text } });
      await el.updateComplete;
    }
    el.push({ method: 'RunEnd', params: { ...END, content: pieces.join(''), stop_reason: 'no_tool_calls' } });
    await el.updateComplete;
    const answer = el.shadowRoot!.querySelector('[part~="answer-text"]');
    return answer ? answerHtml(answer) : '';
  } finally {
    el.remove();
  }
}

/** Renders `pieces` through the markdown stream directly, one `append` each. */
export function renderThroughStream(pieces: readonly string[]): string {
  const el = document.createElement('div');
  const md = createMarkdownStream(el, { allowImage: () => true });
  for (const piece of pieces) md.append(piece);
  md.end();
  return answerHtml(el);
}

/** Our link policy, written independently of the renderer: http, https, mailto and relative URLs only. */
export function allowedUrl(destination: string): boolean {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(destination)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === 'http' || scheme === 'https' || scheme === 'mailto';
}

const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The deviations an example meets: raw HTML in it, or a link or image with a refused URL. */
export function deviationsOf(markdown: string): { rawHtml: boolean; refusedUrl: boolean } {
  const walker = new Parser().parse(markdown).walker();
  const found = { rawHtml: false, refusedUrl: false };
  for (let event = walker.next(); event; event = walker.next()) {
    const node: CmNode = event.node;
    if (node.type === 'html_inline' || node.type === 'html_block') found.rawHtml = true;
    if ((node.type === 'link' || node.type === 'image') && !allowedUrl(node.destination ?? '')) found.refusedUrl = true;
  }
  return found;
}

/**
 * commonmark.js's output with our deviations: raw HTML as escaped text (an HTML block in a `<pre>`), a link
 * with a refused URL as its content, an image with a refused URL as its alt text (or its URL).
 */
export function referenceWithDeviations(markdown: string): string {
  class Deviating extends HtmlRenderer {
    constructor() {
      super();
      const self = this as unknown as Record<string, (node: CmNode, entering: boolean) => void> & {
        lit(s: string): void;
        cr(): void;
        disableTags: number;
      };
      const link = self['link']!.bind(this);
      const image = self['image']!.bind(this);
      self['html_inline'] = (node) => self.lit(escapeHtml(node.literal ?? ''));
      self['html_block'] = (node) => {
        self.cr();
        self.lit(`<pre>${escapeHtml(node.literal ?? '')}</pre>`);
        self.cr();
      };
      self['link'] = (node, entering) => {
        if (allowedUrl(node.destination ?? '')) link(node, entering);
      };
      self['image'] = (node, entering) => {
        if (allowedUrl(node.destination ?? '')) return image(node, entering);
        if (entering && !node.firstChild) self.lit(escapeHtml(node.destination ?? ''));
      };
    }
  }
  return new Deviating().render(new Parser().parse(markdown));
}
