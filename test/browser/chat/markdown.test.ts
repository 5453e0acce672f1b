import { afterEach, describe, expect, it, vi } from 'vitest';
import { expect as chaiExpect } from '@open-wc/testing';
import { createMarkdownStream, renderMarkdown, type MarkdownOptions } from '../../../src/chat/markdown.js';
import unicodeCapture from '../../fixtures/pagent/unicode.ndjson?raw';

const LINK = 'rel="noopener noreferrer" target="_blank" referrerpolicy="no-referrer"';
const COPY = '<button type="button" part="copy-button" aria-label="Copy code">Copy code</button>';

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
      '<h1>Title</h1><p>Some <em>em</em> and <strong>strong</strong> and <code>a &lt; b</code> <s>gone</s>.</p><h3>Small</h3>',
    );
  });

  it('renders nested lists and keeps the start number of an ordered list', () => {
    expect(whole('- a\n  - b\n    - c\n- d\n\n3. three\n4. four\n').innerHTML).toBe(
      '<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li><li>d</li></ul><ol start="3"><li>three</li><li>four</li></ol>',
    );
  });

  it('renders a table with a header row and body rows', () => {
    const el = whole('| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\nafter');
    expect([...el.querySelectorAll('thead th')].map((c) => c.textContent!.trim())).toEqual(['a', 'b']);
    expect([...el.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.textContent!.trim()))).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(el.querySelector('table + p')?.textContent).toBe('after');
  });

  it('renders a fenced code block as text with its language and a copy button', () => {
    expect(whole('```js\nif (a < b) alert("<b>");\n```\n').innerHTML).toBe(
      `<div part="code-block">${COPY}<pre><code data-lang="js">if (a &lt; b) alert("&lt;b&gt;");</code></pre></div>`,
    );
  });

  it('renders an indented code block', () => {
    expect(whole('    indented code\n\npara').innerHTML).toBe(
      `<div part="code-block">${COPY}<pre><code>indented code</code></pre></div><p>para</p>`,
    );
  });

  it('copies the code text through the clipboard when the copy button is clicked', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    const el = whole('```py\nprint("hi")\nx = 1\n```\n', { copyLabel: '复制代码' });
    document.body.append(el);
    const button = el.querySelector('button')!;
    expect(button.getAttribute('aria-label')).toBe('复制代码');
    button.click();
    expect(writeText).toHaveBeenCalledWith('print("hi")\nx = 1');
    await vi.waitFor(() => expect(button.hasAttribute('data-copied')).toBe(true));
    el.remove();
  });

  it('renders blockquotes, line breaks and horizontal rules', () => {
    expect(whole('> quote\n> more\n\n---\n\ntext').innerHTML).toBe(
      '<blockquote><p>quote<br>more</p></blockquote><hr><p>text</p>',
    );
  });

  it('renders task list items as checked and unchecked marks', () => {
    expect(whole('- [ ] todo\n- [x] done\n').innerHTML).toBe(
      '<ul><li><span aria-hidden="true">☐ </span> todo</li><li><span aria-hidden="true">☑ </span> done</li></ul>',
    );
  });

  it('makes allowed links open in a new tab without opener or referrer', () => {
    expect(whole('see [site](https://example.com/a?b=1 "title") or [mail](mailto:x@example.com) or [rel](/docs)').innerHTML).toBe(
      `<p>see <a href="https://example.com/a?b=1" ${LINK}>site</a> or <a href="mailto:x@example.com" ${LINK}>mail</a> or <a href="/docs" ${LINK}>rel</a></p>`,
    );
  });

  it('keeps balanced parentheses inside a link destination', () => {
    expect(whole('[Pi](https://en.wikipedia.org/wiki/Pi_(letter)) and (x)').innerHTML).toBe(
      `<p><a href="https://en.wikipedia.org/wiki/Pi_(letter)" ${LINK}>Pi</a> and (x)</p>`,
    );
    expect(streamed(['[Pi](https://w.example/P', 'i_(lett', 'er', ')', ')', ' ok']).innerHTML).toBe(
      `<p><a href="https://w.example/Pi_(letter)" ${LINK}>Pi</a> ok</p>`,
    );
    expect(streamed(['[Pi]', '(https://w.example/a(b', ')c)', '!']).innerHTML).toBe(
      `<p><a href="https://w.example/a(b)c" ${LINK}>Pi</a>!</p>`,
    );
  });

  it('reads a destination in angle brackets', () => {
    expect(whole('[a](<https://example.com/a b>) [c](<javascript:void0>)').innerHTML).toBe(
      `<p><a href="https://example.com/a%20b" ${LINK}>a</a> <span>c</span></p>`,
    );
  });

  it('links bare http(s) URLs without their trailing punctuation', () => {
    expect(whole('go to https://x.example/a. now').innerHTML).toBe(
      `<p>go to <a href="https://x.example/a" ${LINK}>https://x.example/a.</a> now</p>`,
    );
  });

  it('shows a link with a refused scheme as plain text', () => {
    const el = whole('a [bad](javascript:void0) b');
    expect(el.innerHTML).toBe('<p>a <span>bad</span> b</p>');
    expect(el.querySelector('a')).toBeNull();
  });

  it('keeps the brackets of a reference like [1] that has no destination', () => {
    expect(whole('see [1] and [2].').innerHTML).toBe('<p>see <span>[1]</span> and <span>[2]</span>.</p>');
  });

  it('shows a destination cut by a line break as text and keeps the text after it', () => {
    expect(whole('x [docs](http://a.example/c more\n\nnext para').innerHTML).toBe(
      '<p>x <span>[docs](http://a.example/c more</span></p><p>next para</p>',
    );
    expect(whole('end [docs](http://a.example/c').innerHTML).toBe('<p>end <span>[docs](http://a.example/c</span></p>');
  });

  it('shows the alt text of an image instead of loading it by default', () => {
    const el = whole('![a cat](https://img.example/cat.png) ![](https://img.example/dog.png)');
    expect(el.innerHTML).toBe('<p><span>a cat</span> <span>https://img.example/dog.png</span></p>');
  });

  it('loads an image only when allowImage accepts its resolved URL', () => {
    const seen: string[] = [];
    const allowImage = (url: URL): boolean => {
      seen.push(url.href);
      return url.hostname === 'img.example';
    };
    const el = whole('![cat](https://img.example/cat.png) ![dog](https://other.example/dog.png) ![rel](/pic.png)', {
      allowImage,
    });
    expect(seen).toEqual([
      'https://img.example/cat.png',
      'https://other.example/dog.png',
      new URL('/pic.png', document.baseURI).href,
    ]);
    const imgs = el.querySelectorAll('img');
    expect(imgs).toHaveLength(1);
    expect(imgs[0]!.getAttribute('src')).toBe('https://img.example/cat.png');
    expect(imgs[0]!.alt).toBe('cat');
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
    expect(whole('```\nx_y_z = 1\n```').querySelector('code')?.textContent).toBe('x_y_z = 1');
  });

  it('shows dollar signs and inline TeX as written', () => {
    for (const text of ['set $HOME and $PATH now', 'costs $5 or $10', 'area \\(\\pi r^2\\) ok', 'open $x']) {
      expect(whole(text).textContent).toBe(text);
      expect(streamed([...text]).textContent).toBe(text);
    }
  });

  it('shows raw HTML as text', () => {
    const el = whole('<b>raw</b> <script>alert(1)</script>');
    expect(el.innerHTML).toBe('<p>&lt;b&gt;raw&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(el.querySelector('b, script')).toBeNull();
  });

  it('replaces what the target held before', () => {
    const el = document.createElement('div');
    el.textContent = 'old';
    renderMarkdown(el, 'new');
    expect(el.innerHTML).toBe('<p>new</p>');
  });

  it('passes an axe accessibility check for a rendered answer', async () => {
    const el = whole('# T\n\nText [link](https://example.com).\n\n- a\n- b\n\n| h |\n|---|\n| c |\n\n```\ncode\n```\n');
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

const CODE_BLOCK = (code: string, lang?: string): string =>
  `<div part="code-block">${COPY}<pre><code${lang ? ` data-lang="${lang}"` : ''}>${code}</code></pre></div>`;

describe('CommonMark details', () => {
  it('keeps a backslash that does not come before ASCII punctuation', () => {
    expect(everyWay('backslash \\ and C:\\tmp\\new; a\\\tb \\é \\\\ \\* \\_x\\_ end \\').innerHTML).toBe(
      '<p>backslash \\ and C:\\tmp\\new; a\\\tb \\é \\ * _x_ end \\</p>',
    );
    expect(everyWay('`a\\ b \\\\` and\n\n```\nc:\\ d\\\\ \\*\n```').innerHTML).toBe(
      `<p><code>a\\ b \\\\</code> and</p>${CODE_BLOCK('c:\\ d\\\\ \\*')}`,
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
    // Markdown in the capture: `back` is inline code, each newline inside the paragraph is a <br>, CR is
    // dropped, `[ ]` with no destination stays text and the character reference `&amp;` is `&`.
    expect(paragraphs[0]!.textContent).toBe(
      'Hello 世界 🌍👩‍💻 café naïve — quotes: "double" \'single\' back; backslash \\ and C:\\tmp\\new; ' +
        'tab\there; newline' + 'second line' + 'CRLF line; LS[\u2028] PS[\u2029] BEL[\u0007] NUL-free; ' +
        '</script><b>html</b> & 日本語かな、한국어, עברית.',
    );
    expect(paragraphs[0]!.querySelectorAll('br')).toHaveLength(2);
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
      `<p><code>&amp;amp;</code> and</p>${CODE_BLOCK('&amp;lt;')}${CODE_BLOCK('&amp;gt;')}<p>&amp;amp;</p>`,
    );
    const link = everyWay('[a &amp; b](https://x.example/?a=1&amp;b=2)').querySelector('a')!;
    expect([link.textContent, link.getAttribute('href')]).toEqual(['a & b', 'https://x.example/?a=1&b=2']);
  });

  it('reads underscores as emphasis only where CommonMark does, never inside words', () => {
    expect(
      everyWay('<b>__init__</b>, __proto__, x.__proto__, __init__.py, a__b__c, a_b_c, foo_(bar), _em_. and __x__!')
        .innerHTML,
    ).toBe(
      '<p>&lt;b&gt;<strong>init</strong>&lt;/b&gt;, <strong>proto</strong>, x.<strong>proto</strong>, ' +
        '<strong>init</strong>.py, a__b__c, a_b_c, foo_(bar), <em>em</em>. and <strong>x</strong>!</p>',
    );
    expect(everyWay('dunder__x__y and __a__b__ end').innerHTML).toBe('<p>dunder__x__y and <strong>a__b</strong> end</p>');
    expect(everyWay('___\n\nafter').innerHTML).toBe('<hr><p>after</p>');
  });

  it('reads 1) as an ordered list marker like 1.', () => {
    expect(everyWay('1) one\n2) two\n3) three\n\nafter').innerHTML).toBe(
      '<ol><li>one</li><li>two</li><li>three</li></ol><p>after</p>',
    );
    expect(everyWay('7) seven\n8) eight').innerHTML).toBe('<ol start="7"><li>seven</li><li>eight</li></ol>');
    expect(everyWay('- a\n  1) b\n  2) c').innerHTML).toBe('<ul><li>a<ol><li>b</li><li>c</li></ol></li></ul>');
    expect(everyWay('```\n1) code\n```\n\n    2) indented\n\nsee 3) here').innerHTML).toBe(
      `${CODE_BLOCK('1) code')}${CODE_BLOCK('2) indented')}<p>see 3) here</p>`,
    );
  });

  it('keeps a fenced code block inside its list item and the list going after it', () => {
    expect(everyWay('1. Install:\n   ```sh\n   npm i\n   ```\n2. Run:\n   ```\n   go\n   ```\n3. Done\n\nafter').innerHTML).toBe(
      `<ol><li>Install:${CODE_BLOCK('npm i', 'sh')}</li><li>Run:${CODE_BLOCK('go')}</li><li>Done</li></ol><p>after</p>`,
    );
    expect(everyWay('- a\n  ```\n  x\n  ```\n- b\n\nafter').innerHTML).toBe(
      `<ul><li>a${CODE_BLOCK('x')}</li><li>b</li></ul><p>after</p>`,
    );
  });

  it('keeps content indented into a list item after a blank line in that item', () => {
    expect(everyWay('1. One\n\n   ```sh\n   npm i\n   ```\n\n2. Two\n\n\n   ```\n   go\n   ```\n3. Three\n\nafter').innerHTML).toBe(
      `<ol><li>One${CODE_BLOCK('npm i', 'sh')}</li><li>Two${CODE_BLOCK('go')}</li><li>Three</li></ol><p>after</p>`,
    );
    // A second paragraph of an item shows as a line break inside it.
    expect(everyWay('- a\n- b\n\n  more of b\n- c\n\nend').innerHTML).toBe(
      '<ul><li>a</li><li>b<br>more of b</li><li>c</li></ul><p>end</p>',
    );
    expect(everyWay('- a\n\n- b\n\n1. c\n\n---\n\nd').innerHTML).toBe(
      '<ul><li>a</li><li>b</li></ul><ol><li>c</li></ol><hr><p>d</p>',
    );
  });

  it('nests quotes and lists no deeper than 32 elements and still shows their text', () => {
    const depth = (el: Element): number => Math.max(0, ...[...el.children].map((c) => 1 + depth(c)));
    const quotes = everyWay('>'.repeat(5000) + ' deep');
    expect(depth(quotes)).toBeLessThanOrEqual(33);
    expect(quotes.textContent).toBe('deep');
    const lists = everyWay(Array.from({ length: 40 }, (_, i) => `${'   '.repeat(i)}${i + 2}. item${i}`).join('\n'));
    expect(depth(lists)).toBeLessThanOrEqual(33);
    expect(lists.textContent).toBe(Array.from({ length: 40 }, (_, i) => `item${i}`).join(''));
    expect([...lists.querySelectorAll('[start]')].every((el) => el.tagName === 'OL')).toBe(true);
  });

  it('strips the closing # sequence of a heading', () => {
    expect(
      everyWay('## Title ##\n# T #\n### a # b ###\n## x\\##\n## ##\n## a ## #\n# C# and F#\n## spaces  \n#### end ####   ')
        .innerHTML,
    ).toBe('<h2>Title</h2><h1>T</h1><h3>a # b</h3><h2>x##</h2><h2></h2><h2>a ##</h2><h1>C# and F#</h1><h2>spaces</h2><h4>end</h4>');
    expect(everyWay('> ## quoted ##\n\n```\n## not a heading ##\n```').innerHTML).toBe(
      `<blockquote><h2>quoted</h2></blockquote>${CODE_BLOCK('## not a heading ##')}`,
    );
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
  'back\\slash \\ and \\\\ x \\* &amp; &#91;a&#93;&#40;b) <b>__init__</b> a__b__c foo_(bar) _em_.\n\n1) a\n   ```\n   c\n   ```\n2) b\n\n## T ##\n',
  '1. One\n\n   ```sh\n   npm i\n   ```\n\n2. Two\n\n   more\n\n- x\n\n  ```\n  y\n  ```\n\nend',
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

  it('shows text as it arrives, holding back only a one-character lookahead', () => {
    const el = document.createElement('div');
    const md = createMarkdownStream(el);
    md.append('Hello **wor');
    expect(el.textContent).toBe('Hello wo');
    expect(el.querySelector('p > strong')?.textContent).toBe('wo');
    md.append('ld** and');
    expect(el.textContent).toBe('Hello world an');
    md.end();
    expect(el.textContent).toBe('Hello world and');
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

  it('drops carriage returns so CRLF text renders like LF text', () => {
    expect(streamed(['a\r', '\nb\r\n\r', '\nc']).innerHTML).toBe(whole('a\nb\n\nc').innerHTML);
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
  });
});
