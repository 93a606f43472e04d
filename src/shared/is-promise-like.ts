/**
 * The one thenable guard.
 *
 * @module
 */

/**
 * Whether a value is a thenable: an object or function with a `then` method
 * (a store reached over RPC answers with a callable thenable).
 *
 * @param value - anything.
 * @returns the check.
 *
 * @example
 * ```ts
 * const hit = isPromiseLike(lookup) ? await lookup : lookup;
 * ```
 */
export function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
