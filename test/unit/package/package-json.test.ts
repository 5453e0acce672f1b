import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
const pkg = JSON.parse(text) as { license: string; files: string[] };

describe('package.json', () => {
  it('names each top-level key once (JSON.parse keeps only the last of duplicates)', () => {
    const keys = [...text.matchAll(/^ {2}"([^"]+)":/gm)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('ships a LICENSE with the license it declares', () => {
    expect(pkg.license).toBe('MIT');
    const license = readFileSync(new URL('../../../LICENSE', import.meta.url), 'utf8');
    expect(license.split('\n')[0]).toBe('MIT License');
    expect(license).toContain('Permission is hereby granted, free of charge');
  });
});
