/**
 * The default in-memory memory store.
 *
 * @module
 */
import { tokenizeText } from "../tools/tokenize-text.ts";
import type { MemoryEntry, MemoryStore } from "./memory-store.ts";

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * How many entries `read` returns.
   *
   * @defaultValue `3`
   */
  limit?: number;
  /**
   * How many entries to keep; the oldest go first.
   *
   * @defaultValue `200`
   */
  maxEntries?: number;
}

/**
 * Creates an in-memory store. `read(query)` returns the entries whose
 * request shares the most terms with `query` (English words stemmed, CJK
 * split into characters and pairs, numbers kept), newer first among equals; entries
 * sharing no term are not returned.
 *
 * @param options - how many entries to return and to keep.
 * @returns the store, with `entries()` to inspect everything stored.
 *
 * @example
 * ```ts
 * const memory = createMemoryStore();
 * const runtime = new AgentRuntime({ planner, registry, memory });
 * await runtime.step("weather in Paris");
 * memory.entries().map((entry) => entry.kind); // ["result"]
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore & { entries(): MemoryEntry[] } {
  const limit = options.limit ?? 3;
  const maxEntries = options.maxEntries ?? 200;
  const stored: { entry: MemoryEntry; terms: Set<string> }[] = [];
  return {
    read(query) {
      const wanted = new Set(tokenizeText(query, { keepNumbers: true }));
      const scored: { entry: MemoryEntry; score: number; order: number }[] = [];
      stored.forEach((item, order) => {
        let score = 0;
        for (const term of item.terms) if (wanted.has(term)) score++;
        if (score > 0) scored.push({ entry: item.entry, score, order });
      });
      scored.sort((a, b) => b.score - a.score || b.order - a.order);
      return scored.slice(0, limit).map((item) => item.entry);
    },
    write(entry) {
      stored.push({ entry, terms: new Set(tokenizeText(entry.query, { keepNumbers: true })) });
      if (stored.length > maxEntries) stored.splice(0, stored.length - maxEntries);
    },
    entries() {
      return stored.map((item) => item.entry);
    },
  };
}
