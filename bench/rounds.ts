// Interleaved rounds: each round runs every case once, alternating the order, so machine noise (another process, CPU
// frequency) lands on all cases alike; medians of many rounds then compare cases within one run.
export interface Case {
  name: string;
  /** Runs once; resolves with the elapsed milliseconds of the part being measured. */
  run: () => Promise<number>;
}

export interface Measured {
  name: string;
  median: number;
  min: number;
  samples: number[];
}

export async function measure(cases: readonly Case[], rounds: number, warmup: number): Promise<Measured[]> {
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    // Every other round runs the cases in reverse, so no case always follows the same neighbour (a large
    // checkout's removal, say, still being written back while the next case runs).
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
      const ms = await c.run();
      if (round >= warmup) samples.get(c.name)?.push(ms);
    }
  }
  return cases.map((c) => {
    const s = [...(samples.get(c.name) ?? [])].sort((a, b) => a - b);
    return { name: c.name, median: median(s), min: s[0] ?? NaN, samples: s };
  });
}

function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
