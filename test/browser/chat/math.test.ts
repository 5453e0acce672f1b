/**
 * Math in answers: TeX delimiters become MathML from a lazily loaded renderer; prices stay text; an open
 * formula shows as source; invalid and hostile formulas stay inert; every chunking gives the same DOM.
 */
import { expect as chaiExpect } from '@open-wc/testing';
import { describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { createMarkdownStream, renderMarkdown, type MarkdownOptions } from '../../../src/chat/markdown.js';
import { loadMath } from '../../../src/chat/markdown/math.js';
import { MAX_ELEMENTS, MAX_TOKENS, mathWork } from '../../../src/chat/markdown/math-budget.js';
import { $, $$, chatFixture, pushAll, textRun, until } from './helpers.js';
import { renderThroughElement, renderThroughStream } from './markdown-conformance.js';
import { seededRandom } from '../../helpers/random.js';

const mathLoads = (): number =>
  performance.getEntriesByType('resource').filter((e) => /\/markdown\/math-render\.ts(\?|$)/.test(e.name)).length;

function render(text: string, options?: MarkdownOptions): HTMLElement {
  const el = document.createElement('div');
  document.body.append(el);
  renderMarkdown(el, text, options);
  return el;
}

const formulas = (el: Element): Element[] => [...el.querySelectorAll('[part~="math"]')];

describe('math', () => {
  it('loads the renderer only when a formula appears; prices never load it', async () => {
    const el = render('Costs $5 and $10, or $5-$10; US$5 and US$6. Code: `$x$`.');
    await new Promise((r) => setTimeout(r, 50));
    expect(formulas(el)).toEqual([]);
    expect(el.textContent).toBe('Costs $5 and $10, or $5-$10; US$5 and US$6. Code: $x$.');
    expect(mathLoads()).toBe(0);
    // before the renderer arrives, a formula shows its source
    const f = render('Euler: $e^{i\\pi}+1=0$.');
    expect(formulas(f).map((s) => s.textContent)).toEqual(['$e^{i\\pi}+1=0$']);
    await until(() => f.querySelector('math') !== null, 'MathML');
    expect(mathLoads()).toBe(1);
    el.remove();
    f.remove();
  });

  it('renders display and inline forms as MathML', async () => {
    await loadMath();
    const el = render(
      'Inline $a^2+b^2=c^2$ and \\(\\sqrt{x}\\).\n\n$$\n\\int_0^1 x\\,dx = \\frac12\n$$\n\n\\[\n\\sum_{n=1}^\\infty \\frac{1}{n^2}\n\\]\n\nInline $$x$$ display too.',
    );
    const spans = formulas(el);
    expect(spans.map((s) => s.getAttribute('part'))).toEqual(['math', 'math', 'math math-display', 'math math-display', 'math math-display']);
    for (const s of spans) {
      const math = s.querySelector('math')!;
      expect(math.namespaceURI).toBe('http://www.w3.org/1998/Math/MathML');
      // the source rides along as the TeX annotation
      expect(math.querySelector('annotation[encoding="application/x-tex"]')).not.toBeNull();
    }
    expect(spans[2]!.querySelector('math')!.getAttribute('display')).toBe('block');
    expect(spans[0]!.querySelector('msup')).not.toBeNull();
    expect(spans[1]!.querySelector('msqrt')).not.toBeNull();
    expect(spans[3]!.querySelector('munderover, msubsup')).not.toBeNull();
    el.remove();
  });

  it('leaves currency and other dollar signs alone', async () => {
    await loadMath();
    const cases: Array<[string, string[]]> = [
      ['It costs $5 and $10.', []],
      ['From $5-$10 a month', []],
      ['$5 and the $x$ value', ['x']],
      ['Pay $ 5 $ now', []],
      ['Escaped \\$x\\$ stays', []],
      ['A $x$, then $y$.', ['x', 'y']],
      ['Price $20$5', []],
      ['$$ $$ empty', []],
      ['\\(\\) empty', []],
      ['mid-line \\[x\\] is not display', []],
    ];
    for (const [text, tex] of cases) {
      const el = render(text);
      expect(formulas(el).map((s) => s.querySelector('annotation')?.textContent), text).toEqual(tex);
      el.remove();
    }
  });

  it('shows an invalid formula as its source with an error mark', async () => {
    await loadMath();
    const el = render('Broken: $\\frac{1}{$ and $\\undefinedmacro{x}$ and fine $x$.');
    const [a, b, c] = formulas(el);
    expect(a!.getAttribute('part')).toBe('math math-error');
    expect(a!.textContent).toBe('$\\frac{1}{$');
    expect(a!.querySelector('math')).toBeNull();
    expect(a!.getAttribute('title')).not.toBe('');
    expect(b!.getAttribute('part')).toBe('math math-error');
    expect(b!.textContent).toBe('$\\undefinedmacro{x}$');
    expect(c!.getAttribute('part')).toBe('math');
    expect(c!.querySelector('math')).not.toBeNull();
    el.remove();
  });

  it('keeps hostile formulas inert and bounded', async () => {
    await loadMath();
    const w = window as unknown as { pwned?: number };
    w.pwned = 0;
    const hostile = [
      '\\href{javascript:window.pwned=1}{click}',
      '\\url{javascript:window.pwned=2}',
      '\\htmlData{foo=bar}{x}',
      '\\htmlStyle{background:url(javascript:window.pwned=3)}{x}',
      '\\htmlId{x}{y}',
      '\\rule{100000em}{100000em}',
      '\\rule{100000cm}{100000cm}',
      `${'{'.repeat(1900)}x${'}'.repeat(1900)}`,
      '\\def\\a{\\b\\b\\b\\b}\\def\\b{\\c\\c\\c\\c}\\def\\c{\\d\\d\\d\\d}\\def\\d{\\e\\e\\e\\e}\\def\\e{xxxx}\\a\\a\\a\\a',
      '\\def\\x{\\x}\\x',
      '\\newcommand{\\y}{\\y\\y}\\y',
      '\\gdef\\leak{LEAK}x',
      '\\leak',
      '<img src=x onerror="window.pwned=4">',
      '\\text{<script>window.pwned=5</script>}',
    ];
    const el = render(hostile.map((tex) => `$$${tex}$$`).join('\n\n'));
    const spans = formulas(el);
    expect(spans).toHaveLength(hostile.length);
    for (const node of el.querySelectorAll('*')) {
      for (const { name, value } of node.attributes) {
        expect(name, `${node.nodeName}[${name}]`).not.toMatch(/^on|^href$|^src$/i);
        if (name !== 'title') expect(value).not.toMatch(/javascript:/i); // an error's title is its message, as text
      }
      expect(['A', 'IMG', 'SCRIPT', 'IFRAME', 'STYLE']).not.toContain(node.nodeName);
    }
    // sizes are capped: no formula is taller or wider than a page
    for (const s of spans) {
      const box = s.getBoundingClientRect();
      expect(box.height).toBeLessThan(2000);
    }
    // macros defined in one formula do not leak into the next
    expect(spans[12]!.textContent).not.toContain('LEAK');
    // the macro bombs stop with an error
    expect(spans[9]!.getAttribute('part')).toContain('math-error');
    expect(spans[10]!.getAttribute('part')).toContain('math-error');
    await new Promise((r) => setTimeout(r, 50));
    expect(w.pwned).toBe(0);
    el.remove();
  });

  it('shows an open formula as its source until it closes, while streaming', async () => {
    await loadMath();
    const el = document.createElement('div');
    document.body.append(el);
    const md = createMarkdownStream(el);
    md.append('The area is $\\pi r^');
    expect(formulas(el)).toEqual([]);
    expect(el.textContent).toBe('The area is $\\pi r^');
    md.append('2');
    expect(formulas(el)).toEqual([]);
    md.append('$ square units.');
    expect(formulas(el)).toHaveLength(1);
    expect(formulas(el)[0]!.querySelector('math')).not.toBeNull();
    md.append(' Display:\n\n$$\n\\frac{a}{');
    expect(formulas(el)).toHaveLength(1);
    expect(el.textContent).toContain('$$\n\\frac{a}{');
    md.append('b}\n$$\n');
    md.end();
    expect(formulas(el)).toHaveLength(2);
    el.remove();
  });

  it('renders the same DOM at every chunking', async () => {
    await loadMath();
    const text = [
      'Prices $5 and $10 stay; $x^2$ and \\(\\alpha\\) render.',
      '',
      '$$',
      'E = mc^2',
      '$$',
      '',
      '\\[ \\int f \\]',
      '',
      '- item with $a_i$',
      '- *emph $b$* and `$c$`',
      '',
      '| a | b |',
      '|---|---|',
      '| $x$ | $5 |',
      '',
      'Broken $\\frac{$ end and $y$5 and $$ unclosed',
    ].join('\n');
    const whole = await renderThroughElement([text]);
    expect(whole).toContain('<math');
    expect(await renderThroughElement([...text]), 'one character per delta').toBe(whole);
    const next = seededRandom(7);
    const pieces: string[] = [];
    for (let at = 0; at < text.length; ) {
      const size = 1 + Math.floor(next() * 12);
      pieces.push(text.slice(at, at + size));
      at += size;
    }
    expect(await renderThroughElement(pieces), 'random 1-12 character deltas').toBe(whole);
    expect(renderThroughStream([...text]), 'markdown stream, one character per append').toBe(whole);
  });

  it('copies a selection with formulas as their TeX source', async () => {
    await loadMath();
    const chat = await chatFixture();
    await pushAll(chat, textRun('q', ['Area $\\pi r^2$ and\n\n$$E=mc^2$$\n\nend.']));
    const answer = $(chat, '[part~="answer-text"]')!;
    await until(() => answer.querySelectorAll('math').length === 2, 'MathML');
    await new Promise((r) => setTimeout(r, 0));
    const selection = window.getSelection()!;
    selection.selectAllChildren(answer);
    const clipboardData = new DataTransfer();
    const event = new ClipboardEvent('copy', { clipboardData, bubbles: true, composed: true, cancelable: true });
    answer.querySelector('p')!.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(clipboardData.getData('text/plain')).toBe('Area $\\pi r^2$ and\n$$E=mc^2$$\nend.');
    selection.removeAllRanges();
  });

  it('can be turned off: TeX shows as written', async () => {
    const el = render('$x$ and \\(y\\) and $$z$$', { math: false });
    expect(formulas(el)).toEqual([]);
    expect(el.textContent).toBe('$x$ and (y) and $$z$$');
    el.remove();
    const chat = await chatFixture((c) => (c.math = false));
    await pushAll(chat, textRun('q', ['Area $\\pi r^2$.']));
    expect($$(chat, '[part~="math"]')).toEqual([]);
    expect($(chat, '[part~="answer-text"]')!.textContent).toBe('Area $\\pi r^2$.');
  });

  it('screenshot: math in light and dark', async () => {
    await loadMath();
    for (const theme of ['light', 'dark'] as const) {
      const el = await chatFixture((c) => {
        c.theme = theme;
        c.style.width = '640px';
      });
      await pushAll(el, textRun('Explain', [
        'The roots of $ax^2+bx+c=0$ are\n\n$$x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$$\n\nand $\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}$. It costs $5 and $10. Broken: $\\frac{1}{$ and $\\badmacro$.',
      ]));
      await page.viewport(700, 500);
      await new Promise((r) => requestAnimationFrame(() => r(undefined)));
      await page.screenshot({ element: el, path: `../../../test-results/screens/math-${theme}.png` });
    }
  });
});

// Formulas within the 4,096-character reach whose expansion or MathML would be huge: each makes more than
// MAX_TOKENS tokens or MAX_ELEMENTS elements, or nests deeper than MAX_DEPTH.
const x = (n: number): string => 'x'.repeat(n);
const OVERSIZED: Array<[string, string]> = [
  // the formula, 4,008 characters: a million tokens after 300 expansions
  ['\\def of 3,400 tokens used 300 times', `\\def\\b{${x(3400)}}${'\\b'.repeat(300)}`],
  ['\\newcommand', `\\newcommand{\\b}{${x(3400)}}${'\\b'.repeat(6)}`],
  ['\\gdef', `\\gdef\\b{${x(3400)}}${'\\b'.repeat(6)}`],
  ['\\edef of a macro', `\\def\\b{${x(250)}}\\edef\\c{\\b}${'\\c'.repeat(100)}`],
  ['nested macros', `\\def\\a{${x(100)}}\\def\\b{${'\\a'.repeat(100)}}\\b\\b`],
  ['\\let chain', `\\def\\b{${x(3400)}}\\let\\c\\b\\let\\d\\c${'\\c\\d'.repeat(3)}`],
  ['an argument pasted 100 times', `\\def\\a#1{${'#1'.repeat(100)}}\\a{${x(200)}}`],
  ['pasted arguments thrown away by \\expandafter', `\\def\\a#1{${'#1'.repeat(1000)}}\\def\\g#1{}\\def\\R{\\expandafter\\g\\expandafter{\\a{${x(100)}}}}${'\\R '.repeat(59)}y`],
  ['\\global\\long\\def with a delimited argument', `\\global\\long\\def\\a#1.{${'#1'.repeat(100)}}\\a ${x(200)}.`],
  ['a matrix padded to its first row', `\\begin{matrix}${'&'.repeat(150)}${'\\\\'.repeat(100)}\\end{matrix}`],
  ['30 nested \\llap (each builds its argument twice)', `${'\\llap{'.repeat(30)}x${'}'.repeat(30)}`],
  ['100 nested \\hphantom (laid out in cubic time)', `${'\\hphantom{'.repeat(100)}x${'}'.repeat(100)}`],
];

describe('math: the work and size of a formula are bounded', () => {
  const labels = { mathTooLargeLabel: 'Too large!', mathLabel: 'A formula' };

  it('shows a formula that would expand too far or build too much as its source, with the error', async () => {
    await loadMath();
    expect(OVERSIZED[0]![1]).toHaveLength(4008);
    for (const [name, tex] of OVERSIZED) {
      const before = { ...mathWork };
      const el = render(`$$${tex}$$`, labels);
      const [span] = formulas(el);
      expect(span!.getAttribute('part'), name).toBe('math math-display math-error');
      expect(span!.textContent, name).toBe(`$$${tex}$$`);
      expect(span!.getAttribute('title'), name).toBe('Too large!');
      expect(span!.querySelector('math'), name).toBeNull();
      // expansion stopped at the limit (one parse), and no element was built
      expect(mathWork.tokens - before.tokens, name).toBeLessThanOrEqual(MAX_TOKENS);
      expect(mathWork.elements - before.elements, name).toBe(0);
      el.remove();
    }
  });

  it('still renders formulas that fill the reach, with their own macros', async () => {
    await loadMath();
    // 4,096 characters with the delimiters: one MathML element per character
    const long = 'a+'.repeat(2046);
    const macros = [
      '\\newcommand{\\norma}[1]{\\left\\|#1\\right\\|}\\def\\R{\\mathbb{R}}\\let\\eps\\varepsilon',
      '\\def\\pair#1#2{(#1,#2)}\\edef\\one{1}\\gdef\\half{\\frac{\\one}{2}}',
      '\\norma{\\pair{x}{y}} \\le \\half \\eps \\in \\R',
    ].join('');
    const el = render(`$$${long}$$\n\n$$${macros}$$`, labels);
    expect(`$$${long}$$`).toHaveLength(4096);
    const [a, b] = formulas(el);
    expect(a!.getAttribute('part')).toBe('math math-display');
    expect(a!.querySelectorAll('mi')).toHaveLength(2046);
    expect(b!.getAttribute('part')).toBe('math math-display');
    expect(b!.querySelector('mfrac')).not.toBeNull();
    expect(b!.textContent).toContain('ℝ');
    expect(MAX_ELEMENTS).toBeGreaterThan(a!.querySelectorAll('*').length);
    el.remove();
  });

  it('says a formula is too large in the reader’s language', async () => {
    await loadMath();
    for (const [lang, title] of [['zh-CN', '此公式过大，无法显示。'], ['ja', 'この数式は大きすぎて表示できません。'], ['en', 'This formula is too large to show.']] as const) {
      const chat = await chatFixture((c) => (c.lang = lang));
      await pushAll(chat, textRun('q', [`Here: $$${OVERSIZED[0]![1]}$$`]));
      await until(() => $(chat, '[part~="math-error"]')?.getAttribute('title') === title, `${lang} title`);
      chat.remove();
    }
  });

  // The tallest formulas found within the limits (4,092 characters, so that `$$` and `$` formulas both
  // fit the reach): rows spaced 200 pt or 20 em apart, \Huge 200 pt rules in rows.
  const fit = (open: string, unit: string, close: string): string =>
    open + unit.repeat(Math.floor((4092 - open.length - close.length) / unit.length)) + close;
  const TALL = [
    fit('\\begin{matrix}', 'x\\\\[200pt]', '\\end{matrix}'),
    fit('\\begin{array}{c}', 'x\\\\[20em]', '\\end{array}'),
    fit('\\Huge\\left(\\begin{array}{c}', '\\rule{1em}{200pt}\\\\', '\\end{array}\\right)'),
  ];

  it('keeps a tall formula within its box, which scrolls, takes focus and is named', async () => {
    await loadMath();
    const chat = await chatFixture((c) => (c.strings = { formula: 'Formula box' }));
    await pushAll(chat, textRun('q', [TALL.map((tex) => `$$${tex}$$\n\ninline $${tex}$ too`).join('\n\n')]));
    const spans = $$(chat, '[part~="math"]');
    await until(() => spans.every((s) => s.querySelector('math') && s.hasAttribute('tabindex')), 'scroll boxes');
    expect(spans).toHaveLength(TALL.length * 2);
    const limit = Math.min(40 * parseFloat(getComputedStyle(spans[0]!).fontSize), 0.75 * innerHeight);
    for (const span of spans) {
      const box = span.getBoundingClientRect();
      expect(box.height).toBeLessThanOrEqual(limit + 1);
      expect(span.querySelector('math')!.getBoundingClientRect().height).toBeGreaterThan(4 * limit);
      expect(span.scrollHeight).toBeGreaterThan(4 * limit);
      expect(span.getAttribute('tabindex')).toBe('0');
      expect(span.getAttribute('role')).toBe('group');
      expect(span.getAttribute('aria-label')).toBe('Formula box');
    }
    // a keyboard can scroll it
    const box = spans[0]!;
    box.focus();
    expect(chat.shadowRoot!.activeElement).toBe(box);
    await userEvent.keyboard('{End}');
    await until(() => box.scrollTop > 0, 'scrolled by the keyboard');
    chat.remove();
    // the boxes pass axe's checks (on a formula just taller than its box: axe is slow on huge ones)
    const small = await chatFixture();
    await pushAll(small, textRun('q', [`$$\\begin{matrix}${'x\\\\'.repeat(80)}\\end{matrix}$$ and $\\begin{matrix}${'x\\\\'.repeat(80)}\\end{matrix}$`]));
    await until(() => $$(small, '[part~="math"][tabindex="0"]').length === 2, 'two scroll boxes');
    await chaiExpect(small).to.be.accessible();
    await page.screenshot({ element: small, path: '../../../test-results/screens/math-tall.png' });
    small.remove();
  });

  it('leaves ordinary formulas unboxed: no scrolling, no tab stop', async () => {
    await loadMath();
    const ordinary = [
      '\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt\\pi}{2}',
      '\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}',
      '\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}',
      'f(x) = \\begin{cases} x^2 & x \\ge 0 \\\\ -x & x < 0 \\end{cases}',
      '\\overbrace{a+b}^{n} \\underbrace{c+d}_{m} \\hat{x} \\tilde{y} \\vec{v}',
      '\\left( \\frac{\\partial^2 u}{\\partial x^2} \\right) \\sqrt[3]{\\frac{a}{b}}',
      '\\prod_{i=1}^n \\bigcup_{k} A_k \\lim_{x\\to 0} \\frac{\\sin x}{x}',
      '\\begin{aligned} a &= b + c \\\\ &= d \\end{aligned}',
    ];
    const chat = await chatFixture();
    await pushAll(chat, textRun('q', [ordinary.map((tex) => `$$${tex}$$\n\nso $${tex}$.`).join('\n\n')]));
    const spans = $$(chat, '[part~="math"]');
    await until(() => spans.every((s) => s.querySelector('math')), 'MathML');
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (const span of spans) {
      const display = span.getAttribute('part')!.includes('math-display');
      const source = span.getAttribute('data-source')!;
      expect(getComputedStyle(span).overflowY, source).toBe(display ? 'hidden' : 'visible');
      expect(getComputedStyle(span).display, source).toBe(display ? 'block' : 'inline');
      if (display) expect(span.clientHeight, source).toBeGreaterThanOrEqual(span.querySelector('math')!.getBoundingClientRect().height - 1);
      expect(span.hasAttribute('tabindex'), source).toBe(false);
    }
    chat.remove();
  });
});
