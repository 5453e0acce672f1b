// The library build squeezes the element's css`` text (build/minify-css.ts). Chromium must read the squeezed
// text as the very same rules as the source.
import { describe, expect, it } from 'vitest';
import type { CSSResult } from 'lit';
import { PagentChat } from '../../../src/chat/element.js';
import { squeezeCss } from '../../../build/minify-css.js';

const rules = (text: string): string[] => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text);
  return Array.from(sheet.cssRules, (r) => r.cssText);
};

describe('squeezed element styles', () => {
  it('parse to the same rules as the source, and are shorter', () => {
    // every sheet of the element, in its order
    const source = (PagentChat.styles as CSSResult[]).map((sheet) => sheet.cssText).join('\n');
    const squeezed = squeezeCss(source);
    expect(rules(source).length).toBeGreaterThan(50);
    expect(rules(squeezed)).toEqual(rules(source));
    expect(squeezed.length).toBeLessThan(source.length * 0.8);
  });

  it('keeps what whitespace means: descendant combinators, values with spaces, strings', () => {
    const source = `a :hover > b { margin: 0 auto; font: 12px / 1.5 'A  B', serif; }\n@media (min-width: 10px) and (max-width: 20px) { c d { color: red; } }`;
    expect(rules(squeezeCss(source))).toEqual(rules(source));
  });
});
