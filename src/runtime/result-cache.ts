/**
 * The interface of the tool result cache.
 *
 * @module
 */

/** A cache hit: the stored value (which may itself be `undefined`). */
export interface CacheHit {
  value: unknown;
}

/**
 * Where the runtime keeps results of read-only and idempotent tools. Keys are
 * `<tool name> <canonical JSON of the arguments>`. `get` may answer
 * synchronously — the runtime then starts or skips the tool in the same tick —
 * or with a promise (a KV store, a Durable Object). Give it `clear` so that a
 * write in one run is not followed by a stale read in the next (a KV store
 * can bump a version that is part of its keys).
 *
 * @example
 * ```ts
 * const cache: ResultCache = {
 *   get: async (key) => { const text = await kv.get(key); return text === null ? undefined : { value: JSON.parse(text) }; },
 *   set: (key, value) => kv.put(key, JSON.stringify(value), { expirationTtl: 300 }),
 * };
 * ```
 */
export interface ResultCache {
  /**
   * Looks a result up.
   *
   * @param key - tool name and canonical arguments.
   * @returns the hit, or `undefined` on a miss.
   */
  get(key: string): CacheHit | undefined | Promise<CacheHit | undefined>;
  /**
   * Stores a result.
   *
   * @param key - tool name and canonical arguments.
   * @param value - the tool's result.
   */
  set(key: string, value: unknown): void | Promise<void>;
  /**
   * Forgets every result. The runtime calls it when a side-effecting step
   * ends (or fails), because any result stored before may be stale; without
   * it, a later run can be served a read from before the write until the
   * entry expires.
   */
  clear?(): void | Promise<void>;
}
