// Quantities as people read them, the same in every surface and in the engine's notes.

/** Bytes in MiB: "52.3 MiB", whole MiB from 100 up. */
export function mibText(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} MiB`;
}
