/**
 * Result reuse within one run, and through an opt-in shared cache.
 *
 * @module
 */
import type { CacheHit, ResultCache } from "../result-cache.ts";

/**
 * How many side-effecting steps ended in the runs of one runtime: each run's
 * cache counts into it, so a run sees the side effects of the others.
 */
export interface SideEffectCounter {
  count: number;
}

/** A run's view of cached results. */
export interface RunResultCache {
  /**
   * Looks a call up: this run's results first, then the shared cache.
   *
   * @param key - tool name and canonical arguments.
   * @returns the hit, synchronously when it can.
   */
  get(key: string): CacheHit | undefined | PromiseLike<CacheHit | undefined>;
  /** How many side-effecting steps ended so far in any run of the runtime: read it when a call starts, hand it to `set`. */
  readonly epoch: number;
  /**
   * Stores a read-only call's (frozen) result, unless a side-effecting step
   * ended, in this run or another, while the call ran (its result may
   * predate that effect).
   *
   * @param key - tool name and canonical arguments.
   * @param value - the result.
   * @param epoch - {@link RunResultCache.epoch} when the call started.
   */
  set(key: string, value: unknown, epoch: number): void;
  /** A side-effecting step of this run ended: everything read before, here or in the shared cache, may be stale. */
  invalidate(): void;
}

/**
 * Builds a run's cache. Results are reused only until a side-effecting step
 * ends in this run or in another run of the same runtime (then every earlier
 * result may be stale: the file was edited, the order placed). A shared
 * cache, when the application gave one, is read only while this run has had
 * no side effect, written with every result whose call began after the last
 * side effect, and cleared (when it has `clear`) by every side effect, so
 * that a later run does not read what was true before it.
 *
 * @param shared - the application's cache across runs, if any.
 * @param sideEffects - the runtime's count of side effects, shared by its runs.
 * @returns the run's cache.
 *
 * @example
 * ```ts
 * const cache = createRunResultCache(undefined);
 * cache.set("read {\"path\":\"a\"}", "text", cache.epoch); cache.invalidate(); cache.get("read {\"path\":\"a\"}"); // undefined
 * ```
 */
export function createRunResultCache(
  shared: ResultCache | undefined,
  sideEffects: SideEffectCounter = { count: 0 },
): RunResultCache {
  let local = new Map<string, unknown>();
  let localEpoch = sideEffects.count;
  let ownSideEffects = 0;
  const current = (): Map<string, unknown> => {
    if (localEpoch !== sideEffects.count) {
      local = new Map();
      localEpoch = sideEffects.count;
    }
    return local;
  };
  return {
    get epoch() {
      return sideEffects.count;
    },
    get(key) {
      const results = current();
      if (results.has(key)) return { value: results.get(key) };
      if (shared === undefined || ownSideEffects > 0) return undefined;
      try {
        return shared.get(key);
      } catch {
        return undefined;
      }
    },
    set(key, value, startedAt) {
      if (startedAt !== sideEffects.count) return;
      current().set(key, value);
      if (shared === undefined) return;
      try {
        const stored = shared.set(key, value);
        if (stored !== undefined) Promise.resolve(stored).catch(() => undefined);
      } catch {
        // A cache that fails to store only costs a later call.
      }
    },
    invalidate() {
      ownSideEffects++;
      sideEffects.count++;
      current();
      if (shared?.clear === undefined) return;
      try {
        const cleared = shared.clear();
        if (cleared !== undefined) Promise.resolve(cleared).catch(() => undefined);
      } catch {
        // A cache that fails to clear serves what it holds until its entries expire.
      }
    },
  };
}
