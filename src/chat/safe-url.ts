/** Schemes a rendered link or image may use; everything else (javascript:, vbscript:, data:, file:, blob: …) is refused. */
const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:']);

// Named references that decode to characters able to change how a scheme reads (separators, spaces,
// punctuation). ASCII letters and digits have no named references, so a scheme cannot be spelt with
// others; anything undecoded that is left in the scheme part makes the URL refused (see below).
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', semi: ';', comma: ',', period: '.',
  sol: '/', bsol: '\\', lpar: '(', rpar: ')', num: '#', quest: '?', excl: '!', equals: '=', plus: '+',
  percnt: '%', commat: '@', lowbar: '_', hyphen: '-', dash: '-', Tab: '\t', NewLine: '\n', nbsp: '\u00a0',
  ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', ZeroWidthSpace: '\u200b', zwnj: '\u200c', zwj: '\u200d',
  shy: '\u00ad', lsqb: '[', rsqb: ']', lbrack: '[', rbrack: ']', lcub: '{', rcub: '}', verbar: '|',
  vert: '|', grave: '`', Hat: '^', ast: '*', dollar: '$',
};

const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,8});?|#([0-9]{1,10});?|([a-zA-Z][a-zA-Z0-9]{1,31});?)/g;

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec ?? '', 10);
    // NUL, surrogates and out-of-range code points decode to U+FFFD, as the HTML tokenizer does.
    if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
    return String.fromCodePoint(code);
  });
}

// C0/C1 controls, DEL, every Unicode space and separator, zero-width and bidi formatting characters, BOM.
const INVISIBLE = /[\u0000-\u0020\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]/g;

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Checks a link or image URL from untrusted text against an allow-list and returns the string to use,
 * or `null` when it must not become a live link.
 *
 * HTML character references are decoded first (numeric with or without `;`, and the named ones that
 * spell separators or spaces, such as `&colon;` and `&Tab;`), then every whitespace, control, zero-width
 * and bidi character is removed anywhere in the string. The result is allowed when it is relative (no
 * scheme, including `//host` and `?query`) or its scheme is `http:`, `https:` or `mailto:` (any case), as
 * the browser's own URL parser reads it. A reference left undecoded before the first `/`, `?` or `#`
 * refuses the URL, so no spelling the browser might read differently gets through. Empty input is refused.
 * The returned string is the decoded, cleaned one that was checked, so what is used is what was checked.
 * @example safeUrl('jav&#x09;ascript:alert(1)') // null
 * @example safeUrl(' https://example.com/a ') // 'https://example.com/a'
 */
export function safeUrl(href: string): string | null {
  const cleaned = decodeEntities(href).replace(INVISIBLE, '');
  if (cleaned === '') return null;
  const head = cleaned.split(/[/?#]/, 1)[0] ?? '';
  if (/&[a-zA-Z0-9#]/.test(head)) return null;
  let parsed: URL;
  try {
    parsed = new URL(cleaned, 'https://relative.invalid/');
  } catch {
    return null;
  }
  if (!ALLOWED_PROTOCOLS.has(parsed.protocol)) return null;
  const scheme = SCHEME.exec(cleaned)?.[1]?.toLowerCase();
  if (scheme !== undefined && !ALLOWED_PROTOCOLS.has(`${scheme}:`)) return null;
  return cleaned;
}
