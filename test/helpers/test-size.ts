// How many cases the property and load suites run. `npm test`, and so CI, runs them bounded: from the same
// seed, a prefix of the full run (fast-check draws case n the same whatever the count). DISCERN_TEST_SIZE=full
// (`npm run test:full`) runs every case. A suite's own knob (DISCERN_FUZZ_RUNS and the like) overrides both,
// to replay a failure at the size it was seen.
export type TestSize = 'bounded' | 'full';

export function readSize(value: string | undefined): TestSize {
  if (value === undefined || value === '' || value === 'bounded') return 'bounded';
  if (value === 'full') return 'full';
  throw new Error(`DISCERN_TEST_SIZE is "${value}"; it takes bounded (the default) or full.`);
}

/** The count for this run: the knob's value when it is a positive integer, else the size's. */
export function sized(knob: string, sizes: Record<TestSize, number>): number {
  const raw = process.env[knob];
  if (raw !== undefined && raw !== '') {
    const given = Number(raw);
    if (!Number.isInteger(given) || given < 1)
      throw new Error(`${knob} is "${raw}"; it takes a positive whole number.`);
    return given;
  }
  return sizes[readSize(process.env['DISCERN_TEST_SIZE'])];
}
