/**
 * The default in-memory result cache.
 *
 * @module
 */
import { checkFactoryOptions } from "./check-runtime-options.ts";
import { measureJsonBytes } from "./measure-json-bytes.ts";
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
   * How long a result stays fresh, in milliseconds. A cache shared across
   * runs serves what was true then: keep this short.
   *
   * @defaultValue `300000` (five minutes)
   */
  ttlMs?: number;
  /**
   * The most bytes (UTF-8 of the results' JSON) to keep; the least recently
   * used go first, and a result larger than this is not kept.
   *
   * @defaultValue `5000000`
   */
  maxBytes?: number;
  /**
   * The clock for `ttlMs`.
   *
   * @defaultValue `Date.now`
   */
  now?: () => number;
}

/**
 * Creates an in-memory LRU cache for tool results, bounded in entries and
 * in bytes, with a time to live. It answers synchronously, so a cache hit
 * never costs the runtime a tick. Give it to `AgentRuntime`'s `cache` option
 * to share read-only results across runs; the runtime clears it whenever a
 * side-effecting step ends.
 *
 * @param options - size, freshness and clock.
 * @returns the cache.
 * @throws PlankitError `invalid-options` for an option that names no option, or a value out of its range.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner, registry, cache: createMemoryCache({ ttlMs: 60_000 }) });
 * ```
 */
export function createMemoryCache(
  options: MemoryCacheOptions = {},
): ResultCache & { readonly size: number; readonly bytes: number; clear(): void } {
  checkFactoryOptions(options, "createMemoryCache", {
    maxEntries: [0, true],
    ttlMs: [0, false],
    maxBytes: [0, false],
    now: "function",
  });
  const maxEntries = options.maxEntries ?? 500;
  const ttlMs = options.ttlMs ?? 300_000;
  const maxBytes = options.maxBytes ?? 5_000_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: unknown; storedAt: number; bytes: number }>();
  let bytes = 0;
  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    get(key): CacheHit | undefined {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (now() - entry.storedAt > ttlMs) {
        remove(key);
        return undefined;
      }
      // Re-insert so that iteration order is least recently used first.
      entries.delete(key);
      entries.set(key, entry);
      return { value: entry.value };
    },
    set(key, value) {
      remove(key);
      const size = key.length + measureJsonBytes(value, maxBytes);
      if (size > maxBytes) return;
      entries.set(key, { value, storedAt: now(), bytes: size });
      bytes += size;
      while (entries.size > maxEntries || bytes > maxBytes) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        remove(oldest.value);
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
  };
}
