/**
 * `npm run bench`: every benchmark, printed as ratios against a baseline measured in the same run.
 * Each area adds its cases in bench/<area>.bench.ts exporting `cases: BenchCase[]` (or an async
 * `run(): Promise<void>` for benchmarks that drive a browser and print their own figures).
 */
import './node-gc.js';
import { readdirSync } from 'node:fs';
import { runBench, type BenchCase } from './harness.js';

const only = process.argv[2];
const files = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
for (const file of files) {
  console.log(`\n# ${file}`);
  const mod = (await import(`./${file}`)) as { cases?: BenchCase[]; run?: () => Promise<void> };
  if (mod.cases) await runBench(mod.cases);
  if (mod.run) await mod.run();
}
