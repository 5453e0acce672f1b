import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { installPacked, ROOT } from '../helpers/packed.js';
import { codeBlock } from '../helpers/readme.js';
import { startStaticServer } from '../helpers/static-server.js';
import { typecheck } from '../helpers/typecheck.js';

// One app per framework under test/consumers/, written as the recipes of docs/guides/integrate.md say, importing the packed
// package through its exports. Each is type-checked with its framework's checker, together with the
// page's own recipe (written to src/readme/) and a file of deliberate mistakes that the checker must
// report, then built with `vite build` and run in Chromium.
const run = promisify(execFile);
const bin = (name: string): string => join(ROOT, 'node_modules/.bin', name);

interface Framework {
  name: 'react' | 'vue' | 'svelte';
  /** The recipe's fence language and the file it becomes. */
  recipe: { lang: string; file: string };
  /** Type-checks the app; returns the problems reported. */
  check(dir: string): Promise<string[]>;
}

/** Runs a checker that exits non-zero on errors; returns its output either way. */
async function output(file: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, maxBuffer: 16 << 20 });
    return stdout + stderr;
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    return stdout + stderr;
  }
}

const frameworks: Framework[] = [
  {
    name: 'react',
    recipe: { lang: 'tsx', file: 'Readme.tsx' },
    // src/type-errors.tsx holds @ts-expect-error lines: an unused one is an error too
    check: async (dir) => {
      const { errors } = typecheck(join(dir, 'tsconfig.json'));
      return errors === '' ? [] : [errors];
    },
  },
  {
    name: 'vue',
    recipe: { lang: 'vue', file: 'Readme.vue' },
    // App.vue holds @vue-expect-error lines in a v-if="false" block
    check: async (dir) => {
      const out = await output(bin('vue-tsc'), ['--noEmit', '-p', 'tsconfig.json'], dir);
      return out.split('\n').filter((l) => l.includes('error'));
    },
  },
  {
    name: 'svelte',
    recipe: { lang: 'svelte', file: 'Readme.svelte' },
    // Svelte markup has no expect-error comment: src/TypeErrors.svelte's three mistakes must be the only errors
    check: async (dir) => {
      const out = await output(bin('svelte-check'), ['--workspace', '.', '--tsconfig', './tsconfig.json', '--output', 'machine'], dir);
      const problems = out.split('\n').filter((l) => / (ERROR|WARNING) /.test(l));
      const expected = [
        /"src\/TypeErrors.svelte" 6:\d+ "Type '\\"blue\\"' is not assignable/,
        /"src\/TypeErrors.svelte" 7:\d+ "Property 'stream' is missing/,
        /"src\/TypeErrors.svelte" 8:\d+ "Property 'text' does not exist on type 'PagentRunEndDetail'/,
      ];
      const unexpected = problems.filter((p) => !expected.some((e) => e.test(p)));
      const missing = expected.filter((e) => !problems.some((p) => e.test(p))).map((e) => `missing: ${e}`);
      return [...unexpected, ...missing];
    },
  },
];

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe.each(frameworks)('<pagent-chat> in $name', ({ name, recipe, check }) => {
  const dir = join(ROOT, 'test/consumers', name);
  const outDir = join(ROOT, 'test-results/consumers', name);
  const label = `${name[0]!.toUpperCase()}${name.slice(1)}`;

  beforeAll(async () => {
    await installPacked(dir);
    await mkdir(join(dir, 'src/readme'), { recursive: true });
    await writeFile(join(dir, 'src/readme', recipe.file), codeBlock('React 19, Vue 3, Svelte 5', recipe.lang, 'docs/guides/integrate.md').code);
  }, 60_000);

  it('type-checks the app and the documented recipe, and reports the mistakes', async () => {
    expect(await check(dir)).toEqual([]);
  }, 120_000);

  it('builds with vite and passes properties, attributes and event handlers to the element', async () => {
    const config = join(dir, 'vite.config.ts');
    await build({
      root: dir,
      configFile: existsSync(config) ? config : false,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 1024 },
    });
    const server = await startStaticServer({ root: outDir });
    const page = await browser.newPage({ viewport: { width: 700, height: 600 } });
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    try {
      await page.goto(server.url);
      const chat = page.locator('pagent-chat');
      const input = chat.locator('textarea');
      // strings (an object property), lang and theme (attributes), wireLog (a boolean property)
      expect(await input.getAttribute('placeholder')).toBe(`${label} placeholder`);
      expect(await chat.locator('[part~="send-button"]').textContent()).toContain('送信');
      expect(await chat.getAttribute('theme')).toBe('dark');
      expect(await chat.evaluate((el: Element & { wireLog?: boolean }) => el.wireLog)).toBe(true);
      // client (an object property) answers; onpagent-send / onpagent-run-end (or @pagent-*) hear the events
      await input.fill(`Hi ${label}`);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#stop-reason').textContent()).toBe('no_tool_calls');
      expect(await page.locator('#sent').textContent()).toBe(`Hi ${label}`);
      expect(await chat.locator('[part~="answer-text"]').textContent()).toBe(`Hello from ${label}`);
      await page.screenshot({ path: join(ROOT, `test-results/consumer-${name}.png`) });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  }, 120_000);
});
