/**
 * The documentation site in the browser: finds the page for this URL, renders its Markdown with the
 * project's own renderer (the one `<pagent-chat>` uses for answers: safe, CommonMark + GFM, highlighted
 * code, math), then gives headings their anchors, points links between Markdown files at the pages that
 * show them, fills the table of contents and the "on this page" list, and mounts the live examples.
 */
import { renderMarkdown } from '../../src/chat/markdown.js';
import { sources } from 'virtual:docs/pages';
import { mountExamples } from './examples.js';
import { NAV, PAGES, type NavPage } from './nav.js';
import { mountSearch } from './search.js';
import { createSlugger } from './slug.js';

/** The site's root: this module sits one folder below it, in dev (site/) and in the build (assets/). */
const ROOT = new URL('../', import.meta.url);

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** The page this URL shows (the root and unknown paths show the start page). */
function currentPage(): NavPage {
  const path = decodeURI(location.pathname).slice(decodeURI(ROOT.pathname).length);
  return PAGES.find((p) => p.url === path) ?? PAGES.find((p) => p.url === `${path}index.html`) ?? PAGES[0]!;
}

const pageUrl = (p: NavPage): string => new URL(p.url, ROOT).href;

function renderToc(current: NavPage): void {
  const toc = document.querySelector<HTMLElement>('nav.toc')!;
  for (const section of NAV) {
    const list = el('ul');
    for (const p of section.pages) {
      const link = el('a', { href: pageUrl(p) }, p.title);
      if (p === current) link.setAttribute('aria-current', 'page');
      list.append(el('li', {}, link));
    }
    toc.append(el('h2', {}, section.title), list);
  }
}

/**
 * Headings get GitHub's anchors (so `wire.md#bad-input` works here and on GitHub) and a link to
 * themselves; h2 and h3 are listed under "On this page".
 */
function anchorHeadings(article: HTMLElement): void {
  const slug = createSlugger();
  const onPage = el('ul');
  for (const h of article.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6')) {
    const text = h.textContent ?? '';
    h.id = slug(text);
    if (h.tagName === 'H1') continue;
    h.append(' ', el('a', { className: 'anchor', href: `#${h.id}`, ariaLabel: `Link to “${text}”` }, '#'));
    if (h.tagName === 'H2' || h.tagName === 'H3') onPage.append(el('li', { className: h.tagName.toLowerCase() }, el('a', { href: `#${h.id}` }, text)));
  }
  const nav = document.querySelector<HTMLElement>('nav.on-page')!;
  if (onPage.children.length > 1) nav.append(el('h2', {}, 'On this page'), onPage);
}

/**
 * Links written between the Markdown files (`../wire.md#events`, `../../bench/results.md`) go to the pages
 * that show them; links to other files of the repository have no page here and become plain text.
 * Links inside the site open in the same tab.
 */
function relink(article: HTMLElement, page: NavPage): void {
  const repo = new URL(`file:///repo/${page.source}`);
  for (const a of article.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    const href = a.getAttribute('href')!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // http:, https:, mailto:
    if (href.startsWith('#')) {
      a.removeAttribute('target');
      continue;
    }
    const target = new URL(href, repo);
    const shown = PAGES.find((p) => `/repo/${p.source}` === target.pathname);
    if (shown) {
      a.href = pageUrl(shown) + target.hash;
      a.removeAttribute('target');
    } else {
      a.replaceWith(el('span', { className: 'file' }, ...a.childNodes));
    }
  }
}

/**
 * typedoc-plugin-markdown names each table row with an HTML anchor (`<a id="property-llm"></a>`); the
 * renderer shows raw HTML as text, so the row takes the id and the text goes.
 */
function tableRowAnchors(article: HTMLElement): void {
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  const found: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if ((n as Text).data.includes('<a id="')) found.push(n as Text);
  for (const text of found) {
    const match = /^\s*<a id="([\w-]+)"><\/a>\s*/.exec(text.data);
    if (!match) continue;
    text.data = text.data.slice(match[0].length);
    const row = text.parentElement?.closest('tr');
    if (row && !row.id) row.id = match[1]!;
  }
}

async function main(): Promise<void> {
  const page = currentPage();
  document.title = `${page.title} · pagent-web`;
  document.querySelector<HTMLAnchorElement>('a.home')!.href = ROOT.href;
  renderToc(page);
  mountSearch(document.querySelector<HTMLElement>('.search')!, (url) => new URL(url, ROOT).href);

  let markdown = await sources[page.url]!();
  if (page.url === 'sizes.html') markdown += `\n${(await import('virtual:docs/sizes')).default}`;
  const article = el('article');
  renderMarkdown(article, markdown, { allowImage: (url) => url.origin === location.origin, math: false });
  tableRowAnchors(article);
  anchorHeadings(article);
  relink(article, page);
  document.querySelector('main')!.append(article);
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  await mountExamples(article);
  document.body.dataset['ready'] = '';
}

main().catch((err: unknown) => {
  console.error(err);
  document.querySelector('main')!.append(el('p', { className: 'failed' }, `This page could not be shown: ${String(err)}`));
});
