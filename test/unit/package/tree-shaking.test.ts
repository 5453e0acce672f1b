import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { build, type Rolldown } from 'vite';

/**
 * Bundles one entry of test/unit/package/entries/ with its imports, minified, as a consumer's bundler would:
 * the code of every chunk, or of the entry chunk alone (without the chunks it loads lazily).
 */
async function bundle(name: string, only: 'all' | 'entry' = 'all'): Promise<string> {
  const entry = fileURLToPath(new URL(`./entries/${name}.ts`, import.meta.url));
  const out = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: true, lib: { entry, formats: ['es'] }, rolldownOptions: { external: [/^eventsource-parser/, 'idb-keyval'] } },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const first = Array.isArray(out) ? out[0]! : out;
  return first.output.map((o) => (o.type === 'chunk' && (only === 'all' || o.isEntry) ? o.code : '')).join('');
}

// Text that only the writers hold: encodeStream's closing message, the AG-UI writer's thread ids, the AI
// SDK writer's finish reasons.
const WRITER_MARKERS = ['The event stream ended before the run did', 'thread-', 'content-filter'];

describe('what a consumer bundles', () => {
  it('the writers are not in a bundle that imports only WireClient, nor only the codec and decoder', async () => {
    for (const name of ['client', 'decoder']) {
      const code = await bundle(name);
      for (const marker of WRITER_MARKERS) expect(code.includes(marker), `${name} bundle holds "${marker}"`).toBe(false);
    }
  });

  it('a bundle that imports encodeStream holds them (the markers are real)', async () => {
    const code = await bundle('encode');
    for (const marker of WRITER_MARKERS) expect(code, marker).toContain(marker);
  });

  it("the AG-UI, AI SDK and Victor readers are chunks the decoder loads when 'auto' meets their dialect", async () => {
    const entry = await bundle('decoder', 'entry');
    const all = await bundle('decoder');
    for (const marker of ['TOOL_CALL_RESULT', 'finishReason', 'victor-unmatched-']) {
      expect(entry.includes(marker), `entry chunk holds "${marker}"`).toBe(false);
      expect(all, marker).toContain(marker);
    }
  });
});
