import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installPacked, ROOT } from '../helpers/packed.js';
import { codeBlocksOf } from '../helpers/readme.js';
import { typecheck } from '../helpers/typecheck.js';
import { referencePages } from '../../docs/tools/references.js';

// Docs that cannot lie. The generated references (docs/reference/) are committed so GitHub and the site
// show them: generated again here, they must equal the committed copies. Every TypeScript block of the
// pages, and every live example of docs/examples/, compiles under `strict` against the packed package, as
// a reader's app would (the generated SDK reference is left out: its blocks are signatures, not samples).
const DOCS = join(ROOT, 'docs');
const consumer = join(ROOT, 'test/consumers/docs');

/** Every Markdown page under docs/, but the generated references. */
function pages(): string[] {
  return readdirSync(DOCS, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md') && !f.startsWith('reference/'))
    .map((f) => join(DOCS, f));
}

describe('the generated references', () => {
  it('are the committed docs/reference/ pages, as the sources give them now (npm run docs:reference)', async () => {
    const fresh = await referencePages();
    expect(Object.keys(fresh).sort()).toEqual(readdirSync(join(DOCS, 'reference')).map((f) => `reference/${f}`).sort());
    for (const [path, text] of Object.entries(fresh)) {
      expect(readFileSync(join(DOCS, path), 'utf8'), `docs/${path} is stale: run npm run docs:reference`).toBe(text);
    }
  }, 120_000);
});

describe('the TypeScript of docs/', () => {
  beforeAll(async () => {
    await installPacked(consumer);
  }, 60_000);

  it('has samples in the guides and live examples', () => {
    const samples = pages().flatMap((p) => codeBlocksOf(readFileSync(p, 'utf8')).filter((b) => b.lang === 'ts'));
    expect(samples.length).toBeGreaterThanOrEqual(8);
    expect(readdirSync(join(DOCS, 'examples')).length).toBeGreaterThanOrEqual(8);
  });

  it('compiles every sample and every example as written, under strict', () => {
    const files: Record<string, string> = {};
    for (const page of pages()) {
      for (const block of codeBlocksOf(readFileSync(page, 'utf8')).filter((b) => b.lang === 'ts')) {
        const name = `${relative(DOCS, page).replace(/[/.]/g, '-')}-line-${block.line}.ts`;
        // each sample is a module of its own, also one without imports
        files[join(consumer, 'src', name)] = `${block.code}export {};\n`;
      }
    }
    for (const example of readdirSync(join(DOCS, 'examples'))) {
      files[join(consumer, 'src/examples', example)] = readFileSync(join(DOCS, 'examples', example), 'utf8');
    }
    const { errors } = typecheck(join(consumer, 'tsconfig.json'), files);
    expect(errors).toBe('');
  }, 120_000);
});
