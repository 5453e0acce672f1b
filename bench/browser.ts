/**
 * What the browser-driven benchmarks share: Debian's Chromium launched like the browser tests launch it,
 * a source entry bundled with Vite into one classic script, and a blank page running that script.
 */
import { build, type Rolldown } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/chromium.js';

export { launchChromium };

/** Runs `fn` with a launched Chromium and closes the browser afterwards, also when `fn` throws. */
export async function withChromium<T>(fn: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await launchChromium();
  try {
    return await fn(browser);
  } finally {
    await browser.close();
  }
}

/**
 * Bundles `entry` with all its dependencies into one IIFE script that sets `globalThis[name]`.
 * IIFE because Vite keeps whitespace in minified ES library output, which would overstate the size.
 */
export async function bundleIife(entry: string, name: string, minify: boolean): Promise<string> {
  const out = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify, lib: { entry, formats: ['iife'], name } },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const first = Array.isArray(out) ? out[0]! : out;
  const chunk = first.output.find((o) => o.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error(`bench: no bundle output for ${entry}`);
  return chunk.code;
}

/** A blank page in `browser` (or in one of its contexts) that has run `script`, ready for `page.evaluate` of functions from tsx. */
export async function pageWithScript(browser: Pick<Browser, 'newPage'>, script: string): Promise<Page> {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><body></body>');
  // tsx compiles with keepNames, so functions passed to page.evaluate call a `__name` helper.
  await page.addScriptTag({ content: `window.__name = (f) => f;\n${script}` });
  return page;
}
