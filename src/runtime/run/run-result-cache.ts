/**
 * Result reuse within one run, and through an opt-in shared cache.
 *
 * @module
 */
import type { CacheHit, ResultCache } from "../result-cache.ts";

/** A run's view of cached results. */
export interface RunResultCache {
  /**
   * Looks a call up: this run's results first, then the shared cache.
   *
   * @param key - tool name and canonical arguments.
   * @returns the hit, synchronously when it can.
   */
  get(key: string): CacheHit | undefined | PromiseLike<CacheHit | undefined>;
  /** How many side-effecting steps ended so far: read it when a call starts, hand it to `set`. */
  readonly epoch: number;
  /**
   * Stores a read-only call's (frozen) result, unless a side-effecting step
   * ended while the call ran (its result may predate that effect).
   *
   * @param key - tool name and canonical arguments.
   * @param value - the result.
   * @param epoch - {@link RunResultCache.epoch} when the call started.
   */
  set(key: string, value: unknown, epoch: number): void;
  /** A side-effecting step ended: everything read before may be stale. */
  invalidate(): void;
}

/**
 * Builds a run's cache. Results are reused only until a side-effecting step
 * ends (then every earlier result may be stale: the file was edited, the
 * order placed). A shared cache, when the application gave one, is read only
 * while this run has had no side effect, and written with every result.
 *
 * @param shared - the application's cache across runs, if any.
 * @returns the run's cache.
 *
 * @example
 * ```ts
 * const cache = createRunResultCache(undefined);
 * cache.set("read {\"path\":\"a\"}", "text", cache.epoch); cache.invalidate(); cache.get("read {\"path\":\"a\"}"); // undefined
 * ```
 */
export function createRunResultCache(shared: ResultCache | undefined): RunResultCache {
  let local = new Map<string, unknown>();
  let epoch = 0;
  return {
    get epoch() {
      return epoch;
    },
    get(key) {
      if (local.has(key)) return { value: local.get(key) };
      if (shared === undefined || epoch > 0) return undefined;
      try {
        return shared.get(key);
      } catch {
        return undefined;
      }
    },
    set(key, value, startedAt) {
      if (startedAt !== epoch) return;
      local.set(key, value);
      if (shared === undefined) return;
      try {
        const stored = shared.set(key, value);
        if (stored !== undefined) Promise.resolve(stored).catch(() => undefined);
      } catch {
        // A cache that fails to store only costs a later call.
      }
    },
    invalidate() {
      epoch++;
      if (local.size > 0) local = new Map();
    },
  };
}
