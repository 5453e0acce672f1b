/**
 * The work bound of a formula: its own macros still expand exactly as Temml expands them, and expansion,
 * arrays and MathML stop at their limits before the work is done.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import temml from 'temml';
import { buildMathTree, countBuilt, MAX_DEPTH, MAX_ELEMENTS, MAX_NODES, MAX_TOKENS, MathTooLargeError, mathWork } from '../../../src/chat/markdown/math-budget.js';

interface MarkupTree { toMarkup(): string }
const OPTIONS = { throwOnError: true, trust: false, strict: false, maxExpand: 300, maxSize: [20, 200] as [number, number], annotate: true };
/** Temml's own rendering, with its own macro expansion and no bound beyond its 300 steps. */
const temmlMarkup = (tex: string): string => (temml.__renderToMathMLTree(tex, { ...OPTIONS, displayMode: true, macros: {} }) as MarkupTree).toMarkup();
const boundedMarkup = (tex: string): string => (buildMathTree(tex, true) as unknown as MarkupTree).toMarkup();
const outcome = (render: (tex: string) => string, tex: string): string => {
  try {
    return render(tex);
  } catch (error) {
    return `error: ${String(error)}`;
  }
};
const x = (n: number): string => 'x'.repeat(n);

describe('buildMathTree', () => {
  it.each([
    ['\\def', '\\def\\R{\\mathbb{R}}x\\in\\R'],
    ['\\def with parameters', '\\def\\pair#1#2{(#1,#2)}\\pair{a}{b}+\\pair x{\\frac12}'],
    ['a parameter used many times', '\\def\\t#1{#1#1#1}\\t{ab}\\t{\\t{c}}'],
    ['## in a body', '\\def\\a#1{\\def\\b##1{#1##1}\\b{y}}\\a{x}'],
    ['delimited parameters', '\\def\\d#1.#2;{[#1|#2]}\\d a.b;\\d {x}.{y};'],
    ['a leading delimiter', '\\def\\p(#1){\\langle #1\\rangle}\\p(q)'],
    ['a brace-delimited last parameter', '\\def\\h#1#{\\hat{#1}}\\h x{y}'],
    ['\\gdef, \\global\\def and \\long', '{\\gdef\\g{G}\\global\\def\\h#1{H#1}}\\long\\def\\l#1{L#1}\\g\\h1\\l2'],
    ['\\edef and \\xdef', '\\def\\a{A}\\edef\\b{\\a\\a}\\def\\a{Z}\\b{\\xdef\\c{\\b!}}\\c'],
    ['\\let and \\futurelet', '\\def\\a#1{[#1]}\\let\\b\\a\\let\\c=\\frac\\b{1}\\c12\\futurelet\\d\\a{x}'],
    ['\\newcommand, \\renewcommand, \\providecommand', '\\newcommand{\\n}[2]{#1^#2}\\newcommand\\m{M}\\renewcommand{\\m}[1]{\\tilde #1}\\providecommand{\\m}{no}\\n{a}{b}\\m{c}'],
    ['\\expandafter and \\noexpand', '\\def\\a#1{(#1)}\\def\\b{B}\\expandafter\\a\\b\\edef\\c{\\noexpand\\b}\\c'],
    ['macros inside \\operatorname, \\text and arrays', '\\def\\s#1{#1#1}\\operatorname{\\s{ab}}\\text{\\s{c}}\\begin{matrix}\\s{1}&\\s{2}\\\\3&4\\end{matrix}'],
    ['a missing argument', '\\def\\a#1{#1}\\a'],
    ['a lone # at the end of a body', '\\def\\a#1{#1#}\\a{x}'],
    ['a parameter out of order', '\\def\\a#2{x}\\a'],
  ])('expands a formula’s own macros as Temml does: %s', (_, tex) => {
    expect(outcome(boundedMarkup, tex)).toBe(outcome(temmlMarkup, tex));
  });

  it('refuses a placeholder past the parameters (Temml fails there with a TypeError)', () => {
    expect(outcome(temmlMarkup, '\\def\\a#1{#2}\\a{x}')).toMatch(/^error: TypeError/);
    expect(() => buildMathTree('\\def\\a#1{#2}\\a{x}', true)).toThrow(/Not a valid argument number/);
  });

  it.each([
    ['the 4,008-character \\def used 300 times', `\\def\\b{${x(3400)}}${'\\b'.repeat(300)}`],
    ['\\newcommand', `\\newcommand{\\b}{${x(3400)}}${'\\b'.repeat(300)}`],
    ['\\edef', `\\def\\b{${x(280)}}\\edef\\c{\\b}${'\\c'.repeat(290)}`],
    ['nested macros', `\\def\\a{${x(1000)}}\\def\\b{${'\\a'.repeat(250)}}\\b`],
    ['\\let', `\\def\\b{${x(3400)}}\\let\\c\\b${'\\c'.repeat(290)}`],
    ['one argument pasted 1,000 times', `\\def\\a#1{${'#1'.repeat(1000)}}\\a{${x(2000)}}`],
    ['pasted arguments that are thrown away', `\\def\\a#1{${'#1'.repeat(1000)}}\\def\\g#1{}\\def\\R{\\expandafter\\g\\expandafter{\\a{${x(100)}}}}${'\\R '.repeat(59)}y`],
    ['a \\def inside a \\def', `\\def\\a{\\def\\b{${x(3000)}}\\b\\b}${'\\a'.repeat(100)}`],
  ])('stops expanding at %s, before the tokens exist', (_, tex) => {
    const before = mathWork.tokens;
    expect(() => buildMathTree(tex, true)).toThrow(MathTooLargeError);
    expect(mathWork.tokens - before).toBeLessThanOrEqual(MAX_TOKENS);
    try {
      buildMathTree(tex, true);
    } catch (error) {
      expect(error).toMatchObject({ name: 'MathTooLargeError', limit: 'tokens' });
    }
  });

  it('counts array cells before Temml pads every row to the first row’s length', () => {
    const before = mathWork.elements;
    // 1,001 cells written, 501,501 once padded
    expect(() => buildMathTree(`\\begin{matrix}${'&'.repeat(1000)}${'\\\\'.repeat(500)}\\end{matrix}`, true)).toThrow(
      expect.objectContaining({ limit: 'nodes' }),
    );
    expect(mathWork.elements).toBe(before);
    // the same cells in full rows are built: a 45 × 45 matrix fills the reach
    const row = `${'x&'.repeat(44)}x\\\\`;
    const tex = `\\begin{matrix}${row.repeat(44)}\\end{matrix}`;
    expect(tex.length).toBeLessThanOrEqual(4092);
    buildMathTree(tex, true);
    expect(mathWork.elements - before).toBeGreaterThan(2 * 44 * 45);
    expect(countBuilt(temml.__parse(tex, OPTIONS), MAX_NODES)).toBeLessThan(MAX_NODES);
  });

  it.each([
    ['\\llap, which builds its argument twice', (a: string) => `\\llap{${a}}`, 30],
    ['\\cancelto, which builds its argument three times', (a: string) => `\\cancelto{x}{${a}}`, 20],
    ['\\equilibriumRight, which keeps its argument twice', (a: string) => `\\equilibriumRight{${a}}`, 20],
  ])('counts the nodes of %s before building them', (_, wrap, depth) => {
    // 30 nested \llap would build 2^30 copies of x: Temml alone runs out of memory
    let tex = 'x';
    for (let i = 0; i < depth; i++) tex = wrap(tex);
    const before = mathWork.elements;
    expect(() => buildMathTree(tex, true)).toThrow(expect.objectContaining({ limit: 'nodes' }));
    expect(mathWork.elements).toBe(before);
  });

  it('counts every command’s repeated builds: nested six deep, none builds more than 8 elements a counted node (and the formula)', () => {
    // every command name in Temml's sources, its argument nested in each position
    const root = new URL('../../../node_modules/temml/src/', import.meta.url);
    const files = [new URL('macros.js', root), new URL('symbols.js', root), ...readdirSync(new URL('functions/', root)).map((f) => new URL(`functions/${f}`, root))];
    const names = new Set<string>();
    for (const file of files) for (const m of readFileSync(file, 'utf8').matchAll(/"(\\\\[A-Za-z@]+)"/g)) names.add(m[1]!.replace(/\\\\/g, '\\'));
    expect(names.size).toBeGreaterThan(1000);
    const shapes = [
      (n: string, a: string) => `${n}{${a}}`, (n: string, a: string) => `${n}{${a}}{x}`, (n: string, a: string) => `${n}{x}{${a}}`,
      (n: string, a: string) => `${n}{x}{x}{${a}}`, (n: string, a: string) => `${n}[${a}]{x}`, (n: string, a: string) => `${n}_{${a}}^{x}`,
    ];
    const options = { ...OPTIONS, displayMode: true };
    const elements = (tree: unknown): number => {
      let count = 0;
      const stack = [tree as { children?: unknown[] }];
      while (stack.length > 0) {
        const node = stack.pop();
        if (node && Array.isArray(node.children)) {
          count += 1;
          stack.push(...(node.children as Array<{ children?: unknown[] }>));
        }
      }
      return count;
    };
    let built = 0;
    for (const name of names) {
      for (const shape of shapes) {
        let tex = 'xy';
        for (let depth = 1; depth <= 6; depth++) {
          tex = shape(name, tex);
          let tree: unknown, math: unknown;
          try {
            tree = temml.__parse(tex, { ...options, macros: {} });
            math = temml.__renderToMathMLTree(tex, { ...options, macros: {} });
          } catch {
            break;
          }
          built += 1;
          expect(elements(math), tex).toBeLessThanOrEqual(8 * (countBuilt(tree, Infinity) + 1));
        }
      }
    }
    expect(built).toBeGreaterThan(30_000);
  }, 120_000);

  it('refuses MathML nested deeper than MAX_DEPTH (Chromium lays it out in cubic time)', () => {
    const nested = (wrap: string, depth: number): string => `${wrap.repeat(depth)}x${'}'.repeat(depth)}`;
    for (const wrap of ['\\hphantom{', '\\vphantom{', '\\rlap{', '\\smash{', '\\mathinner{', '\\phantom{', '\\sqrt{', '\\frac{1}{']) {
      expect(() => buildMathTree(nested(wrap, MAX_DEPTH), true), wrap).toThrow(expect.objectContaining({ limit: 'depth' }));
    }
    // a continued fraction 15 deep is fine
    let cf = 'x';
    for (let k = 1; k <= 15; k++) cf = `a_{${k}}+\\cfrac{1}{${cf}}`;
    buildMathTree(cf, true);
  });

  it('refuses a MathML tree of more than MAX_ELEMENTS elements before any DOM is made', () => {
    const before = mathWork.elements;
    // ~2 elements a character: x' is <msup><mi>x</mi><mo>′</mo></msup>
    expect(() => buildMathTree("x'".repeat(2040), true)).toThrow(expect.objectContaining({ limit: 'elements' }));
    expect(mathWork.elements).toBe(before);
    buildMathTree("x'".repeat(1000), true);
    expect(mathWork.elements - before).toBeGreaterThan(3000);
  });

  it('builds a formula that fills the 4,096-character reach', () => {
    const before = { ...mathWork };
    buildMathTree('a+'.repeat(2046), true);
    expect(mathWork.elements - before.elements).toBeGreaterThan(4092);
    expect(mathWork.tokens - before.tokens).toBeLessThan(MAX_TOKENS);
  });

  it('keeps each formula’s macros to itself', () => {
    buildMathTree('\\gdef\\leak{LEAK}x', true);
    expect(() => buildMathTree('\\leak', true)).toThrow(/Undefined control sequence|leak/);
  });
});
