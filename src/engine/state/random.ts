// Random bytes for names that must not collide — temp files, lease tokens, operation handles — never for
// secrets. Math.random, which V8 seeds for each process from the operating system's entropy, is free; the Web
// Crypto global cost about 2 ms to load on its first use, in every process that writes a file, and importing
// node:crypto at the top of a module costs more. What a collision would cost is bounded anyway: temp files are
// created exclusively, and a handle that exists already is drawn again.
export function randomBytesLazy(count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  return bytes;
}

export function randomHex(count: number): string {
  return Buffer.from(randomBytesLazy(count)).toString('hex');
}
