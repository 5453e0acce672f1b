/**
 * File names as the element shows them. `<bdi>` only isolates a name from the text around it: inside it,
 * a RIGHT-TO-LEFT OVERRIDE still reverses what follows, so `invoice\u202Efdp.exe` reads "invoiceexe.pdf".
 */

// U+061C ARABIC LETTER MARK, U+200E/U+200F LRM/RLM, U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A file name to show: every bidirectional control character made visible as `⟨U+202E⟩` (its code point),
 * so the name reads in the order it was written and the trick shows. Other characters are kept.
 */
export function displayName(name: string): string {
  return name.replace(BIDI_CONTROLS, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
