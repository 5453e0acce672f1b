/**
 * Size budgets: what a consumer's one-line import of each entry costs, bundled the way a consumer's
 * build would (esbuild: bundle, minify, ESM, browser, code splitting), counted as the gzip -9 size of
 * every chunk the page loads at once (the entry chunk and the chunks it imports statically; chunks
 * loaded by dynamic `import()` are listed apart and not counted).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/** One entry with its budget, in bytes of min+gzip (1 kB = 1,000 bytes) (`undefined`: reported, not budgeted). */
export interface SizeEntry {
  name: string;
  /** The consumer's module: one import from `pagent-web` (or a subpath). */
  code: string;
  budget: number | undefined;
}

const use = (names: string[]): string => `import { ${names.join(', ')} } from 'pagent-web';\nglobalThis.used = [${names.join(', ')}];`;

/**
 * The budgeted entries. The codec and push decoder's budget is what the synchronous core costs
 * (docs/architecture.md#lazy-chunks-and-size-budgets: every line of a pagent stream, NDJSON or SSE,
 * decoded within `feed()` with no I/O, with the termination contract, forgiving optional fields and line caps): 5.0 kB. Reaching 4 kB would take the SSE framing
 * (0.5 kB) and more out of it into chunks loaded on first use, so that a push decoder reading SSE would
 * deliver its first events only after a fetch: see the README, "What each part costs".
 */
export const SIZE_ENTRIES: SizeEntry[] = [
  // 5.1 kB (WireClient 7 kB, RemoteAgent 12.6 kB) until the decoder read a pagent TextDelta line in one
  // step and an SSE field without a string for the whole line (+0.25 kB: 10 % faster decoding), then
  // 5.4 kB (7.3, 12.8) until it read a delta in pagent's or JSON.stringify's spelling by its text's value
  // alone (+0.14 kB: the two spellings' prefixes; a quarter less decode time on a body of them).
  { name: 'codec + push decoder', code: use(['decodeEventLine', 'encodeEventLine', 'createWireDecoder']), budget: 5_500 },
  { name: 'WireClient', code: use(['WireClient']), budget: 7_400 },
  // 12 kB until the Agent shared its conversation and saving with RemoteAgent (Conversation, +0.14 kB),
  // redaction caught every copy of a key (+0.12 kB), a data: image was checked for raster bytes before a
  // request (+0.11 kB) and the LLM chose between three model APIs (+0.48 kB): 12.60 kB then. The LLM's
  // own copy of an SSE parser (eventsource-parser, 1.2 kB of it) is the next thing to take out.
  { name: 'Agent + LLM + tool + Session', code: use(['Agent', 'LLM', 'tool', 'Session']), budget: 13_000 },
  // 12.5 kB until Agent and RemoteAgent shared the linking of the caller's signal to a run's
  // (linkedAbort, +0.03 kB: one more function in the bundle for six lines written once instead of twice).
  { name: 'RemoteAgent', code: use(['RemoteAgent']), budget: 13_000 },
  { name: 'pagent-chat.js (the element)', code: `import 'pagent-web/pagent-chat.js';`, budget: 50_000 },
  { name: 'the whole SDK', code: `export * from 'pagent-web';`, budget: undefined },
];

/** Where `pagent-web` resolves: the sources, or the built `dist/` a consumer installs. */
export type SizeSource = 'src' | 'dist';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGETS: Record<SizeSource, Record<string, string>> = {
  src: { 'pagent-web': 'src/index.ts', 'pagent-web/pagent-chat.js': 'src/chat/pagent-chat.ts' },
  dist: { 'pagent-web': 'dist/index.js', 'pagent-web/pagent-chat.js': 'dist/pagent-chat.js' },
};

/** The measured size of one entry. */
export interface SizeFigure {
  name: string;
  /** min+gzip bytes loaded at once (entry chunk + static imports). */
  bytes: number;
  budget: number | undefined;
  /** min+gzip bytes of each chunk loaded later by `import()`. */
  lazy: number[];
  /**
   * Where the loaded-at-once bytes come from, largest first: each module's minified bytes in those chunks
   * and its share of `bytes` (in proportion to its minified bytes: gzip does not split by module, so this
   * is an estimate).
   */
  modules: Array<{ path: string; minified: number; share: number }>;
}

/** Bundles `code` as a consumer would and measures it. */
export async function measureSize(entry: SizeEntry, source: SizeSource = 'src'): Promise<SizeFigure> {
  const targets = TARGETS[source];
  const result = await build({
    stdin: { contents: entry.code, resolveDir: ROOT, loader: 'ts', sourcefile: 'consumer.ts' },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: '/virtual-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'pagent-web',
        setup(b) {
          b.onResolve({ filter: /^pagent-web(\/.*)?$/ }, (args) => {
            const target = targets[args.path];
            return target ? { path: `${ROOT}${target}` } : undefined;
          });
        },
      },
    ],
  });
  const metafile: Metafile = result.metafile;
  const gz = new Map(result.outputFiles.map((f) => [f.path.replace(/^.*\/virtual-out\//, ''), gzipSync(f.contents, { level: 9 }).length]));
  const outputs = Object.entries(metafile.outputs).map(([path, o]) => ({ path: path.replace(/^.*virtual-out\//, ''), o }));
  // the consumer's module (chunks loaded by import() are entry points of their own in the metafile)
  const entryOut = outputs.find(({ o }) => o.entryPoint === 'consumer.ts');
  if (!entryOut) throw new Error(`sizes: no entry chunk for ${entry.name}`);
  // the entry chunk and, transitively, every chunk it imports statically
  const eager = new Set<string>();
  const visit = (path: string): void => {
    if (eager.has(path)) return;
    eager.add(path);
    const out = outputs.find((x) => x.path === path);
    for (const imp of out?.o.imports ?? []) if (imp.kind === 'import-statement') visit(imp.path.replace(/^.*virtual-out\//, ''));
  };
  visit(entryOut.path);
  let bytes = 0;
  const lazy: number[] = [];
  const minified = new Map<string, number>();
  for (const { path, o } of outputs) {
    if (!path.endsWith('.js')) continue;
    if (eager.has(path)) {
      bytes += gz.get(path) ?? 0;
      for (const [input, { bytesInOutput }] of Object.entries(o.inputs)) {
        if (bytesInOutput > 0) minified.set(input, (minified.get(input) ?? 0) + bytesInOutput);
      }
    } else lazy.push(gz.get(path) ?? 0);
  }
  const allMinified = [...minified.values()].reduce((a, b) => a + b, 0);
  const modules = [...minified]
    .map(([path, min]) => ({ path, minified: min, share: Math.round((min / allMinified) * bytes) }))
    .sort((a, b) => b.minified - a.minified);
  return { name: entry.name, bytes, budget: entry.budget, lazy, modules };
}

/** The entries whose size is over their budget. */
export function overBudget(figures: SizeFigure[]): SizeFigure[] {
  return figures.filter((f) => f.budget !== undefined && f.bytes > f.budget);
}

/** kB as the README counts them: 1 kB = 1,000 bytes. */
const kB = (bytes: number): string => `${(bytes / 1000).toFixed(2)} kB`;

/** One line per entry: size, budget and verdict, the lazy chunks apart. */
export function formatSizes(figures: SizeFigure[]): string {
  return figures
    .map((f) => {
      const verdict =
        f.budget === undefined
          ? '(not budgeted)'
          : `budget ${kB(f.budget)}: ${f.bytes > f.budget ? 'OVER' : 'ok'}`;
      const lazy = f.lazy.length > 0 ? `; loaded on use: ${f.lazy.map(kB).join(', ')}` : '';
      return `${f.name}: ${kB(f.bytes)} min+gzip, ${verdict}${lazy}`;
    })
    .join('\n');
}

/** The largest modules of each budgeted entry, one line each: `entry: module ~share kB (minified bytes), …`. */
export function formatModules(figures: SizeFigure[], top = 8): string {
  return figures
    .filter((f) => f.budget !== undefined)
    .map((f) => `${f.name}: ${f.modules.slice(0, top).map((m) => `${m.path} ~${kB(m.share)} (${m.minified} B min)`).join(', ')}`)
    .join('\n');
}

/**
 * Every budgeted entry with where its bytes go (`npm run bench size`): measured from `dist/` as `npm test`
 * does when it is built (the element's styles are smaller there), else from the sources.
 */
export async function run(): Promise<void> {
  const source: SizeSource = existsSync(`${ROOT}dist/index.js`) ? 'dist' : 'src';
  const figures: SizeFigure[] = [];
  for (const entry of SIZE_ENTRIES) figures.push(await measureSize(entry, source));
  console.log(`measured from ${source === 'dist' ? 'dist/ (npm run build)' : 'the sources (no dist/ built)'}`);
  console.log(formatSizes(figures));
  console.log(`\nwhere the bytes go (largest modules, share of min+gzip estimated from minified bytes):\n${formatModules(figures)}`);
}
