/**
 * The Vite plugin behind the documentation site (docs/vite.config.ts):
 * - `virtual:docs/pages`: each page of the table of contents with a loader for its Markdown (a chunk per
 *   page), rendered in the browser by the project's own Markdown renderer;
 * - `virtual:docs/search`: the search index, built from the same Markdown (a chunk loaded on the first search);
 * - `virtual:docs/sizes`: the size of each budgeted entry, measured as test/package/sizes.test.ts does, for
 *   the sizes page;
 * - in the build, one HTML file per page (the site's shell, with asset paths made relative to its folder),
 *   so any static host serves `guides/element.html`; the dev and preview servers answer those paths with
 *   the shell as well.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { measureSize, SIZE_ENTRIES } from '../../bench/sizes.js';
import { PAGES } from '../site/nav.js';
import { pageEntries } from './search-index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES_ID = 'virtual:docs/pages';
const SEARCH_ID = 'virtual:docs/search';
const SIZES_ID = 'virtual:docs/sizes';

/** The sizes section of the sizes page, measured now. */
async function sizesMarkdown(): Promise<string> {
  // the built package, as test/package/sizes.test.ts measures it (`npm run build` builds it first); else the sources
  const source = existsSync(`${ROOT}dist/index.js`) && existsSync(`${ROOT}dist/pagent-chat.js`) ? 'dist' : 'src';
  const rows: string[] = [];
  for (const entry of SIZE_ENTRIES) {
    const figure = await measureSize(entry, source);
    const kB = (bytes: number): string => `${(bytes / 1000).toFixed(2)} kB`;
    const top = figure.modules.slice(0, 5).map((m) => `\`${m.path.replace(/^(src|node_modules)\//, '')}\` ${kB(m.share)}`).join(', ');
    rows.push(`| ${entry.name} | ${kB(figure.bytes)} | ${entry.budget === undefined ? '—' : kB(entry.budget)} | ${figure.lazy.length} (${kB(figure.lazy.reduce((a, b) => a + b, 0))}) | ${top} |`);
  }
  return [
    '## Measured when this site was built',
    '',
    'min+gzip of what a page loads at once for each entry (esbuild, gzip -9), the chunks it can load later, and',
    'the five modules that weigh most in the first load (their share of the gzip size, estimated from their',
    'minified bytes).',
    source === 'dist'
      ? 'Measured from the built package (`dist/`), as the budget test measures it.'
      : 'Measured from the sources, as no built package was there: the element\'s styles are not squeezed yet, so it weighs a little more than its build.',
    '',
    '| entry | loaded at once | budget | lazy chunks | largest parts |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

/** The site's HTML shell for a page `depth` folders below the root (asset URLs adjusted). */
const shellAt = (html: string, depth: number): string => (depth === 0 ? html : html.replaceAll('"./', `"${'../'.repeat(depth)}`));

export function docsSite(): Plugin {
  return {
    name: 'pagent-docs-site',
    resolveId(id) {
      return id === PAGES_ID || id === SEARCH_ID || id === SIZES_ID ? `\0${id}` : null;
    },
    async load(id) {
      if (id === `\0${PAGES_ID}`) {
        const loaders = PAGES.map((p) => `  ${JSON.stringify(p.url)}: () => import(${JSON.stringify(`/@fs${ROOT}${p.source}?raw`)}).then((m) => m.default),`);
        return `export const sources = {\n${loaders.join('\n')}\n};\n`;
      }
      if (id === `\0${SEARCH_ID}`) {
        const entries = PAGES.flatMap((p) => pageEntries(p.url, p.title, readFileSync(`${ROOT}${p.source}`, 'utf8')));
        return `export default ${JSON.stringify(entries)};\n`;
      }
      if (id === `\0${SIZES_ID}`) return `export default ${JSON.stringify(await sizesMarkdown())};\n`;
      return null;
    },
    configureServer(server) {
      // a page's path gets the shell, as the built site has one file per page
      server.middlewares.use((req, _res, next) => {
        const path = (req.url ?? '').split('?')[0]!.replace(/^\//, '');
        if (PAGES.some((p) => p.url === path)) req.url = '/index.html';
        next();
      });
    },
    // after the build has written index.html: a copy of it for every other page
    writeBundle(options) {
      const out = options.dir!;
      const html = readFileSync(join(out, 'index.html'), 'utf8');
      for (const p of PAGES) {
        if (p.url === 'index.html') continue;
        mkdirSync(dirname(join(out, p.url)), { recursive: true });
        writeFileSync(join(out, p.url), shellAt(html, p.url.split('/').length - 1));
      }
    },
  };
}
