import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// custom-elements.json is committed and shipped; `npm run analyze` rewrites it from the element's JSDoc
// (custom-elements-manifest.config.mjs). This regenerates it elsewhere and compares.
const root = fileURLToPath(new URL('../../', import.meta.url));
const cem = join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js');

interface Member {
  kind: string;
  name: string;
  privacy?: string;
  static?: boolean;
}
interface Manifest {
  modules: Array<{
    path: string;
    declarations?: Array<{ tagName?: string; members?: Member[]; attributes?: Array<{ name: string; fieldName?: string }> }>;
  }>;
}

let fresh: string;
let committed: string;
let out: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'pagent-cem-'));
  // the analyzer joins --outdir to the working directory, so it is given relative to it
  await promisify(execFile)(process.execPath, [cem, 'analyze', '--quiet', '--outdir', relative(root, out)], { cwd: root });
  fresh = await readFile(join(out, 'custom-elements.json'), 'utf8');
  committed = await readFile(join(root, 'custom-elements.json'), 'utf8');
}, 60_000);

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe('custom-elements.json', () => {
  it('is what `npm run analyze` generates from the current sources', () => {
    expect(JSON.parse(committed), 'custom-elements.json is stale: run `npm run analyze` and commit it').toEqual(JSON.parse(fresh));
  });

  it('lists the public API only, at the paths a page imports', () => {
    const manifest = JSON.parse(committed) as Manifest;
    expect(manifest.modules.map((m) => m.path)).toEqual(['dist/element.js', 'dist/pagent-chat.js']);
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'pagent-chat')!;
    const members = element.members ?? [];
    expect(members.filter((m) => m.privacy !== undefined || m.static)).toEqual([]);
    expect(members.map((m) => m.name)).toEqual(
      expect.arrayContaining(['src', 'agent', 'client', 'store', 'push', 'consume', 'send', 'stop', 'reset', 'streaming']),
    );
    // private state (and the source of its initialisers) stays out
    for (const name of ['timeline', 'runs', 'sessions', 'langAttribute']) expect(members.map((m) => m.name)).not.toContain(name);
    expect(committed).not.toContain('src/');
    expect(committed).not.toContain('new RunController');
    expect(element.attributes?.map((a) => a.name)).toEqual(['src', 'theme', 'wire-log', 'accept', 'voice', 'read-aloud', 'context-window', 'lang']);
    expect(element.attributes?.find((a) => a.name === 'lang')?.fieldName).toBeUndefined();
  });
});
