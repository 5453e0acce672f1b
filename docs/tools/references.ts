/**
 * The generated reference pages, committed under docs/reference/ so the site and the repository show
 * them: `npm run docs:reference` writes them, and test/unit/docs/references.test.ts fails when a committed
 * copy differs from what the sources give now.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { elementReference } from './element-reference.js';
import { sdkReference } from './sdk-reference.js';
import { wireReference } from './wire-reference.js';

/** The folder the pages live in. */
export const DOCS = fileURLToPath(new URL('../', import.meta.url));

/** Every generated page: its path under docs/ → its Markdown. */
export async function referencePages(): Promise<Record<string, string>> {
  return {
    'reference/wire-events.md': wireReference(),
    'reference/element.md': elementReference(),
    ...(await sdkReference()),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, text] of Object.entries(await referencePages())) {
    await writeFile(new URL(`../${path}`, import.meta.url), text);
    console.log(`wrote docs/${path}`);
  }
}
