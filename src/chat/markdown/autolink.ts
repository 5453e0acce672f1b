/**
 * GFM extended autolinks (www., http://, https://, ftp:// and email addresses): where their domain and
 * their end are, as cmark-gfm's autolink extension finds them. The inline parser and the email search in
 * rendered text use them.
 */

/** GFM www and URL autolinks longer than this stay text. */
export const MAX_AUTOLINK = 2048;
/** An email autolink whose address is longer than this stays text. */
export const MAX_EMAIL = 254;

const RE_HOST_BREAK = /[\s\p{P}]/u;
/** A character that may be part of a domain label (not space, not punctuation). */
export function isHostChar(s: string, i: number): boolean {
  const c = s.codePointAt(i);
  return c !== undefined && !RE_HOST_BREAK.test(String.fromCodePoint(c));
}

/**
 * Where a GFM autolink domain starting at `start` ends (cmark-gfm's check_domain): labels of host
 * characters, `-` and `_` separated by `.`, no `_` in the last two labels, and (unless `short`) at least one
 * period. Returns `start` when there is no valid domain.
 */
export function checkDomain(s: string, start: number, short: boolean): number {
  let periods = 0;
  let underscoresLast = 0;
  let underscoresBefore = 0;
  let i = start + 1;
  const limit = Math.min(s.length - 1, start + MAX_AUTOLINK + 1);
  for (; i < limit; i++) {
    const c = s[i];
    if (c === '_') underscoresLast++;
    else if (c === '.') {
      underscoresBefore = underscoresLast;
      underscoresLast = 0;
      periods++;
    } else if (c !== '-' && !isHostChar(s, i)) break;
  }
  if (underscoresBefore > 0 || underscoresLast > 0) return start;
  return short || periods > 0 ? i : start;
}

/**
 * The end of a GFM autolink whose domain ends at `from`: up to the next space or `<`, less trailing
 * punctuation, unbalanced closing parentheses and an entity-like `&name;` (cmark-gfm's autolink_delim).
 */
export function autolinkEnd(s: string, start: number, from: number): number {
  if (from <= start) return start;
  let end = from;
  const limit = Math.min(s.length, start + MAX_AUTOLINK + 1);
  while (end < limit && !/\s/.test(s[end]!) && s[end] !== '<') end++;
  while (end > start) {
    const c = s[end - 1]!;
    if ('?!.,:*_~\'"'.includes(c)) {
      end--;
    } else if (c === ';') {
      let k = end - 2;
      while (k > start && /[A-Za-z]/.test(s[k]!)) k--;
      end = k < end - 2 && s[k] === '&' ? k : end - 1;
    } else if (c === ')') {
      let open = 0;
      let close = 0;
      for (let i = start; i < end; i++) {
        if (s[i] === '(') open++;
        else if (s[i] === ')') close++;
      }
      if (close <= open) break;
      end--;
    } else {
      break;
    }
  }
  return end;
}
