/**
 * What a page without a bundler downloads: dist/pagent-chat.bundle.js (run `npm run build` first), the
 * element and the SDK with every dependency inlined. The README's figure is this one.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export async function run(): Promise<void> {
  const code = readFileSync(new URL('../dist/pagent-chat.bundle.js', import.meta.url));
  console.log(
    `pagent-chat.bundle.js: ${(code.length / 1024).toFixed(1)} kB min, ` +
      `${(gzipSync(code, { level: 9 }).length / 1024).toFixed(1)} kB min+gzip (gzip -9)`,
  );
}
