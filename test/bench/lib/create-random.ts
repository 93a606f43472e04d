/**
 * Creates a deterministic pseudo-random generator (mulberry32), so that
 * benchmark inputs are the same on every run and every machine.
 *
 * @param seed - any 32-bit integer.
 * @returns a function returning numbers in [0, 1).
 * @example
 * ```ts
 * const next = createRandom(7);
 * const dice = 1 + Math.floor(next() * 6);
 * ```
 */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
