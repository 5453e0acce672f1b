/**
 * Math in inline content, when it is on: `$$…$$` and `\[…\]` display, `$…$` and `\(…\)` inline. `$` is read
 * as pandoc reads it: the opener is followed by a non-space, the closer is the next unescaped `$`, which
 * must follow a non-space and not be followed by a digit; so "$5 and $10" stays text. A `$` formula also
 * holds no backtick (it would cross a code span).
 */
import { WHITESPACE_CHAR } from './syntax.js';

/** A formula found at a `$` or `\`, or why there is none. */
export interface MathMatch {
  /** Where the formula ends, after its closer; -1 when there is none here. */
  end: number;
  /** Its TeX, between the delimiters. */
  tex: string;
  /** `$$…$$` or `\[…\]`. */
  display: boolean;
  /** Whether more text could still change what is here (a closer not here yet, a digit after the `$`). */
  undecided: boolean;
}

const NONE: MathMatch = { end: -1, tex: '', display: false, undecided: false };
const NOT_YET: MathMatch = { ...NONE, undecided: true };

/**
 * The formula at the `$` at `start`, its closer within `reach` characters. `missing` holds the closers
 * known to be absent from the rest of `s` (filled here), so each is searched for once per parse.
 */
export function dollarMath(s: string, start: number, reach: number, missing: Set<string>): MathMatch {
  const next = s.charAt(start + 1);
  if (next === '$') return findMath(s, start, 2, '$$', true, reach, missing);
  if (next === '') return NOT_YET; // may yet be `$$` or `$x…`
  return WHITESPACE_CHAR.test(next) ? NONE : findMath(s, start, 1, '$', false, reach, missing);
}

/** The formula at the `\` at `start`: `\(…\)`, or `\[…\]` where `\[` starts a line. As {@link dollarMath}. */
export function backslashMath(s: string, start: number, reach: number, missing: Set<string>): MathMatch {
  const next = s.charAt(start + 1);
  if (next === '(') return findMath(s, start, 2, '\\)', false, reach, missing);
  if (next === '[' && /(?:^|\n)[ \t]*$/.test(s.slice(Math.max(0, start - 64), start))) return findMath(s, start, 2, '\\]', true, reach, missing);
  return NONE;
}

/** A formula from `start` whose TeX follows `open` delimiter characters and ends at the next `closer`. */
function findMath(s: string, start: number, open: number, closer: string, display: boolean, reach: number, missing: Set<string>): MathMatch {
  const dollar = closer === '$';
  let close = missing.has(closer) ? -1 : s.indexOf(closer, start + open);
  while (dollar && close > 0 && s.charCodeAt(close - 1) === 92 /* \ */) close = s.indexOf('$', close + 1);
  if (close === -1 || close - start > reach) {
    if (close === -1) missing.add(closer);
    return NOT_YET;
  }
  const tex = s.slice(start + open, close);
  if (!/\S/.test(tex) || (dollar && (WHITESPACE_CHAR.test(s.charAt(close - 1)) || /[0-9]/.test(s.charAt(close + 1)) || tex.includes('`')))) return NONE;
  // a digit may still follow a `$` closer at the end
  return { end: close + closer.length, tex, display, undecided: dollar && close === s.length - 1 };
}
