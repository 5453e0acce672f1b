/**
 * Autolinks: CommonMark's `<scheme:…>` and `<address@host>` (§6.5), and GFM's extended ones (www., http://,
 * https://, ftp:// and email addresses in text), recognised as cmark-gfm's autolink extension does. The
 * inline parser asks at a `<`, a `w` and a `:`; the renderer finds email addresses in consolidated text.
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

/** GFM www and URL autolinks are made only after one of these (or at a line start). */
const RE_WWW_BEFORE = /^[\s*_~(]$/;

/**
 * The end of a GFM extended www autolink at `start` (`www.` and a valid domain), or -1. `before` is the
 * character before it, which must be whitespace, `*`, `_`, `~` or `(`.
 */
export function wwwAutolinkEnd(s: string, start: number, before: string): number {
  if (!s.startsWith('www.', start) || !RE_WWW_BEFORE.test(before)) return -1;
  const end = autolinkEnd(s, start, checkDomain(s, start, false));
  return end <= start || end - start > MAX_AUTOLINK ? -1 : end;
}

const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * A GFM extended URL autolink (`http://`, `https://` or `ftp://` and a domain) found at the `:` at `colon`,
 * its scheme letters starting at `from` at the earliest: where it starts and ends, or null.
 */
export function urlAutolink(s: string, colon: number, from: number): { start: number; end: number } | null {
  if (!s.startsWith('://', colon)) return null;
  let start = colon;
  while (start > from && isLetter(s.charCodeAt(start - 1))) start--;
  const scheme = s.slice(start, colon).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https' && scheme !== 'ftp') return null;
  const hostStart = colon + 3;
  if (hostStart >= s.length || !isHostChar(s, hostStart)) return null;
  const domainEnd = checkDomain(s, hostStart, true);
  if (domainEnd <= hostStart) return null;
  const end = autolinkEnd(s, start, domainEnd);
  return end <= colon + 3 || end - start > MAX_AUTOLINK ? null : { start, end };
}

const RE_EMAIL_AUTOLINK =
  /<([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>/y;
const RE_URI_AUTOLINK = /<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*>/y;
/** A prefix of a URI or email autolink, to the end of the text. */
const RE_UNFINISHED_AUTOLINK =
  /<(?:[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]*|[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*|[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9.-]*)$/y;

/**
 * A CommonMark autolink (§6.5) at the `<` at `start` that ends before `limit`: its end, its text and whether
 * it is an email address (its destination then takes `mailto:`); null when there is none.
 */
export function angleAutolink(s: string, start: number, limit: number): { end: number; text: string; email: boolean } | null {
  const subject = limit < s.length ? s.slice(0, limit) : s;
  for (const re of [RE_EMAIL_AUTOLINK, RE_URI_AUTOLINK]) {
    re.lastIndex = start;
    const m = re.exec(subject);
    if (m !== null) return { end: start + m[0].length, text: m[0].slice(1, -1), email: re === RE_EMAIL_AUTOLINK };
  }
  return null;
}

/** Whether the text from the `<` at `start` to its end could still become a CommonMark autolink. */
export function unfinishedAutolink(s: string, start: number): boolean {
  RE_UNFINISHED_AUTOLINK.lastIndex = start;
  return RE_UNFINISHED_AUTOLINK.test(s);
}

const EMAIL_LOCAL = /[A-Za-z0-9.+\-_]/;
const ALNUM = /[A-Za-z0-9]/;

/**
 * The next GFM email autolink in text `s` (cmark-gfm's postprocess_text): the first whose `@` is at or
 * after `search` and whose local part starts at `from` at the earliest (text before `from` is already
 * linked or passed). Its start and end, or null.
 */
export function nextEmail(s: string, from: number, search: number): { start: number; end: number } | null {
  for (;;) {
    const at = s.indexOf('@', search);
    if (at === -1) return null;
    search = at + 1;
    let start = at;
    while (start > from && EMAIL_LOCAL.test(s[start - 1]!)) start--;
    if (start === at || (start > from && s[start - 1] === '/')) continue;
    let end = at;
    let periods = 0;
    let ats = 0;
    for (; end < s.length; end++) {
      const c = s[end]!;
      if (ALNUM.test(c)) continue;
      if (c === '@') ats++;
      else if (c === '.' && end < s.length - 1 && ALNUM.test(s[end + 1]!)) periods++;
      else if (c !== '-' && c !== '_') break;
    }
    const lastChar = s[end - 1]!;
    if (end - at < 2 || ats !== 1 || periods === 0 || !(/[A-Za-z]/.test(lastChar) || lastChar === '.')) continue;
    while (end > at + 1 && '?!.,:*_~\'"'.includes(s[end - 1]!)) end--;
    if (end - start > MAX_EMAIL) continue;
    return { start, end };
  }
}
