/**
 * The site's search index, built from the pages' Markdown when the site is built (or served): one entry
 * per section (the text under a heading up to the next heading of level 1–3), with the heading's anchor as
 * the page will give it. Searching needs no server: the browser loads this list once and filters it.
 */
import { createSlugger } from '../site/slug.js';

/** One searchable section. */
export interface SearchEntry {
  /** The page's URL under the site root. */
  url: string;
  page: string;
  heading: string;
  /** The heading's anchor (`""` for a page's first section). */
  anchor: string;
  /** The section's text, Markdown syntax left out, at most {@link MAX_TEXT} characters. */
  text: string;
}

const MAX_TEXT = 800;

/** Inline Markdown as the reader sees it: code spans, emphasis, links and raw HTML tags reduced to their text. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/<a id="[^"]*"><\/a>\s*/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__|\*|_|~~)(?=\S)([^*_~]*?\S)\1/g, '$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1')
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '')
    .replace(/^\s*\|?(?:\s*:?-+:?\s*\|)+\s*$/gm, '')
    .replace(/\|/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The sections of one page. */
export function pageEntries(url: string, page: string, markdown: string): SearchEntry[] {
  const slug = createSlugger();
  const entries: SearchEntry[] = [];
  let current: { heading: string; anchor: string; lines: string[] } = { heading: page, anchor: '', lines: [] };
  const flush = (): void => {
    const text = plainText(current.lines.join('\n')).slice(0, MAX_TEXT);
    if (text || current.anchor) entries.push({ url, page, heading: current.heading, anchor: current.anchor, text });
  };
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue; // code is not indexed: the prose around it names what it shows
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) {
      current.lines.push(line);
      continue;
    }
    const text = plainText(heading[2]!);
    const anchor = slug(text);
    if (heading[1]!.length > 3) {
      current.lines.push(text);
      continue;
    }
    flush();
    current = { heading: heading[1]!.length === 1 ? page : text, anchor: heading[1]!.length === 1 ? '' : anchor, lines: [] };
  }
  flush();
  return entries;
}
