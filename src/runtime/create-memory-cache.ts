/**
 * The default in-memory result cache.
 *
 * @module
 */
import type { CacheHit, ResultCache } from "./result-cache.ts";

/** Options of {@link createMemoryCache}. */
export interface MemoryCacheOptions {
  /**
   * How many results to keep; the least recently used goes first.
   *
   * @defaultValue `500`
   */
  maxEntries?: number;
  /**
   * How long a result stays fresh, in milliseconds.
   *
   * @defaultValue `Infinity`
   */
  ttlMs?: number;
  /**
   * The clock for `ttlMs`.
   *
   * @defaultValue `Date.now`
   */
  now?: () => number;
}

/**
 * Creates an in-memory LRU cache for tool results. It answers synchronously,
 * so a cache hit never costs the runtime a tick.
 *
 * @param options - size, freshness and clock.
 * @returns the cache.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner, registry, cache: createMemoryCache({ ttlMs: 60_000 }) });
 * ```
 */
export function createMemoryCache(options: MemoryCacheOptions = {}): ResultCache & { readonly size: number; clear(): void } {
  const maxEntries = options.maxEntries ?? 500;
  const ttlMs = options.ttlMs ?? Number.POSITIVE_INFINITY;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: unknown; storedAt: number }>();
  return {
    get(key): CacheHit | undefined {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (now() - entry.storedAt > ttlMs) {
        entries.delete(key);
        return undefined;
      }
      // Re-insert so that iteration order is least recently used first.
      entries.delete(key);
      entries.set(key, entry);
      return { value: entry.value };
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, { value, storedAt: now() });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        entries.delete(oldest.value);
      }
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
    },
  };
}
