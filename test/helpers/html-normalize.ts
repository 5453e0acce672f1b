/**
 * The CommonMark spec's HTML normalisation (the rules of commonmark-spec's test/normalize.py), so
 * output that differs only in insignificant ways compares equal: whitespace around block tags removed,
 * runs of whitespace collapsed outside `<pre>`, attributes sorted and lowercased, self-closing tags
 * opened, character references decoded except `<`, `>`, `&` and `"`.
 *
 * One unification on top, because a DOM serialiser cannot say how text was written: character
 * references in text are decoded before the whitespace rules (a DOM has no `&nbsp;` vs U+00A0
 * difference), and `"` in text is always written `&quot;`.
 */
import { decodeHTML } from 'entities';

const BLOCK_TAGS = new Set([
  'article', 'header', 'aside', 'hgroup', 'blockquote', 'hr', 'iframe', 'body', 'li', 'map', 'button', 'object',
  'canvas', 'ol', 'caption', 'output', 'col', 'p', 'colgroup', 'pre', 'dd', 'progress', 'div', 'section', 'dl',
  'table', 'td', 'dt', 'tbody', 'embed', 'textarea', 'fieldset', 'tfoot', 'figcaption', 'th', 'figure', 'thead',
  'footer', 'tr', 'form', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'video', 'script', 'style',
]);
const CHUNK = /<!\[CDATA\[[\s\S]*?\]\]>|<[^>]*>|[^<]+/g;
const TAG = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)([\s\S]*?)(\/?)>$/;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
const REFERENCE = /&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g;
const escapeText = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Normalises an HTML fragment for comparison. */
export function normalizeHtml(html: string): string {
  let out = '';
  let last: 'starttag' | 'endtag' | 'data' | 'comment' | 'decl' = 'starttag';
  let lastTag = '';
  let inPre = false;
  for (const [chunk] of html.matchAll(CHUNK)) {
    if (chunk.startsWith('<![CDATA[')) {
      out += chunk;
      continue;
    }
    if (chunk.startsWith('<!--')) {
      out += chunk;
      last = 'comment';
      continue;
    }
    if (chunk.startsWith('<?') || chunk.startsWith('<!')) {
      out += chunk;
      last = 'decl';
      continue;
    }
    const tag = TAG.exec(chunk);
    if (tag) {
      const name = tag[2]!.toLowerCase();
      if (tag[1]) {
        if (name === 'pre') inPre = false;
        else if (BLOCK_TAGS.has(name)) out = out.trimEnd();
        out += `</${name}>`;
        lastTag = name;
        last = 'endtag';
        continue;
      }
      if (name === 'pre') inPre = true;
      if (BLOCK_TAGS.has(name)) out = out.trimEnd();
      out += `<${name}`;
      const attributes: Array<[string, string | undefined]> = [];
      for (const m of tag[3]!.matchAll(ATTRIBUTE)) attributes.push([m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4]]);
      attributes.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      for (const [key, value] of attributes) out += value === undefined ? ` ${key}` : ` ${key}="${escapeText(decodeHTML(value))}"`;
      out += '>';
      lastTag = name;
      last = tag[4] ? 'endtag' : 'starttag';
      continue;
    }
    let data = chunk.replace(REFERENCE, (m) => decodeHTML(m));
    const afterTag = last === 'endtag' || last === 'starttag';
    if (afterTag && lastTag === 'br') data = data.replace(/^\n+/, '');
    if (!inPre) data = data.replace(/\s+/g, ' ');
    if (afterTag && BLOCK_TAGS.has(lastTag) && !inPre) data = last === 'starttag' ? data.trimStart() : data.trim();
    out += escapeText(data);
    last = 'data';
  }
  return out;
}
