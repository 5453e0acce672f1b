/**
 * The decode benchmark in fresh Node processes: each process is started with
 * `node --import tsx bench/decode-processes.ts <lines> <rounds>`, measures one set (`measureSet`, the floor
 * and the subjects interleaved) and prints its figures as JSON; the processes run one after the other
 * (never side by side: they would share the two cores) and their figures are folded into medians and
 * spreads. Rounds in one process share its JIT and heap history, so they are not independent samples:
 * the spread over processes is what another machine's reading is compared with.
 */
import { execFile } from 'node:child_process';
import { argv } from 'node:process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spreadOf, type DecodeFigure, type DecodeSpread } from './decode.bench.js';

const self = fileURLToPath(import.meta.url);

/** Measures the set of `lines` TextDelta lines in `processes` fresh processes, one after the other. */
export async function measureInProcesses(lines: number, rounds: number, processes: number): Promise<DecodeSpread[]> {
  const runs: DecodeFigure[][] = [];
  for (let i = 0; i < processes; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', self, String(lines), String(rounds)], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      maxBuffer: 1 << 24,
    });
    runs.push(JSON.parse(stdout) as DecodeFigure[]);
  }
  return spreadOf(runs);
}

// Started as a process of its own: measure one set and print its figures.
if (argv[1] === self) {
  await import('./node-gc.js');
  const { makeSet, measureSet } = await import('./decode.bench.js');
  const figures = await measureSet(makeSet(Number(argv[2])), Number(argv[3]));
  process.stdout.write(JSON.stringify(figures));
}
