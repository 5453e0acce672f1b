import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packCleanTree, ROOT } from '../helpers/packed.js';

// `npm pack` (and so `npm publish` and an install from git) of a tree that was never built: the prepack
// script builds, so the tarball holds every file the exports map names.
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };

/** Every file the exports map points at, without the leading "./". */
function exportedFiles(): string[] {
  return Object.values(pkg.exports)
    .flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)))
    .map((path) => path.replace(/^\.\//, ''))
    .sort();
}

describe('npm pack of a clean tree', () => {
  it('builds first, so the tarball holds dist/ with every exported file, and no sources', async () => {
    const files = await packCleanTree();
    const exported = exportedFiles();
    expect(exported).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/pagent-chat.bundle.js']));
    expect(files).toEqual(expect.arrayContaining(exported));
    expect(files.filter((f) => !exported.includes(f) && !/^dist\/.+\.(js|d\.ts|js\.map|d\.ts\.map)$/.test(f)).sort()).toEqual(['LICENSE', 'README.md']);
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('dist-demo/') || f.startsWith('docs/'))).toBe(false);
  }, 600_000);
});
