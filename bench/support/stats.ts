/** Small statistics and printing helpers shared by the benchmarks. */
import { readFileSync } from 'node:fs';

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest-rank on the sorted sample: no interpolation, so a p95 of 20 samples is one of them.
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

export const ms = (value: number, digits = 1) => `${value.toFixed(digits)} ms`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `median 12.3 ms (min 11.0, max 15.2, n=7)` */
export function spread(values: readonly number[], digits = 1): string {
  return `median ${ms(median(values), digits)} (min ${Math.min(...values).toFixed(digits)}, max ${Math.max(...values).toFixed(digits)}, n=${values.length})`;
}

/** One PASS/MISS line per goal; a missed goal is reported, never turned into a failing exit code. */
export function goal(label: string, measured: string, pass: boolean, target: string): boolean {
  console.log(`${pass ? 'PASS' : 'MISS'}  ${label}: ${measured} (goal ${target})`);
  return pass;
}

export function heading(text: string): void {
  console.log(`\n-- ${text}`);
}

/** Runs a benchmark's main; only errors (not missed goals) end the process non-zero. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('benchmark failed:', error);
      process.exit(1);
    },
  );
}

/**
 * CPU time the process has used so far, in ms (Linux, /proc; clock ticks of 10 ms): in its own code (`user`: the
 * JavaScript, V8, Node's C++) and in the kernel on its behalf (`system`: on loopback that includes delivering each
 * response to the load generator and waking it).
 */
export function cpuMs(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}
