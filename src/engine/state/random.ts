// Random bytes through the Web Crypto global, reached only when called: importing node:crypto at the top of a
// module costs several milliseconds of every process that loads it, and most of discern's processes (a
// status, a done that reuses its Proof) never need randomness.
export function randomBytesLazy(count: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(count));
}

export function randomHex(count: number): string {
  return Buffer.from(randomBytesLazy(count)).toString('hex');
}
