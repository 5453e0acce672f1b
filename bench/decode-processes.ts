/**
 * The decode benchmark in fresh Node processes: each process (bench/decode-process.ts) measures one set (`measureSet`, the floor
 * and the subjects interleaved) and prints its figures as JSON; the processes run one after the other
 * (never side by side: they would share the two cores) and their figures are folded into medians and
 * spreads. Rounds in one process share its JIT and heap history, so they are not independent samples:
 * the spread over processes is what another machine's reading is compared with.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spreadOf, type DecodeFigure, type DecodeSpread } from './decode.bench.js';

const child = fileURLToPath(new URL('./decode-process.ts', import.meta.url));

/** Measures the set of `lines` TextDelta lines in `processes` fresh processes, one after the other. */
export async function measureInProcesses(lines: number, rounds: number, processes: number): Promise<DecodeSpread[]> {
  const runs: DecodeFigure[][] = [];
  for (let i = 0; i < processes; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, String(lines), String(rounds)], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      maxBuffer: 1 << 24,
    });
    runs.push(JSON.parse(stdout) as DecodeFigure[]);
  }
  return spreadOf(runs);
}
