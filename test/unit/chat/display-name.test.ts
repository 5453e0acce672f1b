import { describe, expect, it } from 'vitest';
import { displayName } from '../../../src/chat/display-name.js';

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('displayName (file names as the element shows them)', () => {
  it('makes every bidirectional control visible as its code point', () => {
    expect(displayName('invoice\u202Efdp.exe')).toBe('invoice⟨U+202E⟩fdp.exe');
    const controls = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    const shown = displayName(controls.join('x'));
    expect(shown).toBe('⟨U+061C⟩x⟨U+200E⟩x⟨U+200F⟩x⟨U+202A⟩x⟨U+202B⟩x⟨U+202C⟩x⟨U+202D⟩x⟨U+202E⟩x⟨U+2066⟩x⟨U+2067⟩x⟨U+2068⟩x⟨U+2069⟩');
    expect(shown).not.toMatch(BIDI);
  });

  it('keeps every other character: right-to-left letters, CJK, emoji, spaces', () => {
    for (const name of ['تقرير.pdf', 'דוח 2024.txt', '報告書 📄.md', 'a  b.txt', '']) expect(displayName(name)).toBe(name);
  });
});
