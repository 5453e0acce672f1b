/**
 * Redaction of secrets (an API key, secret header values) from text the SDK shows, stores or sends back
 * to the model. Only values that look like real secrets are redacted, so a placeholder key such as
 * `ollama` or `k` never garbles ordinary words.
 *
 * The rule, in full: a value is a secret when, trimmed, it is at least {@link MIN_SECRET_LENGTH} characters
 * long, has no whitespace, and either is at least {@link ALWAYS_SECRET_LENGTH} characters long or mixes at
 * least two of lower-case letters, upper-case letters and digits (`sk-proj-…`, `gsk_4f7a…`, `token-abc123`;
 * not `ollama`, `EMPTY`, `lm-studio`, `sk-no-key-required`). A secret of {@link ALWAYS_SECRET_LENGTH}
 * characters or more is redacted wherever it occurs; a shorter one only as a whole token (not preceded or
 * followed by a letter or digit), so it never cuts into a longer word.
 */

/** Values shorter than this are never treated as secrets (placeholders like `ollama`, `EMPTY`, `k`). */
export const MIN_SECRET_LENGTH = 8;
/** Values at least this long are secrets whatever their characters, and are redacted even inside words. */
export const ALWAYS_SECRET_LENGTH = 24;
/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether `value` looks like a real secret (see the module rule), not a placeholder or a word. */
export function isSecretLike(value: string): boolean {
  const v = value.trim();
  if (v.length < MIN_SECRET_LENGTH || /\s/.test(v)) return false;
  if (v.length >= ALWAYS_SECRET_LENGTH) return true;
  const classes = Number(/[a-z]/.test(v)) + Number(/[A-Z]/.test(v)) + Number(/[0-9]/.test(v));
  return classes >= 2;
}

/** Redacts streamed text piece by piece; a secret cut across pieces is still redacted. */
export interface StreamRedactor {
  /**
   * Takes the next piece and returns the text that is safe to show now. Only a tail that could be the
   * start of a secret is held back (until the next piece or {@link StreamRedactor.end}).
   */
  push(text: string): string;
  /** Returns the held-back tail, redacted. */
  end(): string;
}

/** Redacts a fixed set of secrets. */
export interface Redactor {
  /** `text` with every secret replaced by `[redacted]`. */
  redact(text: string): string;
  /** A redactor for one stream of pieces (deltas). */
  stream(): StreamRedactor;
  /** True when there is nothing to redact (every value was a placeholder or empty). */
  readonly empty: boolean;
}

/**
 * Makes a redactor for the values that are secrets by the module rule (the others are ignored).
 *
 * @example
 * const r = createRedactor([apiKey]);
 * r.redact(`upstream rejected Bearer ${apiKey}`); // "upstream rejected Bearer [redacted]"
 */
export function createRedactor(values: Iterable<string>): Redactor {
  const secrets = [...new Set([...values].map((v) => v.trim()).filter(isSecretLike))].sort((a, b) => b.length - a.length);

  /**
   * Secret occurrences in `text`, left to right, not overlapping. `before` is the character before `text`
   * (for the token rule); `closed` says whether the text ends there (else a match at the very end waits).
   */
  function matches(text: string, before: string, closed: boolean): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    for (const secret of secrets) {
      const whole = secret.length < ALWAYS_SECRET_LENGTH;
      for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
        const end = at + secret.length;
        if (whole) {
          const prev = at === 0 ? before : text[at - 1]!;
          const next = end === text.length ? '' : text[end]!;
          if (WORD_CHAR.test(prev) || WORD_CHAR.test(next)) continue;
          if (end === text.length && !closed) continue;
        }
        found.push([at, end]);
      }
    }
    found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const kept: Array<[number, number]> = [];
    for (const m of found) if (kept.length === 0 || m[0] >= kept[kept.length - 1]![1]) kept.push(m);
    return kept;
  }

  function apply(text: string, spans: Array<[number, number]>): string {
    let out = '';
    let from = 0;
    for (const [start, end] of spans) {
      out += text.slice(from, start) + REDACTED;
      from = end;
    }
    return out + text.slice(from);
  }

  /** Length of the longest tail of `text` that is the start of a secret (a whole one included). */
  function tailLength(text: string): number {
    let best = 0;
    for (const secret of secrets) {
      for (let k = Math.min(secret.length, text.length); k > best; k--) {
        if (text.endsWith(secret.slice(0, k))) {
          best = k;
          break;
        }
      }
    }
    return best;
  }

  const redact = (text: string): string => (secrets.length === 0 ? text : apply(text, matches(text, '', true)));

  return {
    empty: secrets.length === 0,
    redact,
    stream(): StreamRedactor {
      let held = '';
      let before = '';
      return {
        push(text) {
          if (secrets.length === 0) return text;
          const buffer = held + text;
          const spans = matches(buffer, before, false);
          let cut = buffer.length - tailLength(buffer);
          // never cut through a secret found whole
          for (const [start, end] of spans) if (start < cut && cut < end) cut = start;
          held = buffer.slice(cut);
          const out = apply(buffer.slice(0, cut), spans.filter(([, end]) => end <= cut));
          if (cut > 0) before = buffer[cut - 1]!;
          return out;
        },
        end() {
          const out = secrets.length === 0 ? '' : apply(held, matches(held, before, true));
          held = '';
          return out;
        },
      };
    },
  };
}
