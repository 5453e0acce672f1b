/**
 * What each part of the SDK costs a consumer who imports it: esbuild bundles a one-line import of the
 * named exports (minified, ESM, browser), gzip -9. The base is `Agent + LLM + tool + Session`, which must
 * stay at or under 12 KB; every other line is the base plus one feature, and its cost over the base.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

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
  const base = await gzipped(BASE);
  console.log(`${BASE.join(' + ')}: ${base} B min+gzip (limit 12,288 B)${base > 12 * 1024 ? '  OVER THE LIMIT' : ''}`);
  for (const [label, names] of FEATURES) {
    const size = await gzipped([...BASE, ...names]);
    console.log(`  + ${label} (${names.join(', ')}): ${size} B, +${size - base} B`);
  }
}
