/**
 * A tiny benchmark harness: each case times a subject against a baseline doing comparable work in the
 * same run, and reports the ratio (subject time / baseline time). Ratios, not absolute times, are what
 * stay comparable across machines.
 */
export interface BenchCase {
  /** What is measured, e.g. "decoder: pagent NDJSON, 10k TextDelta lines". */
  name: string;
  /** What the baseline is, e.g. "JSON.parse of the same lines". */
  baselineName: string;
  baseline: () => unknown;
  subject: () => unknown | Promise<unknown>;
  /** Extra figures printed under the case (counts, sizes). */
  notes?: () => string[];
}

function now(): number {
  return performance.now();
}

async function timeOf(fn: () => unknown, minMs: number): Promise<number> {
  // warm up, then repeat until minMs has elapsed; report the median of the per-iteration times
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  const start = now();
  while (now() - start < minMs || samples.length < 5) {
    const t = now();
    await fn();
    samples.push(now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

/** Runs the cases in order and prints one line per case with the ratio against its baseline. */
export async function runBench(cases: BenchCase[], minMs = 300): Promise<void> {
  for (const c of cases) {
    const base = await timeOf(c.baseline, minMs);
    const subj = await timeOf(c.subject, minMs);
    console.log(`${c.name}\n  ${(subj / base).toFixed(2)}x ${c.baselineName} (subject ${subj.toFixed(3)} ms, baseline ${base.toFixed(3)} ms per iteration)`);
    for (const line of c.notes?.() ?? []) console.log(`  ${line}`);
  }
}
