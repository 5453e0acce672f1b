/**
 * Redaction of secrets (an API key, secret header values) from text the SDK shows, stores or sends back
 * to the model. Only values that look like real secrets are redacted, so a placeholder key such as
 * `ollama` or `k` never garbles ordinary words.
 *
 * Which values are secrets: trimmed, at least {@link MIN_SECRET_LENGTH} characters long, no whitespace, and
 * either at least {@link ALWAYS_SECRET_LENGTH} characters long or mixing at least two of lower-case letters,
 * upper-case letters and digits (`sk-proj-…`, `gsk_4f7a…`, `token-abc123`; not `ollama`, `EMPTY`,
 * `lm-studio`, `sk-no-key-required`). Eight characters is the floor because a shorter value cannot be a real
 * key (every provider's is far longer, and one that short is guessed in seconds anyway), while redacting it
 * would cut through ordinary text: a one-character "key" would erase that letter everywhere.
 *
 * Where they are redacted: every occurrence, inside a longer word too (`x<key>y` hides the key as well), and
 * the copies a URL or a header carries — the `encodeURIComponent` form, and the base64 and base64url forms.
 * A secret inside base64 (`Basic base64("user:<key>")`, a data URL) is encoded together with its
 * neighbours: base64 turns each 3 bytes into 4 characters, and the characters that also hold bits of a
 * neighbouring byte change with it. So for each of the three places the secret can start in a 3-byte group,
 * the characters that hold only the secret's bits (all but the first and last one or two) are redacted:
 * at most two characters at either end of the copy stay. Hex and other re-encodings are not redacted: they
 * do not come from a URL or a header but from deliberately re-writing the key, which no list of copies
 * can follow.
 */

/** Values shorter than this are never treated as secrets (placeholders like `ollama`, `EMPTY`, `k`). */
export const MIN_SECRET_LENGTH = 8;
/** Values at least this long are secrets whatever their characters. */
export const ALWAYS_SECRET_LENGTH = 24;
/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/** Whether `value` looks like a real secret (see the module rule), not a placeholder or a word. */
export function isSecretLike(value: string): boolean {
  const v = value.trim();
  if (v.length < MIN_SECRET_LENGTH || /\s/.test(v)) return false;
  if (v.length >= ALWAYS_SECRET_LENGTH) return true;
  const classes = Number(/[a-z]/.test(v)) + Number(/[A-Z]/.test(v)) + Number(/[0-9]/.test(v));
  return classes >= 2;
}

// Headers that describe the request rather than who sends it; every other header may carry a credential
// (`Authorization`, `X-Api-Key`, a gateway's own `X-Portkey-Key` …).
const PLAIN_HEADER = /^(accept(-language)?|content-(type|language)|cache-control|user-agent|(http-)?referer|x-title|[\w-]+-(version|beta))$/i;

/**
 * The values of `headers` to redact: every header's except those that describe the request (`Accept`,
 * `Content-Type`, `User-Agent`, `*-Version` …), each whole and, after an auth scheme (`Bearer <token>`),
 * the credential alone. Only those that look like secrets are then redacted ({@link isSecretLike}).
 */
export function secretHeaderValues(headers: Readonly<Record<string, string>> = {}): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!PLAIN_HEADER.test(name)) values.push(value, value.trim().replace(/^[A-Za-z][\w-]*\s+(?=\S+$)/, ''));
  }
  return values;
}

/** The strings `secret` is redacted as: itself, its URL-encoded form and its base64 cores (see the module). */
function copiesOf(secret: string): string[] {
  // (a lone surrogate, which encodeURIComponent refuses, is sent as U+FFFD, as TextEncoder writes it)
  const copies = [secret, encodeURIComponent(secret.replace(/\p{Cs}/gu, '\uFFFD'))];
  const bytes = String.fromCharCode(...new TextEncoder().encode(secret));
  for (let lead = 0; lead < 3; lead++) {
    // `lead` bytes of the text before it share the secret's first 3-byte group
    const core = btoa('\0'.repeat(lead) + bytes).slice(Math.ceil((lead * 4) / 3), Math.floor(((lead + bytes.length) * 4) / 3));
    copies.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return copies;
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
  /** `text` with every secret (and its URL-encoded and base64 copies) replaced by `[redacted]`. */
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
  const secrets = [...values].map((v) => v.trim()).filter(isSecretLike);
  const copies = [...new Set(secrets.flatMap(copiesOf))];

  /** The spans of `text` that hold a copy, left to right, overlapping ones merged. */
  function matches(text: string): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    for (const copy of copies) {
      for (let at = text.indexOf(copy); at >= 0; at = text.indexOf(copy, at + 1)) found.push([at, at + copy.length]);
    }
    found.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const [start, end] of found) {
      const last = merged[merged.length - 1];
      if (last && start <= last[1]) last[1] = Math.max(last[1], end);
      else merged.push([start, end]);
    }
    return merged;
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

  /** Length of the longest tail of `text` that is the start of a copy (a whole one included). */
  function tailLength(text: string): number {
    let best = 0;
    for (const copy of copies) {
      for (let k = Math.min(copy.length, text.length); k > best; k--) {
        if (text.endsWith(copy.slice(0, k))) {
          best = k;
          break;
        }
      }
    }
    return best;
  }

  const redact = (text: string): string => (copies.length === 0 ? text : apply(text, matches(text)));

  return {
    empty: copies.length === 0,
    redact,
    stream(): StreamRedactor {
      let held = '';
      return {
        push(text) {
          if (copies.length === 0) return text;
          const buffer = held + text;
          const spans = matches(buffer);
          let cut = buffer.length - tailLength(buffer);
          // never cut through a secret found whole
          for (const [start, end] of spans) if (start < cut && cut < end) cut = start;
          held = buffer.slice(cut);
          return apply(buffer.slice(0, cut), spans.filter(([, end]) => end <= cut));
        },
        end() {
          const out = redact(held);
          held = '';
          return out;
        },
      };
    },
  };
}
