import { afterEach, describe, expect, it, vi } from 'vitest';
import { expect as chaiExpect } from '@open-wc/testing';
import { createMarkdownStream, renderMarkdown, type MarkdownOptions } from '../../../src/chat/markdown.js';
import { loadEntities } from '../../../src/chat/markdown/entities.js';
import unicodeCapture from '../../fixtures/pagent/unicode.ndjson?raw';

const LINK = 'rel="noopener noreferrer" target="_blank" referrerpolicy="no-referrer"';
const COPY = '<button type="button" part="copy-button" aria-label="Copy code">Copy code</button>';
/** A code block as rendered: the header (language label, copy button) above `<pre><code>`. */
const CODE_BLOCK = (code: string, lang?: string): string =>
  `<div part="code-block"><div part="code-header"><span part="code-language">${lang ?? ''}</span>${COPY}</div>` +
  `<pre><code${lang ? ` class="language-${lang}"` : ''}>${code}</code></pre></div>`;

function whole(text: string, options?: MarkdownOptions): HTMLElement {
  const el = document.createElement('div');
  renderMarkdown(el, text, options);
  el.normalize();
  return el;
}

function streamed(chunks: Iterable<string>, options?: MarkdownOptions): HTMLElement {
  const el = document.createElement('div');
  const md = createMarkdownStream(el, options);
  for (const chunk of chunks) md.append(chunk);
  md.end();
  el.normalize();
  return el;
}

/** Deterministic pseudo-random splits (mulberry32). */
function randomSplits(text: string, seed: number, maxLen = 7): string[] {
  let s = seed >>> 0;
  const rand = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(rand() * maxLen);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('renderMarkdown', () => {
  it('renders headings, paragraphs, emphasis, strong, strikethrough and inline code', () => {
    expect(whole('# Title\n\nSome *em* and **strong** and `a < b` ~~gone~~.\n\n### Small').innerHTML).toBe(
      '<h1>Title</h1><p>Some <em>em</em> and <strong>strong</strong> and <code>a &lt; b</code> <del>gone</del>.</p><h3>Small</h3>',
    );
  });

  it('renders nested lists and keeps the start number of an ordered list', () => {
    expect(whole('- a\n  - b\n    - c\n- d\n\n3. three\n4. four\n').innerHTML).toBe(
      '<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li><li>d</li></ul><ol start="3"><li>three</li><li>four</li></ol>',
    );
  });

  it('renders a table with a header row, alignment and body rows', () => {
    const el = whole('| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\nafter');
    expect(el.innerHTML).toBe(
      '<table><thead><tr><th>a</th><th align="center">b</th></tr></thead>' +
        '<tbody><tr><td>1</td><td align="center">2</td></tr><tr><td>3</td><td align="center">4</td></tr></tbody></table><p>after</p>',
    );
  });

  it('puts the rows of a table past 100 rows in bodies of 100, with column widths from its first 100 rows on the first row of each section', () => {
    const rows = (from: number, to: number): string => Array.from({ length: to - from }, (_, k) => `| r${from + k} | ${from + k} | **x** |\n`).join('');
    const head = `| 名前 | b | ${'c'.repeat(60)} |\n|---|--:|---|\n`;
    // exactly 100 rows: one body, no widths
    const hundred = whole(head + rows(0, 100));
    expect(hundred.querySelectorAll('tbody')).toHaveLength(1);
    expect(hundred.querySelector('table')!.hasAttribute('data-chunked')).toBe(false);
    expect(hundred.querySelectorAll('[style]')).toHaveLength(0);
    // 250 rows, a late definition re-rendering the first row of the second body
    const text = `${head}${rows(0, 100)}| [d] | 100 | y |\n${rows(101, 250)}\n[d]: https://example.com/d\n`;
    const el = everyWay(text);
    const table = el.querySelector('table')!;
    expect(table.hasAttribute('data-chunked')).toBe(true);
    expect([...table.tBodies].map((b) => b.rows.length)).toEqual([100, 100, 50]);
    expect(table.rows).toHaveLength(251);
    expect(table.tBodies[1]!.rows[0]!.querySelector('a')?.getAttribute('href')).toBe('https://example.com/d');
    // "名前": two wide characters; "r99" and "99" the longest of their columns; 60 characters: the cap of
    // 40; one character more, at 0.6 em each
    const widths = ['3em', '1.8em', '24em'];
    for (const section of [table.tHead!, ...table.tBodies]) {
      expect([...section.rows[0]!.cells].map((c) => c.style.width)).toEqual(widths);
      expect(section.querySelectorAll('tr:not(:first-child) [style]')).toHaveLength(0);
    }
  });

  it('renders a fenced code block as text under a header with its language and a copy button', () => {
    expect(whole('```js\nif (a < b) alert("<b>");\n```\n').innerHTML).toBe(
      CODE_BLOCK('if (a &lt; b) alert("&lt;b&gt;");\n', 'js'),
    );
  });

  it('renders an indented code block', () => {
    expect(whole('    indented code\n\npara').innerHTML).toBe(`${CODE_BLOCK('indented code\n')}<p>para</p>`);
  });

  it('copies the code text through the clipboard when the copy button is clicked', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    const el = whole('```py\nprint("hi")\nx = 1\n```\n', { copyLabel: '复制代码' });
    document.body.append(el);
    const button = el.querySelector('button')!;
    expect(button.getAttribute('aria-label')).toBe('复制代码');
    button.click();
    expect(writeText).toHaveBeenCalledWith('print("hi")\nx = 1\n');
    await vi.waitFor(() => expect(button.hasAttribute('data-copied')).toBe(true));
    el.remove();
  });

  it('renders blockquotes, soft and hard line breaks and horizontal rules', () => {
    expect(whole('> quote\n> more  \n> last\n\n---\n\ntext').innerHTML).toBe(
      '<blockquote><p>quote\nmore<br>last</p></blockquote><hr><p>text</p>',
    );
  });

  it('renders task list items as disabled checkboxes with their state', () => {
    const el = whole('- [ ] todo\n- [x] done\n- [X] also done\n');
    expect(el.innerHTML).toBe(
      '<ul><li><input type="checkbox" disabled="" aria-label="Task"> todo</li>' +
        '<li><input type="checkbox" disabled="" aria-label="Task" checked=""> done</li>' +
        '<li><input type="checkbox" disabled="" aria-label="Task" checked=""> also done</li></ul>',
    );
    expect([...el.querySelectorAll('input')].map((i) => [i.checked, i.disabled])).toEqual([
      [false, true],
      [true, true],
      [true, true],
    ]);
  });

  it('makes allowed links open in a new tab without opener or referrer', () => {
    expect(whole('see [site](https://example.com/a?b=1 "title") or [mail](mailto:x@example.com) or [rel](/docs)').innerHTML).toBe(
      `<p>see <a href="https://example.com/a?b=1" title="title" ${LINK}>site</a> or <a href="mailto:x@example.com" ${LINK}>mail</a> or <a href="/docs" ${LINK}>rel</a></p>`,
    );
  });

  it('keeps balanced parentheses inside a link destination', () => {
    expect(whole('[Pi](https://en.wikipedia.org/wiki/Pi_(letter)) and (x)').innerHTML).toBe(
      `<p><a href="https://en.wikipedia.org/wiki/Pi_(letter)" ${LINK}>Pi</a> and (x)</p>`,
    );
    expect(streamed(['[Pi](https://w.example/P', 'i_(lett', 'er', ')', ')', ' ok']).innerHTML).toBe(
      `<p><a href="https://w.example/Pi_(letter)" ${LINK}>Pi</a> ok</p>`,
    );
  });

  it('reads a destination whose parentheses nest 32 deep, and not 33 (cmark\'s limit), in any split', () => {
    const nested = (d: number): string => `${'('.repeat(d)}x${')'.repeat(d)}`;
    expect(whole(`[a](${nested(32)})`).querySelector('a')?.getAttribute('href')).toBe(nested(32));
    expect(whole(`[a](${nested(33)})`).querySelector('a')).toBeNull();
    const texts = [`[a](${nested(32)})`, `[a](${nested(33)})`, `[a](b${'(c'.repeat(33)}${')'.repeat(34)} z`, `[a](b ${'(c'.repeat(5)} z`, `[a](<b[c](<d> e`, `[a](b '(c' "d` + '\n' + `e") f`];
    for (const text of texts) {
      for (const seed of [1, 2, 3]) expect(streamed(randomSplits(text, seed)).innerHTML, `${text} (${seed})`).toBe(whole(text).innerHTML);
    }
  });

  it('renders a long word with no space the same in any split, whatever its end turns out to be', () => {
    const texts = [
      `${'a('.repeat(60)}**b**c&amp;d_e_ f`,
      `${'[a](b'.repeat(30)}x.y@example.com z`,
      `${'(a'.repeat(50)}www.example.com/x y`,
      `${'a-'.repeat(50)}***b*** c`,
      `${'a)'.repeat(50)}&#x41;\\\n![i](u) https://example.com/${'p'.repeat(80)} e`,
    ];
    for (const text of texts) {
      for (const seed of [1, 2, 3]) expect(streamed(randomSplits(text, seed)).innerHTML, `${text} (${seed})`).toBe(whole(text).innerHTML);
    }
  });

  it('keeps a bracket open when its `]` turns out to be inside raw HTML that ends later, in any split', () => {
    // `<!m]b>` is a declaration: its `]` closes nothing, so the `[` is still open at `www.` (no autolink).
    const noLink = '[\n"<!m]b>*www.`';
    expect(whole(noLink).innerHTML).toBe('<p>[\n"&lt;!m]b&gt;*www.`</p>');
    expect(streamed(['[\n"<!m]b', '>*www.`']).innerHTML).toBe(whole(noLink).innerHTML);
    // and a later `]` makes it a link.
    const link = '[a <!x]> c](u)';
    expect(whole(link).innerHTML).toBe('<p><a href="u" rel="noopener noreferrer" target="_blank" referrerpolicy="no-referrer">a &lt;!x]&gt; c</a></p>');
    expect(streamed(['[a <!x]', '> c](u)']).innerHTML).toBe(whole(link).innerHTML);
    for (const text of [noLink, link, '[a `b] www.c.d` e](f) www.g.h']) {
      for (let k = 1; k < text.length; k++) expect(streamed([text.slice(0, k), text.slice(k)]).innerHTML, `${text} at ${k}`).toBe(whole(text).innerHTML);
      expect(streamed([...text]).innerHTML, text).toBe(whole(text).innerHTML);
    }
  });

  it('keeps an autolink refused inside a bracket refused when a later link ends that bracket, in any split', () => {
    // The `[` is open at `www.c.d` (no autolink in link text, as cmark-gfm), then `[](u)` makes a link
    // and the `[` can close nothing; the unclosed backtick keeps what follows it from settling.
    const text = '[a `b www.c.d [](u)';
    expect(whole(text).innerHTML).toBe(`<p>[a \`b www.c.d <a href="u" ${LINK}></a></p>`);
    // and a bracket more than 4,096 characters back no longer refuses it
    const far = `[ ${'x '.repeat(2_100)}www.c.d`;
    expect(whole(far).querySelector('a')?.getAttribute('href')).toBe('http://www.c.d');
    // but within 4,096 characters it does, however much text follows
    const near = `[ ${'x '.repeat(2_030)}*y \`z www.c.d ${'w '.repeat(100)}`;
    expect(whole(near).querySelector('a')).toBeNull();
    // (also when strikethrough wraps the autolink and the link: the tail may not start at its `~`)
    for (const t of [text, '[a `b http://c.d [](u) e', '[~http://a.b [](u)~', far, near]) {
      // (every 13th split of the long ones)
      for (let k = 1; k < t.length; k += t.length > 100 ? 13 : 1) expect(streamed([t.slice(0, k), t.slice(k)]).innerHTML, `${t} at ${k}`).toBe(whole(t).innerHTML);
      expect(streamed([...t]).innerHTML, t).toBe(whole(t).innerHTML);
    }
  });

  it('finds an email address whole when emphasis that later text undoes began inside it, in any split', () => {
    // Streamed up to `?_`, the two `_` are emphasis starting inside the address; the `x` after undoes it.
    const text = 'x+_me@mail.example ?_x';
    expect(whole(text).innerHTML).toBe(`<p><a href="mailto:x+_me@mail.example" ${LINK}>x+_me@mail.example</a> ?_x</p>`);
    for (const t of [text, '+_@.x ?_x']) {
      for (let k = 1; k < t.length; k++) expect(streamed([t.slice(0, k), t.slice(k)]).innerHTML, `${t} at ${k}`).toBe(whole(t).innerHTML);
      expect(streamed([...t]).innerHTML, t).toBe(whole(t).innerHTML);
    }
  });

  it('reads a destination in angle brackets and percent-encodes it', () => {
    expect(whole('[a](<https://example.com/a b>) [c](<javascript:void0>)').innerHTML).toBe(
      `<p><a href="https://example.com/a%20b" ${LINK}>a</a> c</p>`,
    );
  });

  it('links bare URLs, www. and email addresses without their trailing punctuation (GFM autolinks)', () => {
    expect(whole('go to https://x.example/a. now, www.example.com/b) or me@mail.example.').innerHTML).toBe(
      `<p>go to <a href="https://x.example/a" ${LINK}>https://x.example/a</a>. now, ` +
        `<a href="http://www.example.com/b" ${LINK}>www.example.com/b</a>) or <a href="mailto:me@mail.example" ${LINK}>me@mail.example</a>.</p>`,
    );
  });

  it('shows a link with a refused scheme as its text', () => {
    const el = whole('a [bad](javascript:void0) b <vbscript:x>');
    expect(el.innerHTML).toBe('<p>a bad b vbscript:x</p>');
    expect(el.querySelector('a')).toBeNull();
  });

  it('keeps the brackets of a reference like [1] that has no definition, and links it when it has one', () => {
    expect(whole('see [1] and [2].').innerHTML).toBe('<p>see [1] and [2].</p>');
    expect(whole('see [1] and [2].\n\n[2]: https://two.example').innerHTML).toBe(
      `<p>see [1] and <a href="https://two.example" ${LINK}>2</a>.</p>`,
    );
  });

  it('shows a destination cut by a line break as text and keeps the text after it', () => {
    expect(whole('x [docs](http://a.example/c more\n\nnext para').innerHTML).toBe(
      '<p>x [docs](<a href="http://a.example/c" ' + LINK + '>http://a.example/c</a> more</p><p>next para</p>',
    );
  });

  it('shows the alt text of an image instead of loading it by default', () => {
    const el = whole('![a cat](https://img.example/cat.png) ![](https://img.example/dog.png)');
    expect(el.innerHTML).toBe('<p>a cat https://img.example/dog.png</p>');
  });

  it('loads an image only when allowImage accepts its resolved URL', () => {
    const seen: string[] = [];
    const allowImage = (url: URL): boolean => {
      seen.push(url.href);
      return url.hostname === 'img.example';
    };
    const el = whole('![cat](https://img.example/cat.png "a title") ![dog](https://other.example/dog.png) ![rel](/pic.png)', {
      allowImage,
    });
    // asked about each image URL (again when an image near the end is rendered again), never another
    expect(new Set(seen)).toEqual(
      new Set(['https://img.example/cat.png', 'https://other.example/dog.png', new URL('/pic.png', document.baseURI).href]),
    );
    const imgs = el.querySelectorAll('img');
    expect(imgs).toHaveLength(1);
    expect(imgs[0]!.getAttribute('src')).toBe('https://img.example/cat.png');
    expect([imgs[0]!.alt, imgs[0]!.title]).toEqual(['cat', 'a title']);
    expect(imgs[0]!.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(el.textContent).toContain('dog');
  });

  it('never asks allowImage about a refused scheme', () => {
    const allowImage = vi.fn(() => true);
    const el = whole('![x](javascript:alert(1)) ![y](data:image/png;base64,AAAA)', { allowImage });
    expect(allowImage).not.toHaveBeenCalled();
    expect(el.querySelector('img')).toBeNull();
  });

  it('keeps underscores inside words as text and still reads _emphasis_', () => {
    expect(whole('use my_var_name, _this_ and https://x.example/a_b_c').innerHTML).toBe(
      `<p>use my_var_name, <em>this</em> and <a href="https://x.example/a_b_c" ${LINK}>https://x.example/a_b_c</a></p>`,
    );
    expect(streamed(['snake_', 'case_', '', 'name _em', '_', ' end_']).innerHTML).toBe('<p>snake_case_name <em>em</em> end_</p>');
    expect(whole('```\nx_y_z = 1\n```').querySelector('code')?.textContent).toBe('x_y_z = 1\n');
  });

  it('reads multiplication and lone asterisks as text, not emphasis', () => {
    expect(everyWay('2 * 3 * 4 = 24 and * a * and 2*3').innerHTML).toBe('<p>2 * 3 * 4 = 24 and * a * and 2*3</p>');
    expect(everyWay('an unclosed `tick stays text, as does _foo_bar').innerHTML).toBe('<p>an unclosed `tick stays text, as does _foo_bar</p>');
  });

  it('shows dollar signs as written, and inline TeX too when math is off', () => {
    for (const text of ['set $HOME and $PATH now', 'costs $5 or $10', 'open $x']) {
      expect(whole(text).textContent).toBe(text);
      expect(whole(text).querySelector('[part~="math"]')).toBeNull();
      expect(streamed([...text]).textContent).toBe(whole(text).textContent);
    }
    const tex = 'area \\(\\pi r^2\\) ok';
    expect(whole(tex, { math: false }).textContent).toBe('area (\\pi r^2) ok');
    expect(streamed([...tex], { math: false }).textContent).toBe('area (\\pi r^2) ok');
  });

  it('shows raw HTML as text', () => {
    const el = whole('<b>raw</b> <script>alert(1)</script>\n\n<div>\nblock\n</div>');
    expect(el.innerHTML).toBe(
      '<p>&lt;b&gt;raw&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;</p><pre part="raw-html">&lt;div&gt;\nblock\n&lt;/div&gt;</pre>',
    );
    expect(el.querySelector('b, script, div')).toBeNull();
  });

  it('replaces what the target held before', () => {
    const el = document.createElement('div');
    el.textContent = 'old';
    renderMarkdown(el, 'new');
    expect(el.innerHTML).toBe('<p>new</p>');
  });

  it('passes an axe accessibility check for a rendered answer', async () => {
    const el = whole('# T\n\nText [link](https://example.com).\n\n- a\n- b\n- [x] done\n\n| h |\n|---|\n| c |\n\n```js\ncode\n```\n');
    document.body.append(el);
    await chaiExpect(el).to.be.accessible();
    el.remove();
  });
});

/** Renders `text` whole, char by char and in random splits; expects one output and returns it. */
function everyWay(text: string, options?: MarkdownOptions): HTMLElement {
  const el = whole(text, options);
  expect(streamed([...text], options).innerHTML).toBe(el.innerHTML);
  for (const seed of [1, 2, 3, 42]) expect(streamed(randomSplits(text, seed), options).innerHTML).toBe(el.innerHTML);
  return el;
}

describe('CommonMark details', () => {
  it('keeps a backslash that does not come before ASCII punctuation', () => {
    expect(everyWay('backslash \\ and C:\\tmp\\new; a\\\tb \\é \\\\ \\* \\_x\\_ end \\').innerHTML).toBe(
      '<p>backslash \\ and C:\\tmp\\new; a\\\tb \\é \\ * _x_ end \\</p>',
    );
    expect(everyWay('`a\\ b \\\\` and\n\n```\nc:\\ d\\\\ \\*\n```').innerHTML).toBe(
      `<p><code>a\\ b \\\\</code> and</p>${CODE_BLOCK('c:\\ d\\\\ \\*\n')}`,
    );
  });

  it('renders the text of the unicode capture faithfully in its deltas and whole', () => {
    const deltas = unicodeCapture
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { method: string; params: { text?: string } })
      .slice(0, 15)
      .filter((e) => e.method === 'TextDelta')
      .map((e) => e.params.text!);
    expect(deltas).toHaveLength(11);
    const el = streamed(deltas);
    expect(whole(deltas.join('')).innerHTML).toBe(el.innerHTML);
    const paragraphs = [...el.children];
    expect(paragraphs.map((p) => p.tagName)).toEqual(['P', 'P']);
    // `back` is inline code, a newline inside the paragraph is a soft break, CRLF is one line end, `[ ]`
    // with no definition stays text, the character reference `&amp;` is `&`, raw HTML is text.
    expect(paragraphs[0]!.textContent).toBe(
      'Hello 世界 🌍👩‍💻 café naïve — quotes: "double" \'single\' back; backslash \\ and C:\\tmp\\new; ' +
        'tab\there; newline\nsecond line\nCRLF line; LS[\u2028] PS[\u2029] BEL[\u0007] NUL-free; ' +
        '</script><b>html</b> & 日本語かな、한국어, עברית.',
    );
    expect(paragraphs[0]!.querySelector('code')?.textContent).toBe('back');
    expect(paragraphs[1]!.textContent).toBe('末尾 end.');
    expect(el.querySelector('b, script')).toBeNull();
  });

  it('decodes character references in text as text, and keeps them as written in code', () => {
    expect(
      everyWay('a &amp; b &lt;b&gt; &copy; &#42;not em&#42; &#x1F600; &#0; &bogus; & x &amp no &#91;x&#93;&#40;y) &#35;')
        .innerHTML,
    ).toBe('<p>a &amp; b &lt;b&gt; © *not em* 😀 \ufffd &amp;bogus; &amp; x &amp;amp no [x](y) #</p>');
    expect(everyWay('`&amp;` and\n\n```\n&lt;\n```\n\n    &gt;\n\n\\&amp;').innerHTML).toBe(
      `<p><code>&amp;amp;</code> and</p>${CODE_BLOCK('&amp;lt;\n')}${CODE_BLOCK('&amp;gt;\n')}<p>&amp;amp;</p>`,
    );
    const link = everyWay('[a &amp; b](https://x.example/?a=1&amp;b=2)').querySelector('a')!;
    expect([link.textContent, link.getAttribute('href')]).toEqual(['a & b', 'https://x.example/?a=1&b=2']);
  });

  it('decodes a rare named reference once the full table has loaded, in place', async () => {
    await loadEntities();
    expect(everyWay('&HilbertSpace; and &ngE; and &notanentity;').textContent).toBe('ℋ and ≧̸ and &notanentity;');
  });

  it('reads underscores as emphasis only where CommonMark does, never inside words', () => {
    expect(
      everyWay('__proto__, x.__proto__, __init__.py, a__b__c, a_b_c, foo_(bar), _em_. and __x__!').innerHTML,
    ).toBe(
      '<p><strong>proto</strong>, x.<strong>proto</strong>, <strong>init</strong>.py, a__b__c, a_b_c, foo_(bar), ' +
        '<em>em</em>. and <strong>x</strong>!</p>',
    );
    expect(everyWay('___\n\nafter').innerHTML).toBe('<hr><p>after</p>');
  });

  it('reads 1) as an ordered list marker like 1.', () => {
    expect(everyWay('1) one\n2) two\n3) three\n\nafter').innerHTML).toBe(
      '<ol><li>one</li><li>two</li><li>three</li></ol><p>after</p>',
    );
    expect(everyWay('7) seven\n8) eight').innerHTML).toBe('<ol start="7"><li>seven</li><li>eight</li></ol>');
    expect(everyWay('- a\n  1) b\n  2) c').innerHTML).toBe('<ul><li>a<ol><li>b</li><li>c</li></ol></li></ul>');
  });

  it('keeps a fenced code block inside its list item and the list going after it', () => {
    expect(everyWay('1. Install:\n   ```sh\n   npm i\n   ```\n2. Run:\n   ```\n   go\n   ```\n3. Done\n\nafter').innerHTML).toBe(
      `<ol><li>Install:${CODE_BLOCK('npm i\n', 'sh')}</li><li>Run:${CODE_BLOCK('go\n')}</li><li>Done</li></ol><p>after</p>`,
    );
  });

  it('makes a list loose when a blank line separates its items or an item\'s blocks', () => {
    expect(everyWay('- a\n- b\n\n  more of b\n- c\n\nend').innerHTML).toBe(
      '<ul><li><p>a</p></li><li><p>b</p><p>more of b</p></li><li><p>c</p></li></ul><p>end</p>',
    );
    expect(everyWay('1. One\n\n   ```sh\n   npm i\n   ```\n2. Two').innerHTML).toBe(
      `<ol><li><p>One</p>${CODE_BLOCK('npm i\n', 'sh')}</li><li><p>Two</p></li></ol>`,
    );
  });

  it('keeps a quote inside a list item and indented continuation paragraphs', () => {
    expect(everyWay('1. item\n   > quoted\n   > on\n2. next').innerHTML).toBe(
      '<ol><li>item<blockquote><p>quoted\non</p></blockquote></li><li>next</li></ol>',
    );
  });

  it('reads ~~~ fences and closes a fence inside a quote', () => {
    expect(everyWay('~~~py\nx = 1\n~~~\n\n> ```\n> code\n> ```\n> after').innerHTML).toBe(
      `${CODE_BLOCK('x = 1\n', 'py')}<blockquote>${CODE_BLOCK('code\n')}<p>after</p></blockquote>`,
    );
  });

  it('nests quotes and lists no deeper than 32 elements and still shows their text', () => {
    const depth = (el: Element): number => Math.max(0, ...[...el.children].map((c) => 1 + depth(c)));
    const quotes = everyWay('>'.repeat(5000) + ' deep');
    expect(depth(quotes)).toBeLessThanOrEqual(33);
    expect(quotes.textContent!.endsWith('deep')).toBe(true);
    const lists = everyWay(Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- item${i}`).join('\n'));
    expect(depth(lists)).toBeLessThanOrEqual(33);
    for (let i = 0; i < 40; i++) expect(lists.textContent).toContain(`item${i}`);
  });

  it('strips the closing # sequence of a heading', () => {
    expect(
      // (past 6 blocks they go in groups: the test reads the headings only)
      everyWay('## Title ##\n# T #\n### a # b ###\n## x\\##\n## ##\n## a ## #\n# C# and F#\n## spaces  \n#### end ####   ')
        .innerHTML.replace(/<\/?div[^>]*>/g, ''),
    ).toBe('<h2>Title</h2><h1>T</h1><h3>a # b</h3><h2>x##</h2><h2></h2><h2>a ##</h2><h1>C# and F#</h1><h2>spaces</h2><h4>end</h4>');
  });
});

const DOCUMENTS = [
  '# Title\n\nSome *em* and **strong** and `code` ~~gone~~.\n',
  '- a\n  - b\n    - c\n- d\n\n3. three\n4. four\n',
  '| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\nafter',
  'Intro:\n\n```ts\nconst a = [1, 2];\nif (a.length > 1) {\n  console.log(a);\n}\n```\n\nDone.',
  '> quote\n> more\n\n---\n\ntext with [a link](https://example.com/x) and https://auto.example/y here',
  'a [w](https://w.example/x_(y)_z) b ![i](http://i.example/(1).png) [c](u(v(w)))) end',
  'see [1], [bad](javascript:alert(1)) and ![img](https://img.example/p.png) then [cut](http://x.example\nafter',
  '- [ ] todo\n- [x] done\n\n    indented\n\nend',
  'my_var_name and __init__ and _em_ and 変数_名前 and [a_b](https://x.example/a_(b)_c) end_',
  'Title\n=====\n\nSub\n---\n\n[ref]: https://r.example "T"\n\nuse [ref] and [Ref][] and [x][ref]',
  '1. One\n\n   ```sh\n   npm i\n   ```\n\n2. Two\n\n   more\n\n- x\n\n  ```\n  y\n  ```\n\nend',
  'head | er\n--- | ---:\ncell \\| pipe | `a|b`\nrow\n\n~~struck~~ ~~~not~~~ ~single~\n\n<details>\n\n*md*\n\n</details>',
];

describe('createMarkdownStream', () => {
  it.each(DOCUMENTS.map((d, i) => [i, d] as const))('renders document %i the same in any split as in one piece', (_, doc) => {
    const expected = whole(doc).innerHTML;
    expect(streamed([...doc]).innerHTML).toBe(expected);
    for (const seed of [1, 2, 3, 42]) expect(streamed(randomSplits(doc, seed)).innerHTML).toBe(expected);
  });

  it('empties its target when created', () => {
    const el = document.createElement('div');
    el.textContent = 'old';
    createMarkdownStream(el);
    expect(el.childNodes).toHaveLength(0);
  });

  it('shows text as it arrives, open emphasis and code already closed, and the exact markup once decided', () => {
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    md.append('Hello **wor');
    expect(el.innerHTML).toBe('<p>Hello <strong>wor</strong></p>');
    md.append('ld** and `co');
    expect(el.innerHTML).toBe('<p>Hello <strong>world</strong> and <code>co</code></p>');
    md.append('de` *not');
    expect(el.innerHTML).toBe('<p>Hello <strong>world</strong> and <code>code</code> <em>not</em></p>');
    md.append(' closed');
    md.end();
    expect(el.innerHTML).toBe('<p>Hello <strong>world</strong> and <code>code</code> *not closed</p>');
  });

  it('applies a line as soon as its block is decided', () => {
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    md.append('Intro\n- it');
    expect(el.innerHTML).toBe('<p>Intro</p><ul><li>it</li></ul>');
    md.append('em\n---');
    // a line of only dashes waits: an underline, a rule or an item
    expect(el.innerHTML).toBe('<p>Intro</p><ul><li>item</li></ul>');
    md.append('\n');
    expect(el.innerHTML).toBe('<p>Intro</p><ul><li>item</li></ul><hr>');
    md.end();
  });

  it('patches earlier output: a setext underline, a table delimiter row, a loosened list, a late definition', () => {
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    md.append('Title\n');
    const title = el.firstElementChild;
    expect(title?.tagName).toBe('P');
    md.append('===\n\n| a | b |\n');
    expect(el.querySelector('h1')?.textContent).toBe('Title');
    md.append('|---|---|\n| 1 | 2 |\n\n- x\n- y\n');
    expect(el.querySelector('table')?.textContent).toBe('ab12');
    expect(el.querySelector('ul')!.innerHTML).toBe('<li>x</li><li>y</li>');
    md.append('\n- z\n\nsee [doc].\n\n');
    expect(el.querySelector('ul')!.innerHTML).toBe('<li><p>x</p></li><li><p>y</p></li><li><p>z</p></li>');
    const see = el.lastElementChild!;
    expect(see.innerHTML).toBe('see [doc].');
    md.append('[doc]: https://doc.example\n');
    md.end();
    expect(see.innerHTML).toBe(`see <a href="https://doc.example" ${LINK}>doc</a>.`);
    expect(el.innerHTML).toBe(whole('Title\n===\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- x\n- y\n\n- z\n\nsee [doc].\n\n[doc]: https://doc.example\n').innerHTML);
  });

  it('ignores text appended after end and tolerates a second end', () => {
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    md.append('one');
    md.end();
    md.end();
    md.append(' two');
    expect(el.textContent).toBe('one');
  });

  it('reads CRLF and CR line ends like LF, also split between appends', () => {
    expect(streamed(['a\r', '\nb\r\n\r', '\nc\rd']).innerHTML).toBe(whole('a\nb\n\nc\nd').innerHTML);
  });

  it('groups a long answer\'s blocks by 6 and a long list\'s items by 32, numbering an ordered list across groups', () => {
    const paragraphs = Array.from({ length: 70 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const doc = everyWay(paragraphs);
    const groups = [...doc.children];
    expect(groups.map((g) => [g.tagName, g.getAttribute('part'), g.childElementCount])).toEqual([
      ...Array.from({ length: 11 }, () => ['DIV', 'group', 6]),
      ['DIV', 'group', 4],
    ]);
    expect([...doc.querySelectorAll('p')].map((p) => p.textContent)).toEqual(Array.from({ length: 70 }, (_, i) => `Paragraph ${i}.`));
    const list = everyWay(Array.from({ length: 40 }, (_, i) => `${i + 5}. item ${i}`).join('\n')).querySelector('ol')!;
    expect(list.getAttribute('start')).toBe('5');
    expect([...list.children].map((g) => g.childElementCount)).toEqual([32, 8]);
    expect([...list.querySelectorAll('li')].map((li) => li.getAttribute('value'))).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 5)));
    // short lists and answers keep CommonMark's plain structure
    expect(everyWay('1. a\n2. b').innerHTML).toBe('<ol><li>a</li><li>b</li></ol>');
  });

  it('leaves a few hundred nodes after 20,000 one-character deltas of prose', () => {
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    const paragraph = 'The quick brown fox jumps over the lazy dog, again and again, until the paragraph ends. '.repeat(6);
    const text = `${paragraph.trim()}\n\n`.repeat(40).slice(0, 20_000);
    expect(text).toHaveLength(20_000);
    for (const c of text) md.append(c);
    md.end();
    const nodes = (n: Node): number => [...n.childNodes].reduce((a, c) => a + 1 + nodes(c), 0);
    expect(nodes(el)).toBeLessThan(500);
    expect(el.textContent!.length).toBeGreaterThan(19_000);
  });

  it('keeps consecutive text in one Text node: DOM size follows the text, not the deltas', () => {
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    const text = 'Plain words, with *some* emphasis and `code` here and there. '.repeat(330);
    for (const c of text) md.append(c);
    md.end();
    const nodes = (n: Node): number => [...n.childNodes].reduce((a, c) => a + 1 + nodes(c), 0);
    expect(text.length).toBeGreaterThan(20_000);
    expect(nodes(el)).toBeLessThan(2_500);
    // the text of each run between markup is a single node
    const p = el.querySelector('p')!;
    for (let n = p.firstChild!.firstChild; n?.nextSibling; n = n.nextSibling) {
      expect(n.nodeType === 3 && n.nextSibling.nodeType === 3).toBe(false);
    }
    expect(el.innerHTML).toBe(whole(text).innerHTML);
  });
});

type Work = { charsParsed: number; nodesCreated: number; nodesTouched: number; mutations: number };

/** Appends every delta and records the work each one did: stream stats and observed DOM mutations. */
function measure(deltas: (i: number) => string, count: number): Work[] {
  const el = document.createElement('div');
  document.body.append(el);
  const md = createMarkdownStream(el);
  const observer = new MutationObserver(() => {});
  observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
  const work: Work[] = [];
  for (let i = 1; i <= count; i++) {
    const before = { ...md.stats };
    md.append(deltas(i));
    let mutations = 0;
    for (const r of observer.takeRecords()) mutations += r.type === 'childList' ? r.addedNodes.length + r.removedNodes.length : 1;
    work.push({
      charsParsed: md.stats.charsParsed - before.charsParsed,
      nodesCreated: md.stats.nodesCreated - before.nodesCreated,
      nodesTouched: md.stats.nodesTouched - before.nodesTouched,
      mutations,
    });
  }
  observer.disconnect();
  md.end();
  el.remove();
  return work;
}

const sum = (ws: Work[]): Work =>
  ws.reduce(
    (a, w) => ({
      charsParsed: a.charsParsed + w.charsParsed,
      nodesCreated: a.nodesCreated + w.nodesCreated,
      nodesTouched: a.nodesTouched + w.nodesTouched,
      mutations: a.mutations + w.mutations,
    }),
    { charsParsed: 0, nodesCreated: 0, nodesTouched: 0, mutations: 0 },
  );

// One cycle of mixed markdown, cut into 50 deltas of 4 characters: delta 100 and delta 10,000 sit at
// the same place in the cycle, so a renderer whose cost per delta is constant does equal work there.
const CYCLE = (() => {
  const base =
    'Para with *em*, **strong**, `code` and [a link](https://example.com/x).\n\n- one\n- two\n  - nested\n\n' +
    '```\ncode line\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n';
  return base.padEnd(200 - 2, 'z') + '\n\n';
})();

describe('work per delta', () => {
  it.each([
    ['mixed markdown', (i: number) => CYCLE.slice(((i - 1) % 50) * 4, ((i - 1) % 50) * 4 + 4)],
    ['one long paragraph', (i: number) => (i === 1 ? 'Start ' : `word${i % 10} `)],
    ['one long code block', (i: number) => (i === 1 ? '```\n' : `line ${i % 10}\n`)],
    ['one long list', (i: number) => (i % 2 === 1 ? '- item ' : `${i % 10}\n`)],
    ['one long loose list with fences', (i: number) => (i % 2 === 1 ? `- item ${i % 10}\n\n` : '  ```\n  x\n  ```\n\n')],
    ['one long 1) list', (i: number) => (i % 2 === 1 ? `${i % 10}) item ` : `${i % 10}\n`)],
    ['one long heading', (i: number) => (i === 1 ? '## ' : `w${i % 10} # `)],
    ['snake_case, backslashes and references', (i: number) => (i === 1 ? 'Start ' : `a_b${i % 10}\\ x__y &amp; `)],
    // the issue's named cases: a 5,000-line code fence, a 1,000-item list, a 500-row table
    ['a 5,000-line code fence', (i: number) => (i === 1 ? '```ts\n' : i % 2 === 0 ? `const x${i % 10} = f(${i % 7});` : '\n')],
    ['a 1,000-item list', (i: number) => ['- ', 'item ', `${i % 10}`, ' with ', '*some* ', 'text', ' and ', '`code`', '.', '\n'][(i - 1) % 10]!],
    [
      'a 500-row table',
      (i: number) =>
        i === 1
          ? '| name | value | note |\n|---|---:|---|\n'
          : ['| ', 'row', ` ${i % 10}`, ' | ', `${i % 97}`, ' | ', 'a ', '**bold** ', 'note', ' |', '', '', '', '', '', '', '', '', '', '\n'][(i - 1) % 20]!,
    ],
  ])('is no larger at the 10,000th delta than at the 100th (%s)', (_, deltas) => {
    expect(CYCLE).toHaveLength(200);
    const work = measure(deltas, 10_000);
    const at100 = work[99]!;
    const at10k = work[9_999]!;
    expect(at100.charsParsed).toBeGreaterThan(0);
    expect(at100.nodesCreated + at100.mutations).toBeGreaterThan(0);
    expect(at10k.charsParsed).toBeLessThanOrEqual(at100.charsParsed);
    expect(at10k.nodesCreated).toBeLessThanOrEqual(at100.nodesCreated);
    expect(at10k.nodesTouched).toBeLessThanOrEqual(at100.nodesTouched);
    expect(at10k.mutations).toBeLessThanOrEqual(at100.mutations);
    // and over a whole cycle of 50 deltas ending there
    const early = sum(work.slice(50, 100));
    const late = sum(work.slice(9_950, 10_000));
    expect(late.charsParsed).toBeLessThanOrEqual(early.charsParsed);
    expect(late.nodesCreated).toBeLessThanOrEqual(early.nodesCreated);
    expect(late.nodesTouched).toBeLessThanOrEqual(early.nodesTouched);
    expect(late.mutations).toBeLessThanOrEqual(early.mutations);
  }, 60_000);
});

/** commonmark.js's pathological inputs (and a few of ours), 40,000 characters each. */
const PATHOLOGICAL: Record<string, string> = {
  'nested strong emph': '*a **a '.repeat(2_857) + 'b' + ' a** a*'.repeat(2_857),
  'many emph closers with no openers': 'a_ '.repeat(13_333),
  'many emph openers with no closers': '_a '.repeat(13_333),
  'many link closers with no openers': 'a]'.repeat(20_000),
  'many link openers with no closers': '[a'.repeat(20_000),
  'mismatched openers and closers': '*a_ '.repeat(10_000),
  'openers and closers multiple of 3': 'a**b' + 'c* '.repeat(13_332),
  'link openers and emph closers': '[ a_'.repeat(10_000),
  'nested brackets': '['.repeat(20_000) + 'a' + ']'.repeat(20_000),
  'unclosed links A': '[a](<b'.repeat(6_666),
  'unclosed links B': '[a](b'.repeat(8_000),
  'pattern [ (]( repeated': '[ (]('.repeat(8_000),
  'nested links': '[a]('.repeat(10_000),
  'backticks': Array.from({ length: 1_500 }, (_, i) => 'e' + '`'.repeat(i % 50)).join(''),
  'one long word of www': 'www.a'.repeat(8_000),
  'many emails': 'a@b.c '.repeat(6_666),
  'many <': '<a'.repeat(20_000),
};

describe('hostile input stays bounded', () => {
  it.each(Object.entries(PATHOLOGICAL))('%s: no append parses more than a bounded window, and the result equals the whole text', (_, text) => {
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    let most = 0;
    for (let i = 0; i < text.length; i += 64) {
      const before = md.stats.charsParsed;
      md.append(text.slice(i, i + 64));
      most = Math.max(most, md.stats.charsParsed - before);
    }
    md.end();
    // appended characters + the open tail (within reach of 4,096, a long word's last 2,304) parsed for
    // good and once more for display: never the whole 40,000-character text
    expect(most).toBeLessThan(14_100);
    expect(text.length).toBeGreaterThan(20_000);
    const depth = (e: Element): number => Math.max(0, ...[...e.children].map((c) => 1 + depth(c)));
    expect(depth(el)).toBeLessThanOrEqual(40);
    expect(el.innerHTML).toBe(whole(text).innerHTML);
  }, 120_000);
});


/** The whole work of rendering `text`: whole, or streamed in deltas of 8 characters. */
function totalWork(text: string, streamedIn: number | null): number {
  const el = document.createElement('div');
  const md = createMarkdownStream(el);
  const step = streamedIn ?? text.length;
  for (let i = 0; i < text.length; i += step) md.append(text.slice(i, i + step));
  md.end();
  return md.stats.charsParsed + md.stats.nodesCreated + md.stats.nodesTouched;
}

/** Inputs whose work once grew faster than their size, by the count `n` of their repeated unit. */
const SUPERLINEAR: Record<string, (n: number) => string> = {
  'link reference definitions, then their uses': (n) =>
    Array.from({ length: n }, (_, i) => `[${i}]: https://example.com/${i}\n`).join('') + '\n' + Array.from({ length: n }, (_, i) => `[${i}] `).join(''),
  'uses of link references, then their definitions': (n) =>
    Array.from({ length: n }, (_, i) => `[${i}] `).join('') + '\n\n' + Array.from({ length: n }, (_, i) => `[${i}]: https://example.com/${i}\n`).join(''),
  'uses, then definitions each in its own paragraph': (n) =>
    Array.from({ length: n }, (_, i) => `[${i}] `).join('') + '\n\n' + Array.from({ length: n }, (_, i) => `[${i}]: https://example.com/${i}\n\n`).join(''),
  // A `](` whose destination or title already failed on text that is here is decided: not reparsed
  // with every delta while the reach of its opener lasts.
  'the pattern [ (]( repeated': (n) => '[ (]('.repeat(n),
  // Nested more than 32 deep, a destination's parentheses are refused (cmark's limit): decided too; and
  // of a long word with no autolink in it, only the end waits for what follows.
  'unclosed links [a](b': (n) => '[a](b'.repeat(n),
  // A `<` that the text after it already rules out as an autolink, raw HTML or a destination is decided.
  'unclosed links [a](<b': (n) => '[a](<b'.repeat(n),
};

describe('work grows linearly with the input', () => {
  it.each(Object.entries(SUPERLINEAR))('%s: four times the input is at most five times the work, whole and streamed', (_, make) => {
    for (const streamedIn of [null, 8]) {
      const small = totalWork(make(300), streamedIn);
      const large = totalWork(make(1_200), streamedIn);
      expect(small).toBeGreaterThan(0);
      expect(large / small, streamedIn === null ? 'whole' : 'streamed').toBeLessThanOrEqual(5);
    }
  }, 120_000);

  it('lays out a 100 kB answer written as one line in chunks: the block that changes stays small', () => {
    const words = ['alpha', 'beta', '**gamma**', '`delta`', 'epsilon', '[link](https://example.com/x)', 'a_b'];
    let text = '';
    for (let i = 0; text.length < 100_000; i++) text += `${words[i % words.length]} `;
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    let largest = 0;
    for (let i = 0; i < text.length; i += 8) {
      md.append(text.slice(i, i + 8));
      // the block the streaming tail goes in: the paragraph's last chunk
      const p = el.querySelector('p')!;
      const block = p.lastElementChild?.tagName === 'DIV' ? p.lastElementChild : p;
      largest = Math.max(largest, block.textContent!.length);
    }
    md.end();
    expect(text).not.toContain('\n');
    expect(el.querySelector('p')!.textContent!.length).toBeGreaterThan(50_000);
    expect(largest).toBeLessThan(10_000);
    expect(el.innerHTML).toBe(whole(text).innerHTML);
  });

  it('takes decided definitions out of a paragraph still streaming, and still renders the last one only once decided', () => {
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    md.append('[a]: https://a.example\n[b]: https://b.example\n');
    md.append('"b title"\n[c]: https://c.example\n');
    md.append('"c title\n');
    md.append('still c" \n\nsee [a] [b] [c]\n');
    md.end();
    const links = [...el.querySelectorAll('a')].map((a) => `${a.getAttribute('href')} ${a.getAttribute('title') ?? ''}`);
    expect(links).toEqual(['https://a.example ', 'https://b.example b title', 'https://c.example c title\nstill c']);
    expect(el.innerHTML).toBe(whole('[a]: https://a.example\n[b]: https://b.example\n"b title"\n[c]: https://c.example\n"c title\nstill c" \n\nsee [a] [b] [c]\n').innerHTML);
  });
});
