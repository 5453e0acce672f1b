/**
 * `npm run bench size`: what each part of the SDK costs a consumer who imports it. First the budgeted
 * entries (bench/sizes.ts, the figures `npm test` checks) with where their bytes go; then the agent's
 * optional features: esbuild bundles a one-line import of the named exports (minified, ESM, browser),
 * gzip -9; the base is `Agent + LLM + tool + Session`, and every other line is the base plus one
 * feature, and its cost over the base.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { run as runBudgeted, SIZE_ENTRIES } from './sizes.js';

const SDK = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const BASE = ['Agent', 'LLM', 'tool', 'Session'];
const FEATURES: Array<[string, string[]]> = [
  ['built-in tools', ['clock', 'region', 'DEFAULT_TOOLS']],
  ['Memory', ['Memory']],
  ['token helpers', ['countTokens', 'countTokensDetail', 'formatContext']],
  ['workspace + file tools', ['createWorkspace', 'workspaceTools']],
  ['skills', ['createSkillRegistry', 'useSkillTool']],
  ['MCP tools', ['mcpTools', 'createMcpClient']],
  ['session store', ['createSessionStore']],
];

async function gzipped(names: string[]): Promise<number> {
  const result = await build({
    stdin: { contents: `import { ${names.join(', ')} } from ${JSON.stringify(SDK)};\nglobalThis.x = [${names.join(', ')}];`, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent',
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

export async function run(): Promise<void> {
  await runBudgeted();
  const base = await gzipped(BASE);
  const budget = SIZE_ENTRIES.find((e) => e.name === 'Agent + LLM + tool + Session')?.budget;
  console.log(`\nthe agent's optional features (one bundle each, without code splitting):`);
  console.log(`${BASE.join(' + ')}: ${base} B min+gzip${budget !== undefined && base > budget ? `  (over its ${budget} B budget without splitting)` : ''}`);
  for (const [label, names] of FEATURES) {
    const size = await gzipped([...BASE, ...names]);
    console.log(`  + ${label} (${names.join(', ')}): ${size} B, +${size - base} B`);
  }
}
