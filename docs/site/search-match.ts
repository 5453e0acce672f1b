/**
 * Matching a query against the search index: every word must occur in the section's heading, its page's
 * title or its text; each word counts for the best of the three (heading 4, page 2, text 1). Ties keep the
 * order of the table of contents.
 */
import type { SearchEntry } from '../tools/search-index.js';

/** The best entries for `query`, at most `limit`: case-insensitive, each word a substring (so CJK text matches too). */
export function searchEntries(entries: readonly SearchEntry[], query: string, limit = 12): SearchEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const scored: Array<[number, SearchEntry]> = [];
  for (const entry of entries) {
    const heading = entry.heading.toLowerCase();
    const page = entry.page.toLowerCase();
    const text = entry.text.toLowerCase();
    let score = 0;
    for (const w of words) {
      const s = heading.includes(w) ? 4 : page.includes(w) ? 2 : text.includes(w) ? 1 : 0;
      if (s === 0) {
        score = 0;
        break;
      }
      score += s;
    }
    if (score > 0) scored.push([score, entry]);
  }
  return scored.sort((a, b) => b[0] - a[0]).slice(0, limit).map(([, e]) => e);
}
