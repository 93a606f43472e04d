/**
 * The default in-memory memory store.
 *
 * @module
 */

import { truncateJson } from "../shared/truncate-json.ts";
import { tokenizeText } from "../tools/tokenize-text.ts";
import { checkFactoryOptions } from "./check-runtime-options.ts";
import { measureJsonBytes } from "./measure-json-bytes.ts";
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
  /**
   * The most bytes (UTF-8 of the entries' JSON) to keep; the oldest go first.
   *
   * @defaultValue `1000000`
   */
  maxBytes?: number;
  /**
   * The longest content of one entry, in characters of JSON: longer content
   * is cut (while it is written, never stringified whole) and kept as text.
   *
   * @defaultValue `4000`
   */
  maxEntryChars?: number;
}

/**
 * Creates an in-memory store. `read(query)` returns the entries whose
 * request shares the most terms with `query` (English words stemmed, CJK
 * split into characters and pairs, numbers kept), newer first among equals; entries
 * sharing no term are not returned.
 *
 * Entries are bounded in number and in bytes; long content is cut first.
 *
 * @param options - how many entries to return and to keep, and how many bytes.
 * @returns the store, with `entries()` to inspect everything stored.
 * @throws PlankitError `invalid-options` for an option that names no option, or a value out of its range.
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
  checkFactoryOptions(options, "createMemoryStore", {
    limit: [0, true],
    maxEntries: [0, true],
    maxBytes: [0, false],
    maxEntryChars: [0, true],
  });
  const limit = options.limit ?? 3;
  const maxEntries = options.maxEntries ?? 200;
  const maxBytes = options.maxBytes ?? 1_000_000;
  const maxEntryChars = options.maxEntryChars ?? 4_000;
  const stored: { entry: MemoryEntry; terms: Set<string>; bytes: number }[] = [];
  let bytes = 0;
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
      const query = entry.query.length > maxEntryChars ? entry.query.slice(0, maxEntryChars) : entry.query;
      let content = entry.content;
      if (measureJsonBytes(content, maxEntryChars) > maxEntryChars) content = truncateJson(content, maxEntryChars);
      const kept: MemoryEntry = { ...entry, query, content };
      const size = measureJsonBytes(kept, maxBytes);
      if (size > maxBytes) return;
      stored.push({ entry: kept, terms: new Set(tokenizeText(query, { keepNumbers: true })), bytes: size });
      bytes += size;
      let drop = 0;
      while (drop < stored.length && (stored.length - drop > maxEntries || bytes > maxBytes))
        bytes -= (stored[drop++] as { bytes: number }).bytes;
      if (drop > 0) stored.splice(0, drop);
    },
    entries() {
      return stored.map((item) => item.entry);
    },
  };
}
