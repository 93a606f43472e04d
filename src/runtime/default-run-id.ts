/**
 * Run ids when the application gives no generator.
 *
 * @module
 */

/**
 * The default run id.
 *
 * @returns `run_` and a UUID (or a random string where `crypto.randomUUID` is missing).
 *
 * @example
 * ```ts
 * defaultRunId(); // "run_5b0e…"
 * ```
 */
export function defaultRunId(): string {
  // Typed loosely: some runtime type packages do not declare `crypto` on globalThis.
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return `run_${uuid ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`}`;
}
