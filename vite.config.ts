/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig, type Connect, type Plugin } from 'vite';
import { playwright } from '@vitest/browser-playwright';
import { handleTestRoute } from './test/server/index.js';
import { setOffline } from './test/browser-commands.js';
import { demoServer } from './demo/server.js';
import { minifyLitCss } from './build/minify-css.js';

// Debian's Chromium (apt-get install chromium); Playwright never downloads a browser of its own here.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox', // CI runs as root
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Same-origin mock routes (/__test-api/*) for Vitest browser mode, next to the globalSetup server. */
function testApi(): Plugin {
  const mount = (app: Connect.Server): void => {
    app.use('/__test-api', (req, res, next) => {
      handleTestRoute(req, res).then((handled) => handled || next(), next);
    });
  };
  return {
    name: 'pagent-test-api',
    // A block body on purpose: a function returned from this hook would run later as a "post" hook.
    configureServer(server) {
      mount(server.middlewares);
    },
  };
}

const external = [/^lit(\/|$)/, /^@lit\//, 'idb-keyval', /^eventsource-parser(\/|$)/];

/** `vite build --mode bundle`: dist/pagent-chat.bundle.js, one ES module with every dependency inlined. */
const bundleBuild = {
  outDir: 'dist',
  emptyOutDir: false, // next to the library build
  sourcemap: true,
  copyPublicDir: false,
  modulePreload: false,
  // Not library mode: that keeps whitespace in ES output for consumers' tree-shaking; this file is final.
  minify: true,
  rolldownOptions: {
    input: { 'pagent-chat.bundle': 'src/pagent-chat.bundle.ts' },
    preserveEntrySignatures: 'strict' as const,
    // one file: the lazily loaded entity table is inlined too
    output: { format: 'es' as const, entryFileNames: '[name].js', codeSplitting: false },
  },
};

/** The one-file bundle leaves out the lazily loaded highlighter and TeX renderer (see the module). */
const withoutRenderers: Plugin = {
  name: 'bundle-without-renderers',
  enforce: 'pre',
  resolveId(source) {
    return /\/(?:highlighter|math-render)\.js$/.test(source)
      ? fileURLToPath(new URL('./src/chat/markdown/bundle-without-renderers.ts', import.meta.url))
      : null;
  },
};

/** The element's styles ship squeezed (see build/minify-css.ts); tests and the demo use them as written. */
const litCss = minifyLitCss(/\/src\/chat\/(?:[a-z-]+\/)?(?:[a-z-]+-)?styles\.ts$/);

export default defineConfig(({ mode }) => ({
  plugins: mode === 'demo' ? [demoServer()] : mode === 'bundle' ? [testApi(), withoutRenderers, litCss] : [testApi(), litCss],
  build:
    mode === 'demo'
      ? // `vite build --mode demo`: the demo app (index.html → demo/main.ts)
        { outDir: 'dist-demo', emptyOutDir: true }
      : mode === 'bundle'
        ? bundleBuild
        : // `vite build`: the library, ESM only, dependencies left as bare imports
          {
            outDir: 'dist',
            emptyOutDir: true,
            sourcemap: true,
            minify: false, // consumers' bundlers minify; readable dist for debugging
            lib: {
              entry: {
                index: 'src/index.ts',
                element: 'src/chat/element.ts',
                'pagent-chat': 'src/chat/pagent-chat.ts',
                // types-only entries (JSX / template declarations): empty modules, so a plain import works too
                react: 'src/chat/frameworks/react.ts',
                vue: 'src/chat/frameworks/vue.ts',
                svelte: 'src/chat/frameworks/svelte.ts',
              },
              formats: ['es' as const],
            },
            rolldownOptions: { external },
          },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Lit's dev build (the "development" condition under Vitest) warns once per file.
    onConsoleLog: (log: string) => !log.includes('Lit is in dev mode'),
    // expect.poll waits for streamed output; its 1 s default is too tight on a loaded 2-core CI machine.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        resolve: {
          alias: {
            // see test/stubs/wtr-commands.ts: makes @open-wc/testing importable under Vitest
            '@web/test-runner-commands': fileURLToPath(new URL('./test/stubs/wtr-commands.ts', import.meta.url)),
          },
        },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          setupFiles: ['test/setup-browser.ts'],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({ launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } }),
            instances: [{ browser: 'chromium' as const }],
            commands: { setOffline },
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The package as a consumer gets it (npm pack): its types, the framework apps, the README's samples,
        // the no-bundler page, the manifest. Compilers and builds keep both cores busy for a while, so this
        // project starts after the others, whose tests wait on streams in real time.
        extends: true,
        test: {
          name: 'package',
          environment: 'node',
          include: ['test/package/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
}));
