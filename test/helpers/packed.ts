/**
 * The package as npm publishes it: `npm pack` of the built tree (only what `files` lists), unpacked into a
 * consumer folder's node_modules/pagent-web. Consumer projects under test/consumers/ import it through its
 * `exports`, as an app that ran `npm install pagent-web` would; their other dependencies (typescript,
 * react, vue, svelte, lit …) resolve from the repository's node_modules further up.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
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

/** Runs `npm pack --json` in `cwd` (its scripts too, unless `ignoreScripts`) and returns the tarball's path and files. */
async function pack(cwd: string, destination: string, ignoreScripts: boolean): Promise<{ tarball: string; files: string[] }> {
  const args = ['pack', '--json', ...(ignoreScripts ? ['--ignore-scripts'] : []), '--pack-destination', destination];
  const { stdout } = await run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
  // npm prints the scripts' output first when it runs them; the JSON report is the last thing it prints
  const [packed] = JSON.parse(stdout.slice(stdout.lastIndexOf('\n[\n') + 1)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (!packed) throw new Error(`npm pack printed no package: ${stdout}`);
  return { tarball: join(destination, packed.filename), files: packed.files.map((f) => f.path) };
}

/**
 * Packs the committed tree as a clean clone would: the files of `HEAD` (`git archive`, so nothing built or
 * ignored comes along), with the repository's node_modules linked in place of `npm ci`, then `npm pack`
 * with its scripts — the `prepack` build included, as `npm publish` and a git install run it. Returns the
 * tarball's file list.
 */
export async function packCleanTree(): Promise<string[]> {
  const tmp = await mkdtemp(join(tmpdir(), 'pagent-clean-'));
  try {
    const tree = join(tmp, 'tree');
    await mkdir(tree);
    await run('sh', ['-c', `git -C "${ROOT}" archive HEAD | tar -x -C "${tree}"`]);
    await symlink(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
    return (await pack(tree, tmp, false)).files;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Packs the repository (build first) and unpacks it as `<consumerDir>/node_modules/pagent-web`. */
export async function installPacked(consumerDir: string): Promise<PackResult> {
  const tmp = await mkdtemp(join(tmpdir(), 'pagent-pack-'));
  try {
    const packed = await pack(ROOT, tmp, true);
    const dir = join(consumerDir, 'node_modules', 'pagent-web');
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await run('tar', ['-xzf', packed.tarball, '-C', dir, '--strip-components=1']);
    return { files: packed.files, dir };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
