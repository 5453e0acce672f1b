/**
 * The documentation site: `npm run docs` serves it (with the demo's scripted model and wire server, which
 * the live examples talk to), `npm run build:docs` builds it into dist-docs/ for any static host.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { demoServer } from '../demo/server.js';
import { docsSite } from './tools/site-plugin.js';

const src = (path: string): string => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // relative asset URLs: the site works from any folder of a static host
  base: './',
  publicDir: false,
  plugins: [demoServer(), docsSite()],
  resolve: {
    // the examples import the package by its name, as a reader's app would
    alias: [
      { find: /^pagent-web$/, replacement: src('index.ts') },
      { find: /^pagent-web\/pagent-chat\.js$/, replacement: src('chat/pagent-chat.ts') },
      { find: /^pagent-web\/element$/, replacement: src('chat/element.ts') },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('../dist-docs', import.meta.url)),
    emptyOutDir: true,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1', port: 4174 },
});
