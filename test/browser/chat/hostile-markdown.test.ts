import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { createMarkdownStream, renderMarkdown, type MarkdownOptions } from '../../../src/chat/markdown.js';

const api = inject('apiUrl');

declare global {
  interface Window {
    mdPwned?: unknown;
  }
}

/** Every payload would set window.mdPwned, call alert, or fetch a URL holding MARKER if it ever ran or loaded. */
const MARKER = `md-hostile-${Math.random().toString(36).slice(2)}`;
const PIXEL = `${api}/md-pixel/${MARKER}.png`;
const SAME_ORIGIN_PIXEL = `/__test-api/md-pixel/${MARKER}.png`;
const SET = 'window.mdPwned=1';

const PAYLOADS: Record<string, string> = {
  'script tag': `<script>${SET}</script>`,
  'script tag split over lines': `<scr\nipt>${SET}</scr\nipt>`,
  'img onerror': `<img src=x onerror="${SET}">`,
  'img onerror with remote src': `<img src="${PIXEL}" onerror="${SET}">`,
  'svg onload': `<svg onload="${SET}"></svg>`,
  'svg script': `<svg><script>${SET}</script></svg>`,
  'iframe javascript src': `<iframe src="javascript:${SET}"></iframe>`,
  'iframe srcdoc': `<iframe srcdoc="<script>parent.${SET}</script>"></iframe>`,
  'object data': `<object data="data:text/html,<script>${SET}</script>"></object>`,
  'mathml mutation xss': `<math><mtext><table><mglyph><style><img src=x onerror="${SET}"></style></mglyph></table></mtext></math>`,
  'svg style mutation xss': `<svg></p><style><a id="</style><img src=1 onerror=${SET}>">`,
  'noscript mutation xss': `<noscript><p title="</noscript><img src=x onerror=${SET}>">`,
  'form mathml mutation xss': `<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=${SET} src>">`,
  'css injection': `<style>body{display:none} *{background:url(${PIXEL})}</style>`,
  'inline style attribute': `<p style="background:url(${PIXEL})">x</p>`,
  'link stylesheet': `<link rel=stylesheet href="${PIXEL}">`,
  'meta refresh': `<meta http-equiv="refresh" content="0;url=javascript:${SET}">`,
  'base href': `<base href="javascript:${SET}//">[rel](foo)`,
  'form action': `<form action="javascript:${SET}"><button>go</button></form>`,
  'dom clobbering by name and id': `<img name="clobberedName"><form id="clobberedId"></form><a id="clobberedA" href="x">`,
  'html anchor': `<a href="javascript:${SET}">html link</a>`,
  'javascript link': `[x](javascript:${SET})`,
  'mixed case scheme': `[x](JaVaScRiPt:${SET})`,
  'entity tab in scheme': `[x](jav&#x09;ascript:${SET})`,
  'decimal entity in scheme': `[x](jav&#9;ascript:${SET})`,
  'entity colon': `[x](javascript&colon;${SET})`,
  'numeric colon': `[x](javascript&#58;${SET})`,
  'all-entity scheme': `[x](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${SET})`,
  'leading control character': `[x](\x01javascript:${SET})`,
  'leading space': `[x]( javascript:${SET})`,
  'newline in scheme': `[x](java\nscript:${SET})`,
  'tab in scheme': `[x](java\tscript:${SET})`,
  'zero-width space in scheme': `[x](java\u200bscript:${SET})`,
  'angle-bracket destination': `[x](<javascript:${SET}>) [y](< javascript:${SET}>)`,
  'vbscript link': `[x](vbscript:msgbox(1))`,
  'data html link': `[x](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)`,
  'data svg link': `[x](data:image/svg+xml,<svg onload="${SET}">)`,
  'javascript autolink': `<javascript:${SET}>`,
  'html autolink': `<http://example.com/> and <mailto:a@example.com>`,
  'remote image': `![pixel](${PIXEL})`,
  'same-origin image': `![pixel](${SAME_ORIGIN_PIXEL})`,
  'image with javascript src': `![x](javascript:${SET})`,
  'image with data src': `![x](data:image/svg+xml,<svg onload="${SET}">)`,
  'image inside a javascript link': `[![i](${PIXEL})](javascript:${SET})`,
  'link title quote breakout': `[x](https://example.com/" onmouseover="${SET})`,
  'html in link text': `[<img src=x onerror=${SET}>](https://example.com/)`,
  'html in code': '`<img src=x onerror=' + SET + '>`\n\n```html\n<script>' + SET + '</script>\n```',
  'html in table cell': `| a |\n|---|\n| <img src=x onerror=${SET}> |`,
  'fence language injection': '```js" onload="' + SET + '\ncode\n```',
  'deep nesting': '>'.repeat(60) + ' deep\n\n' + '- a\n'.repeat(3) + '  '.repeat(40) + '- deep',
  'prototype-ish words': '[__proto__](constructor) `toString` **hasOwnProperty**',
  'javascript link in a heading with a closing sequence': `## [x](javascript:${SET}) ##\n# <img src=x onerror=${SET}> #`,
  'javascript link in a 1) list item': `1) [x](javascript:${SET})\n2) <script>${SET}</script>`,
  'literal backslashes around a javascript link': `\\ [x](javascript:${SET}) \\\t\\é [y](java\\ script:${SET})\\`,
  'underscores inside a javascript link': `a__b [x](java_script:${SET}) [y](javascript:__${SET}__) c_(d)`,
  'entity-encoded html and markdown in text': `&lt;img src=x onerror=${SET}&gt; &#60;script&#62;${SET}&#60;/script&#62; &#91;x&#93;&#40;javascript:${SET}&#41; [y](javascript&#x3A;${SET})`,
  'nesting far past the depth cap': '>'.repeat(3000) + ' deep\n\n' + Array.from({ length: 50 }, (_, i) => `${'   '.repeat(i)}${i + 2}. x`).join('\n'),
  'private-use stand-in characters': `[x](javascript:${SET}\ue000 \ue001\ue002 [y](https://ok.example/\ue000\ue002)`,
};

// Everything the renderer may create. GFM adds <del> (strikethrough) and disabled task checkboxes.
const TAGS = new Set([
  'P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'EM', 'STRONG', 'DEL', 'CODE', 'PRE', 'UL', 'OL', 'LI', 'TABLE',
  'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'BLOCKQUOTE', 'HR', 'BR', 'A', 'SPAN', 'DIV', 'BUTTON', 'IMG', 'INPUT',
]);
const ATTRIBUTES: Record<string, string[]> = {
  A: ['href', 'title', 'rel', 'target', 'referrerpolicy'],
  BUTTON: ['type', 'part', 'aria-label', 'data-copied'],
  DIV: ['part', 'role'],
  PRE: ['part'],
  // `language-` and the fence's first word (a class name, never markup)
  CODE: ['class'],
  OL: ['start'],
  LI: ['value'],
  SPAN: ['part'],
  TH: ['align'],
  TD: ['align'],
  INPUT: ['type', 'disabled', 'checked', 'aria-label'],
  IMG: ['alt', 'src', 'title', 'referrerpolicy', 'loading'],
};
const SAFE_PROTOCOLS = ['http:', 'https:', 'mailto:'];

function randomSplits(text: string, seed: number): string[] {
  let s = seed >>> 0;
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const n = 1 + ((s >>> 16) % 9);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

type Mode = { name: string; render: (el: HTMLElement, text: string, options?: MarkdownOptions) => void };
const stream = (split: (text: string) => string[]) => (el: HTMLElement, text: string, options?: MarkdownOptions) => {
  const md = createMarkdownStream(el, options);
  for (const chunk of split(text)) md.append(chunk);
  md.end();
};
const MODES: Mode[] = [
  { name: 'whole text', render: renderMarkdown },
  { name: 'stream, one piece', render: stream((t) => [t]) },
  { name: 'stream, char by char', render: stream((t) => [...t]) },
  ...[1, 2, 3].map((seed) => ({ name: `stream, random splits ${seed}`, render: stream((t) => randomSplits(t, seed)) })),
];

/** Checks every node against the allow-lists; returns the problems found. */
function audit(root: HTMLElement, imagesAllowed: boolean): string[] {
  const problems: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    if (!TAGS.has(el.tagName) || (el.tagName === 'IMG' && !imagesAllowed)) problems.push(`element <${el.tagName}>`);
    for (const a of el.getAttributeNames()) {
      if (!(ATTRIBUTES[el.tagName] ?? []).includes(a)) problems.push(`attribute ${a} on <${el.tagName}>`);
    }
    if (el instanceof HTMLAnchorElement) {
      if (!el.hasAttribute('href')) problems.push('<a> without href');
      else if (!SAFE_PROTOCOLS.includes(new URL(el.href).protocol)) problems.push(`link to ${el.href}`);
      if (el.rel !== 'noopener noreferrer' || el.target !== '_blank') problems.push(`link rel/target ${el.rel} ${el.target}`);
    }
    if (el instanceof HTMLImageElement && !['http:', 'https:'].includes(new URL(el.src).protocol)) {
      problems.push(`image from ${el.src}`);
    }
    if (el instanceof HTMLInputElement && (el.type !== 'checkbox' || !el.disabled)) problems.push(`input ${el.type}`);
    if (el.tagName === 'CODE' && el.hasAttribute('class') && !/^language-\S*$/.test(el.getAttribute('class')!)) {
      problems.push(`code class ${el.getAttribute('class')}`);
    }
  }
  return problems;
}

const markerRequests = (): string[] =>
  performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((n) => n.includes(MARKER));

/** Lets anything that would run or load get its chance: a few tasks and frames. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  }
}

let alertSpy: ReturnType<typeof vi.spyOn>;
let host: HTMLElement;
beforeEach(() => {
  delete window.mdPwned;
  alertSpy = vi.spyOn(window, 'alert').mockImplementation(() => {});
  performance.clearResourceTimings();
  host = document.createElement('section');
  document.body.append(host);
});
afterEach(() => {
  host.remove();
  vi.restoreAllMocks();
});

describe('hostile markdown', () => {
  it.each(Object.entries(PAYLOADS))('renders %s inertly in every path', async (_, payload) => {
    const href = location.href;
    const baseURI = document.baseURI;
    const windowKeys = Object.getOwnPropertyNames(window).sort();
    const bodyDisplay = getComputedStyle(document.body).display;
    const outputs: HTMLElement[] = [];
    for (const mode of MODES) {
      const el = document.createElement('div');
      host.append(el);
      mode.render(el, payload);
      outputs.push(el);
      expect(audit(el, false), mode.name).toEqual([]);
    }
    await settle();
    expect(window.mdPwned).toBeUndefined();
    expect(alertSpy).not.toHaveBeenCalled();
    expect(markerRequests()).toEqual([]);
    expect(location.href).toBe(href);
    expect(document.baseURI).toBe(baseURI);
    expect(Object.getOwnPropertyNames(window).sort()).toEqual(windowKeys);
    expect(getComputedStyle(document.body).display).toBe(bodyDisplay);
    for (const name of ['clobberedName', 'clobberedId', 'clobberedA']) {
      expect(name in window, name).toBe(false);
      expect(name in document, name).toBe(false);
    }
    expect(document.querySelectorAll('script, style, meta, base, form, iframe, object, embed, svg, math, link').length).toBe(
      [...document.querySelectorAll('script, style, meta, base, form, iframe, object, embed, svg, math, link')].filter(
        (n) => !host.contains(n),
      ).length,
    );
    // every path gives the same DOM
    const first = outputs[0]!;
    first.normalize();
    for (const out of outputs.slice(1)) {
      out.normalize();
      expect(out.innerHTML).toBe(first.innerHTML);
    }
  });

  it('shows raw HTML payloads as their text', () => {
    renderMarkdown(host, PAYLOADS['script tag']!);
    expect(host.textContent).toBe(`<script>${SET}</script>`);
    renderMarkdown(host, PAYLOADS['img onerror']!);
    expect(host.textContent).toBe(`<img src=x onerror="${SET}">`);
  });

  it('never makes a refused link an <a href>', () => {
    const refused = Object.entries(PAYLOADS).filter(([name]) => /link|scheme|colon|control|space|autolink/.test(name));
    expect(refused.length).toBeGreaterThan(10);
    for (const [name, payload] of refused) {
      for (const mode of MODES) {
        const el = document.createElement('div');
        mode.render(el, payload);
        for (const a of el.querySelectorAll('a')) {
          expect(SAFE_PROTOCOLS, `${name} (${mode.name}): ${a.href}`).toContain(new URL(a.href).protocol);
        }
      }
    }
  });

  it('keeps every payload inert even when the page allows every image', async () => {
    const allowImage = (url: URL): boolean => url.href.includes(MARKER);
    for (const [name, payload] of Object.entries(PAYLOADS)) {
      const el = document.createElement('div');
      host.append(el);
      renderMarkdown(el, payload, { allowImage });
      expect(audit(el, true), name).toEqual([]);
    }
    await settle();
    expect(window.mdPwned).toBeUndefined();
    expect(alertSpy).not.toHaveBeenCalled();
    // only the markdown images allowed by the page became images, and they were requested
    const sameOrigin = new URL(SAME_ORIGIN_PIXEL, location.href).href;
    const imgs = [...host.querySelectorAll('img')].map((i) => i.src);
    expect(imgs.sort()).toEqual([PIXEL, sameOrigin, PIXEL].sort());
    await vi.waitFor(() => expect(new Set(markerRequests())).toEqual(new Set([PIXEL, sameOrigin])), { timeout: 5_000 });
  });

  it.each(['img onerror', 'img onerror with remote src', 'iframe srcdoc'])(
    'uses a %s payload that does run when parsed as HTML, so the checks above can see it run',
    async (name) => {
      const control = document.createElement('template');
      control.innerHTML = PAYLOADS[name]!; // the control case: what a naive renderer would do
      host.append(control.content);
      await vi.waitFor(() => expect(window.mdPwned).toBe(1), { timeout: 5_000 });
    },
  );

  it('requests an allowed image, so the no-request checks above can see a load', async () => {
    renderMarkdown(host, `![pixel](${PIXEL})`, { allowImage: () => true });
    await vi.waitFor(() => expect(markerRequests()).toEqual([PIXEL]), { timeout: 5_000 });
  });

  it('does not load a remote image whose alt text has streamed in before its URL', async () => {
    const url = `${api}/md-pixel/${MARKER}-streamed.png`;
    const md = createMarkdownStream(host);
    md.append('![a long alt text');
    md.append(`](${url}`);
    md.append(') after');
    md.end();
    await settle();
    expect(host.querySelector('img')).toBeNull();
    expect(host.textContent).toBe('a long alt text after');
    expect(markerRequests().filter((n) => n === url)).toEqual([]);
  });
});
