// Waits for something a child process does in its own time: polls `probe` until it gives a value, and fails with
// what was awaited when it has not come within `ms`.
export async function until<T>(what: string, probe: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
