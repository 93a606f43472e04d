/**
 * Ids for runs and turns when the application gives no generator.
 *
 * @module
 */

/**
 * A random id with a prefix.
 *
 * @param prefix - what the id names (`run`, `turn`).
 * @returns the prefix, `_` and a UUID (or a random string where `crypto.randomUUID` is missing).
 *
 * @example
 * ```ts
 * randomId("run"); // "run_5b0e…"
 * ```
 */
export function randomId(prefix: string): string {
  // Typed loosely: some runtime type packages do not declare `crypto` on globalThis.
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return `${prefix}_${uuid ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`}`;
}
