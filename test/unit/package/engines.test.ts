import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// package-lock.json records every installed package's `engines`; npm warns EBADENGINE (and fails under
// --engine-strict) when the running Node is outside one of them.
interface LockEntry {
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
}
const lock = JSON.parse(readFileSync(new URL('../../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
const ours = pkg.engines.node;
const lowest = semver.minVersion(ours)!.version;

const installed = Object.entries(lock.packages)
  .filter(([path]) => path.startsWith('node_modules/'))
  .map(([path, entry]) => ({ name: path.replace(/^.*node_modules\//, ''), entry, node: nodeRange(entry) }));

function nodeRange(entry: LockEntry): string | undefined {
  return Array.isArray(entry.engines) ? undefined : entry.engines?.node;
}

describe('engines', () => {
  it('states a Node range that includes the Node running the tests', () => {
    expect(ours).toBe('>=20.19');
    expect(semver.satisfies(process.version, ours)).toBe(true);
  });

  it('every runtime dependency admits every Node the package admits', () => {
    const runtime = installed.filter((p) => !p.entry.dev);
    expect(runtime.map((p) => p.name)).toContain('eventsource-parser');
    const narrower = runtime.filter((p) => p.node && !semver.subset(ours, p.node)).map((p) => `${p.name}: ${p.node}`);
    expect(narrower).toEqual([]);
  });

  it(`every dev dependency runs on the lowest Node the package admits (${lowest}) and on this one`, () => {
    const refused = installed
      .filter((p) => p.node)
      .filter((p) => !semver.satisfies(lowest, p.node!) || !semver.satisfies(process.version, p.node!))
      .map((p) => `${p.name}: ${p.node}`);
    expect(refused).toEqual([]);
  });
});
