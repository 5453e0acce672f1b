import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, type PackResult } from '../helpers/packed.js';
import { markdownFile } from '../helpers/readme.js';

// The tarball `npm publish` would upload (built by `npm test`'s pretest), unpacked.
let consumer: string;
let packed: PackResult;

beforeAll(async () => {
  consumer = await mkdtemp(join(tmpdir(), 'pagent-package-'));
  packed = await installPacked(consumer);
}, 60_000);

afterAll(async () => {
  await rm(consumer, { recursive: true, force: true });
});

describe('the published package', () => {
  it('holds the built files, the manifest, README and LICENSE, and nothing else', () => {
    const top = new Set(packed.files.map((f) => f.split('/')[0]));
    expect([...top].sort()).toEqual(['LICENSE', 'README.md', 'custom-elements.json', 'dist', 'package.json']);
    expect(packed.files).toEqual(
      expect.arrayContaining(['dist/pagent-chat.bundle.js', 'dist/chat/events.d.ts', 'dist/chat/frameworks/react.d.ts']),
    );
  });

  it('passes publint, suggestions included, but for "sideEffects"', async () => {
    const { messages, pkg } = await publint({ pkgDir: packed.dir, level: 'suggestion', strict: true, pack: false });
    // Expected: USE_SIDE_EFFECTS. pagent-chat.js registers the element, and bundlers apply a package's
    // "sideEffects" to its own sources too: a list naming only the registration files made the demo build
    // drop demo/app.ts and the no-bundler build drop its customElements.define().
    expect(messages.map((m) => m.code)).toEqual(['USE_SIDE_EFFECTS']);
    expect(messages.filter((m) => m.code !== 'USE_SIDE_EFFECTS').map((m) => formatMessage(m, pkg))).toEqual([]);
  }, 60_000);

  // docs/guides/integrate.md gives the figures rounded; they stay true within 5 %, so a small change need not touch it.
  it('is as large as the integration guide says, within 5 %: pagent-chat.bundle.js, min and min+gzip (gzip -9), in kB', async () => {
    const code = await readFile(join(packed.dir, 'dist/pagent-chat.bundle.js'));
    const stated = /bundle\.js`\) is one ES module[\s\S]*?:\s+about (\d+) kB minified, (\d+) kB min\+gzip/.exec(markdownFile('docs/guides/integrate.md'));
    expect(stated, 'docs/guides/integrate.md states the size of the bundle').not.toBeNull();
    const kB = (bytes: number): number => Math.round(bytes / 1024);
    const actual = [kB(code.length), kB(gzipSync(code, { level: 9 }).length)];
    const said = [Number(stated![1]), Number(stated![2])];
    for (const i of [0, 1]) expect(Math.abs(said[i]! - actual[i]!) / actual[i]!, `the guide says ${said.join('/')} kB, the file is ${actual.join('/')} kB`).toBeLessThanOrEqual(0.05);
  });
});
