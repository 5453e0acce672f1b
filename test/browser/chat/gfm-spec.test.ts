/**
 * GitHub Flavored Markdown: the examples of the GFM spec's extension sections (tables, task list items,
 * strikethrough, extended autolinks, disallowed raw HTML), written out here with the spec's expected HTML,
 * plus cases the spec leaves implicit. Each renders through `<pagent-chat>` and the markdown stream in
 * three chunkings, with identical DOM. Two spec examples meet a deliberate deviation, listed with it.
 */
import { describe, expect, it } from 'vitest';
import { normalizeHtml } from '../../helpers/html-normalize.js';
import { seededRandom } from '../../helpers/random.js';
import { renderThroughElement, renderThroughStream } from './markdown-conformance.js';

interface Case {
  name: string;
  markdown: string;
  html: string;
  /** Why our output differs from the spec's here (the expected HTML is then ours). */
  deviation?: string;
}

const TABLES: Case[] = [
  {
    name: 'spec: a table',
    markdown: '| foo | bar |\n| --- | --- |\n| baz | bim |\n',
    html: '<table><thead><tr><th>foo</th><th>bar</th></tr></thead><tbody><tr><td>baz</td><td>bim</td></tr></tbody></table>',
  },
  {
    name: 'spec: alignment, no outer pipes on some rows',
    markdown: '| abc | defghi |\n:-: | -----------:\nbar | baz\n',
    html:
      '<table><thead><tr><th align="center">abc</th><th align="right">defghi</th></tr></thead>' +
      '<tbody><tr><td align="center">bar</td><td align="right">baz</td></tr></tbody></table>',
  },
  {
    name: 'spec: escaped pipes, also inside code and strong',
    markdown: '| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |\n',
    html:
      '<table><thead><tr><th>f|oo</th></tr></thead><tbody><tr><td>b <code>|</code> az</td></tr>' +
      '<tr><td>b <strong>|</strong> im</td></tr></tbody></table>',
  },
  {
    name: 'spec: a block quote ends the table',
    markdown: '| abc | def |\n| --- | --- |\n| bar | baz |\n> bar\n',
    html:
      '<table><thead><tr><th>abc</th><th>def</th></tr></thead><tbody><tr><td>bar</td><td>baz</td></tr></tbody></table>' +
      '<blockquote><p>bar</p></blockquote>',
  },
  {
    name: 'spec: a line without pipes is a row; a blank line ends the table',
    markdown: '| abc | def |\n| --- | --- |\n| bar | baz |\nbar\n\nbar\n',
    html:
      '<table><thead><tr><th>abc</th><th>def</th></tr></thead><tbody><tr><td>bar</td><td>baz</td></tr>' +
      '<tr><td>bar</td><td></td></tr></tbody></table><p>bar</p>',
  },
  {
    name: 'spec: a delimiter row that does not match the header is no table',
    markdown: '| abc | def |\n| --- |\n| bar |\n',
    html: '<p>| abc | def |\n| --- |\n| bar |</p>',
  },
  {
    name: 'spec: ragged rows get empty cells or lose the excess',
    markdown: '| abc | def |\n| --- | --- |\n| bar |\n| bar | baz | boo |\n',
    html:
      '<table><thead><tr><th>abc</th><th>def</th></tr></thead><tbody><tr><td>bar</td><td></td></tr>' +
      '<tr><td>bar</td><td>baz</td></tr></tbody></table>',
  },
  {
    name: 'spec: no body rows, no tbody',
    markdown: '| abc | def |\n| --- | --- |\n',
    html: '<table><thead><tr><th>abc</th><th>def</th></tr></thead></table>',
  },
  {
    name: 'no outer pipes at all, left alignment',
    markdown: 'name | qty\n:--- | ---\napple | 3\n',
    html: '<table><thead><tr><th align="left">name</th><th>qty</th></tr></thead><tbody><tr><td align="left">apple</td><td>3</td></tr></tbody></table>',
  },
  {
    name: 'the header is the last line of the paragraph before the delimiter row',
    markdown: 'Totals below:\n| a | b |\n|---|---|\n| 1 | 2 |\n',
    html: '<p>Totals below:</p><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>',
  },
  {
    name: 'a table in a list item',
    markdown: '- item\n\n  | a |\n  |---|\n  | 1 |\n',
    html: '<ul><li><p>item</p><table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table></li></ul>',
  },
];

const TASKS: Case[] = [
  {
    name: 'spec: unchecked and checked',
    markdown: '- [ ] foo\n- [x] bar\n',
    html: '<ul><li><input disabled="" type="checkbox"> foo</li><li><input checked="" disabled="" type="checkbox"> bar</li></ul>',
  },
  {
    name: 'spec: nested task lists',
    markdown: '- [x] foo\n  - [ ] bar\n  - [x] baz\n- [ ] bim\n',
    html:
      '<ul><li><input checked="" disabled="" type="checkbox"> foo<ul><li><input disabled="" type="checkbox"> bar</li>' +
      '<li><input checked="" disabled="" type="checkbox"> baz</li></ul></li><li><input disabled="" type="checkbox"> bim</li></ul>',
  },
  {
    name: 'an upper-case X is checked too; a marker without a space after it is text',
    markdown: '1. [X] done\n2. [ ]not a task\n',
    html: '<ol><li><input checked="" disabled="" type="checkbox"> done</li><li>[ ]not a task</li></ol>',
  },
  {
    name: 'in a loose list the checkbox precedes the paragraph',
    markdown: '- [ ] one\n\n- [x] two\n',
    html: '<ul><li><input disabled="" type="checkbox"> <p>one</p></li><li><input checked="" disabled="" type="checkbox"> <p>two</p></li></ul>',
  },
];

const STRIKETHROUGH: Case[] = [
  { name: 'spec: two tildes', markdown: '~~Hi~~ Hello, world!\n', html: '<p><del>Hi</del> Hello, world!</p>' },
  {
    name: 'spec: a new paragraph ends it',
    markdown: 'This ~~has a\n\nnew paragraph~~.\n',
    html: '<p>This ~~has a</p><p>new paragraph~~.</p>',
  },
  { name: 'one tilde each side', markdown: 'a ~b~ c\n', html: '<p>a <del>b</del> c</p>' },
  { name: 'three tildes are text', markdown: 'This will ~~~not~~~ strike.\n', html: '<p>This will ~~~not~~~ strike.</p>' },
  { name: 'an opener that never closes is text', markdown: 'an ~~open strike and *em*\n', html: '<p>an ~~open strike and <em>em</em></p>' },
];

const AUTOLINKS: Case[] = [
  { name: 'spec: www', markdown: 'www.commonmark.org\n', html: '<p><a href="http://www.commonmark.org">www.commonmark.org</a></p>' },
  {
    name: 'spec: www with a path',
    markdown: 'Visit www.commonmark.org/help for more information.\n',
    html: '<p>Visit <a href="http://www.commonmark.org/help">www.commonmark.org/help</a> for more information.</p>',
  },
  {
    name: 'spec: trailing punctuation',
    markdown: 'Visit www.commonmark.org.\n\nVisit www.commonmark.org/a.b.\n',
    html:
      '<p>Visit <a href="http://www.commonmark.org">www.commonmark.org</a>.</p>' +
      '<p>Visit <a href="http://www.commonmark.org/a.b">www.commonmark.org/a.b</a>.</p>',
  },
  {
    name: 'spec: parentheses',
    markdown:
      'www.google.com/search?q=Markup+(business)\n\nwww.google.com/search?q=Markup+(business)))\n\n' +
      '(www.google.com/search?q=Markup+(business))\n\n(www.google.com/search?q=Markup+(business)\n',
    html:
      '<p><a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a></p>' +
      '<p><a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a>))</p>' +
      '<p>(<a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a>)</p>' +
      '<p>(<a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a></p>',
  },
  {
    name: 'spec: inner parentheses',
    markdown: 'www.google.com/search?q=(business))+ok\n',
    html: '<p><a href="http://www.google.com/search?q=(business))+ok">www.google.com/search?q=(business))+ok</a></p>',
  },
  {
    name: 'spec: entity-like endings',
    markdown: 'www.google.com/search?q=commonmark&hl=en\n\nwww.google.com/search?q=commonmark&hl;\n',
    html:
      '<p><a href="http://www.google.com/search?q=commonmark&amp;hl=en">www.google.com/search?q=commonmark&amp;hl=en</a></p>' +
      '<p><a href="http://www.google.com/search?q=commonmark">www.google.com/search?q=commonmark</a>&amp;hl;</p>',
  },
  {
    name: 'spec: < ends an autolink',
    markdown: 'www.commonmark.org/he<lp\n',
    html: '<p><a href="http://www.commonmark.org/he">www.commonmark.org/he</a>&lt;lp</p>',
  },
  {
    name: 'spec: http, https and ftp',
    markdown: 'http://commonmark.org\n\n(Visit https://encrypted.google.com/search?q=Markup+(business))\n\nAnonymous FTP is available at ftp://foo.bar.baz.\n',
    html:
      '<p><a href="http://commonmark.org">http://commonmark.org</a></p>' +
      '<p>(Visit <a href="https://encrypted.google.com/search?q=Markup+(business)">https://encrypted.google.com/search?q=Markup+(business)</a>)</p>' +
      '<p>Anonymous FTP is available at ftp://foo.bar.baz.</p>',
    deviation: 'ftp: is not an allowed link scheme (only http, https, mailto and relative URLs), so it stays text',
  },
  { name: 'spec: email', markdown: 'foo@bar.baz\n', html: '<p><a href="mailto:foo@bar.baz">foo@bar.baz</a></p>' },
  {
    name: 'spec: + only before the @',
    markdown: "hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is.\n",
    html: '<p>hello@mail+xyz.example isn\'t valid, but <a href="mailto:hello+xyz@mail.example">hello+xyz@mail.example</a> is.</p>',
  },
  {
    name: 'spec: email endings',
    markdown: 'a.b-c_d@a.b\n\na.b-c_d@a.b.\n\na.b-c_d@a.b-\n\na.b-c_d@a.b_\n',
    html:
      '<p><a href="mailto:a.b-c_d@a.b">a.b-c_d@a.b</a></p><p><a href="mailto:a.b-c_d@a.b">a.b-c_d@a.b</a>.</p>' +
      '<p>a.b-c_d@a.b-</p><p>a.b-c_d@a.b_</p>',
  },
];

const RAW_HTML: Case[] = [
  {
    name: 'spec: disallowed raw HTML',
    markdown: '<strong> <title> <style> <em>\n\n<blockquote>\n  <xmp> is disallowed.  <XMP> is also disallowed.\n</blockquote>\n',
    html:
      '<p>&lt;strong&gt; &lt;title&gt; &lt;style&gt; &lt;em&gt;</p>' +
      '<pre>&lt;blockquote&gt;\n  &lt;xmp&gt; is disallowed.  &lt;XMP&gt; is also disallowed.\n&lt;/blockquote&gt;</pre>',
    deviation: 'all raw HTML is shown as text (the spec filters only some tags)',
  },
];

function randomChunks(text: string, seed: number): string[] {
  const next = seededRandom(seed);
  const chars = [...text];
  const out: string[] = [];
  for (let at = 0; at < chars.length; ) {
    const size = 1 + Math.floor(next() * 12);
    out.push(chars.slice(at, at + size).join(''));
    at += size;
  }
  return out;
}

const SECTIONS: Array<[string, Case[]]> = [
  ['tables', TABLES],
  ['task list items', TASKS],
  ['strikethrough', STRIKETHROUGH],
  ['extended autolinks', AUTOLINKS],
  ['disallowed raw HTML', RAW_HTML],
];

describe.each(SECTIONS)('GFM %s', (_, cases) => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c: Case) => {
    const whole = await renderThroughElement([c.markdown]);
    expect(await renderThroughElement([...c.markdown]), 'one character per delta').toBe(whole);
    expect(await renderThroughElement(randomChunks(c.markdown, c.markdown.length)), 'random deltas').toBe(whole);
    expect(renderThroughStream([...c.markdown]), 'markdown stream').toBe(whole);
    expect(normalizeHtml(whole)).toBe(normalizeHtml(c.html));
  });
});

describe('GFM cases', () => {
  it('counts them', () => {
    const all = SECTIONS.flatMap(([, cases]) => cases);
    console.info(`GFM: ${all.length} cases, ${all.filter((c) => c.deviation).length} with a listed deviation`);
    expect(all.length).toBeGreaterThanOrEqual(30);
  });

  it('renders task checkboxes as real disabled inputs whose state a screen reader gets', async () => {
    const el = document.createElement('div');
    el.innerHTML = await renderThroughElement(['- [x] shipped\n- [ ] tested\n']);
    const boxes = [...el.querySelectorAll('input')];
    expect(boxes.map((b) => [b.type, b.disabled, b.checked])).toEqual([
      ['checkbox', true, true],
      ['checkbox', true, false],
    ]);
  });
});
