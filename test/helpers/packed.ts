/**
 * The package as npm publishes it: `npm pack` of the built tree (only what `files` lists), unpacked into a
 * consumer folder's node_modules/pagent-web. Consumer projects under test/consumers/ import it through its
 * `exports`, as an app that ran `npm install pagent-web` would; their other dependencies (typescript,
 * react, vue, svelte, lit …) resolve from the repository's node_modules further up.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `npm pack --json`'s description of the tarball. */
export interface PackResult {
  /** Paths inside the package, as published. */
  files: string[];
  /** The unpacked package. */
  dir: string;
}

/** Packs the repository (build first) and unpacks it as `<consumerDir>/node_modules/pagent-web`. */
export async function installPacked(consumerDir: string): Promise<PackResult> {
  const tmp = await mkdtemp(join(tmpdir(), 'pagent-pack-'));
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: ROOT });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    if (!packed) throw new Error(`npm pack printed no package: ${stdout}`);
    const dir = join(consumerDir, 'node_modules', 'pagent-web');
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await run('tar', ['-xzf', join(tmp, packed.filename), '-C', dir, '--strip-components=1']);
    return { files: packed.files.map((f) => f.path), dir };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
