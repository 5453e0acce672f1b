/**
 * `npm run bench:results`: writes bench/results.md — decoding against its floor (each set in several
 * fresh Node processes and in as many fresh Chromium pages, each in a browsing context of its own, the
 * median and the spread kept), the size budgets, and the other benchmarks' own printouts, all from one run
 * on one machine, which the file describes.
 */
import './node-gc.js';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleIife, pageWithScript, withChromium } from './browser.js';
import { makeSet, measureSet, spreadOf, type DecodeFigure, type DecodeSpread } from './decode.bench.js';
import { measureInProcesses } from './decode-processes.js';
import { formatSizes, measureSize, SIZE_ENTRIES, type SizeFigure, type SizeSource } from './sizes.js';

/** Each set's rounds per process, and how many fresh processes (and pages) measure it. */
const SETS = [
  { lines: 10_000, rounds: 21, processes: 5 },
  { lines: 200_000, rounds: 7, processes: 3 },
];
/**
 * A section measured by a run of its own and kept as it is when the file is rewritten:
 * `npx tsx bench/run.ts deep-chat` takes minutes, most of them deep-chat's.
 */
const KEPT_SECTION = '## Render cost against deep-chat';

/** The kept section from the current bench/results.md (up to the next section), or '' when it has none. */
function keptSection(): string {
  const path = here('./results.md');
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(`\n${KEPT_SECTION}\n`);
  if (start < 0) return '';
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start + 1, end < 0 ? undefined : end).trimEnd();
}

/** The other benchmarks whose printouts are copied in (bench/<name>.bench.ts). */
const OTHERS = ['agent', 'store', 'in-flight-save', 'element', 'llm'];

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

async function nodeDecode(): Promise<DecodeSpread[]> {
  const figures: DecodeSpread[] = [];
  for (const { lines, rounds, processes } of SETS) {
    figures.push(...(await measureInProcesses(lines, rounds, processes)));
    console.error(`decode, Node: ${lines} lines in ${processes} processes done`);
  }
  return figures;
}

/** Each set on fresh pages, one browsing context (so one renderer process) each, one after the other. */
async function chromiumDecode(): Promise<{ version: string; figures: DecodeSpread[] }> {
  const script = await bundleIife(here('./decode.bench.ts'), 'decodeBenchModule', true);
  return withChromium(async (browser) => {
    const figures: DecodeSpread[] = [];
    for (const { lines, rounds, processes } of SETS) {
      const runs: DecodeFigure[][] = [];
      for (let i = 0; i < processes; i++) {
        const context = await browser.newContext();
        const page = await pageWithScript(context, script);
        runs.push(
          await page.evaluate(
            async ([n, r]) => {
              const bench = (globalThis as unknown as { decodeBench: { makeSet: typeof makeSet; measureSet: typeof measureSet } }).decodeBench;
              // AG-UI's parser is measured in Node only (its RxJS import is not bundled for the page)
              return bench.measureSet(bench.makeSet(n!), r!, 5, (name) => !name.includes('parseSSEStream'));
            },
            [lines, rounds],
          ),
        );
        await context.close();
      }
      figures.push(...spreadOf(runs));
    }
    return { version: browser.version(), figures };
  });
}

const TARGETS: Record<string, number> = { 'createWireDecoder (push)': 0.9, decodeWireStream: 0.7, WireClient: 0.7 };

function decodeTable(rows: DecodeSpread[]): string {
  const head = '| set | format | subject | × the floor (median) | spread (min–max) | target | each process | subject ms | floor ms |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |';
  const body = rows.map((f) => {
    const target = TARGETS[f.subject];
    const verdict = target === undefined ? '—' : `≥ ${target} ${f.ratio >= target ? '✓' : '✗'}`;
    return `| ${f.set} | ${f.format} | ${f.subject} | ${f.ratio.toFixed(2)} | ${f.min.toFixed(2)}–${f.max.toFixed(2)} | ${verdict} | ${f.ratios.map((r) => r.toFixed(2)).join(', ')} | ${f.ms.toFixed(1)} | ${f.floorMs.toFixed(1)} |`;
  });
  return [head, ...body].join('\n');
}

function sizeTable(figures: SizeFigure[]): string {
  const kB = (b: number): string => (b / 1000).toFixed(2);
  const head =
    '| entry | min+gzip (kB) | budget (kB) | within | loaded on use (kB) |\n| --- | --- | --- | --- | --- |';
  const body = figures.map(
    (f) =>
      `| ${f.name} | ${kB(f.bytes)} | ${f.budget === undefined ? '—' : kB(f.budget)} | ${f.budget === undefined ? '—' : f.bytes <= f.budget ? '✓' : '✗'} | ${f.lazy.map(kB).join(', ') || '—'} |`,
  );
  return [head, ...body].join('\n');
}

/** The largest modules of each budgeted entry, with their estimated share of its min+gzip size. */
function moduleTable(figures: SizeFigure[], top = 8): string {
  const head = '| entry | largest modules: ~min+gzip share in kB (minified bytes) |\n| --- | --- |';
  const body = figures
    .filter((f) => f.budget !== undefined)
    .map((f) => `| ${f.name} | ${f.modules.slice(0, top).map((m) => `${m.path.replace(/^node_modules\//, '')} ${(m.share / 1000).toFixed(2)} (${m.minified})`).join('; ')} |`);
  return [head, ...body].join('\n');
}

async function other(name: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', here('./run.ts'), `${name}.bench`], {
      cwd: here('..'),
      maxBuffer: 1 << 24,
    });
    return stdout.trim();
  } catch (err) {
    return `(failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
  }
}

const started = new Date();
const load = loadavg().map((l) => l.toFixed(1)).join(', ');
const sizes: SizeFigure[] = [];
// from dist/ when it is built, as `npm test` measures (the element's styles are smaller there)
const sizeSource: SizeSource = existsSync(here('../dist/index.js')) ? 'dist' : 'src';
for (const entry of SIZE_ENTRIES) sizes.push(await measureSize(entry, sizeSource));
// dist/ joins modules into chunks: where the bytes go is read from the sources, where they are apart
const sourceSizes: SizeFigure[] = [];
for (const entry of SIZE_ENTRIES) sourceSizes.push(sizeSource === 'src' ? sizes[sourceSizes.length]! : await measureSize(entry, 'src'));
console.error(formatSizes(sizes));
const node = await nodeDecode();
const chromium = await chromiumDecode();
console.error('decode, Chromium: done');
const others: string[] = [];
for (const name of OTHERS) {
  others.push(`### ${name}.bench.ts\n\n\`\`\`\n${await other(name)}\n\`\`\``);
  console.error(`${name}: done`);
}

const kept = keptSection();
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const md = `# Benchmark results

Written by \`npm run bench:results\` (bench/results.ts) on ${started.toISOString().slice(0, 10)}; every figure below
comes from that one run. Machine: ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node
${process.version}, Chromium ${chromium.version}; load average at the start ${load} (the machine is shared:
Node figures are measured on this process's CPU time, not wall-clock time).

## Decoding against its floor

The floor is \`TextDecoder\` over the whole body + \`split('\\n')\` + \`JSON.parse\` of each document (SSE's
\`data: \` cut off) in one loop: with the whole body at hand and nothing checked, about 85 % of it is \`JSON.parse\`.
Each figure is floor time / subject time on the same bytes (1.00 = the floor, higher = faster), cut into
4 KiB chunks as a network delivers them, the subject validating every event as it does in use. The
bodies are spelled as pagent writes them, and the push decoder reads such a delta by its text's value
alone (docs/wire.md#pagent-and-pagentv4); the row "keys in another order" is the same body with each
delta's keys rearranged (the same characters, against the same floor), which the decoder reads in full. In each
process (or page), rounds time the floor and each subject once, the floor first in even rounds and last in
odd ones, after 5 warm-up rounds; in Node each timed call starts from a collected heap (so that none pays
for the garbage of the call before it) and is measured in CPU time. A process's figure is the median over
its rounds; the table gives the median over the processes and their spread
(${SETS.map((s) => `${s.lines.toLocaleString('en')} lines: ${s.processes} processes of ${s.rounds} rounds`).join('; ')}), one process after
the other. Rounds in one process share its JIT and heap history, so they are not independent samples: a
reading on another machine is to be compared with the spread over processes.

### Node: fresh processes, median and spread

${decodeTable(node)}

### Chromium ${chromium.version}: fresh pages (one browsing context each), wall-clock time

${decodeTable(chromium.figures)}

## Sizes

esbuild (bundle, minify, ESM, browser, code splitting) of a consumer's one-line import of ${sizeSource === 'dist' ? 'the built `dist/`' : 'the sources (no `dist/` was built)'}, gzip -9 of every
chunk loaded at once; chunks loaded by \`import()\` are listed apart. 1 kB = 1,000 bytes. \`npm test\` fails
when an entry is over its budget (test/package/sizes.test.ts).

${sizeTable(sizes)}

### Where the bytes go

Each module's minified bytes in the chunks loaded at once, and its share of the entry's min+gzip size in
proportion to them (gzip does not split by module: an estimate), bundled from the sources, where the
modules are still apart.

${moduleTable(sourceSizes)}

## Other benchmarks (their own printouts, same run)

${others.join('\n\n')}
${kept ? `\n${kept}\n` : ''}`;
writeFileSync(here('./results.md'), md);
console.error('bench/results.md written');
