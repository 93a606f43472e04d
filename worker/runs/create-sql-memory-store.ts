/**
 * Memory over a Durable Object's SQLite storage.
 *
 * @module
 */

import { createMemoryStore, type MemoryStore } from "../../src/index.ts";
import { canonicalJson } from "../../src/json.ts";
import type { MemoryEntry } from "../../src/runtime.ts";

/** Options of {@link createSqlMemoryStore}. */
export interface SqlMemoryStoreOptions {
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

interface MemoryRow extends Record<string, SqlStorageValue> {
  run_id: string;
  kind: string;
  query: string;
  content: string;
  at: number;
}

/**
 * Creates a `MemoryStore` in a SQLite-backed Durable Object (table
 * `memory`, created by the first write). `read(query)` ranks the kept entries as
 * `createMemoryStore` does (shared terms, newer first among equals).
 * `write` is idempotent: an entry equal to one stored for the same run and
 * kind (same canonical content) is ignored, so a replayed run does not
 * write its memory twice. The oldest entries beyond `maxEntries` are
 * deleted.
 *
 * @param sql - the object's `ctx.storage.sql`.
 * @param options - how many entries to return and to keep.
 * @returns the store.
 *
 * @example
 * ```ts
 * const memory = createSqlMemoryStore(ctx.storage.sql);
 * const runtime = new AgentRuntime({ planner, registry, memory });
 * ```
 */
export function createSqlMemoryStore(sql: SqlStorage, options: SqlMemoryStoreOptions = {}): MemoryStore {
  const limit = options.limit ?? 3;
  const maxEntries = options.maxEntries ?? 200;
  // The table is created by the first write, so reading an empty session stores nothing.
  let ready = sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'memory'").toArray().length > 0;
  const prepare = (): void => {
    if (ready) return;
    sql.exec(
      `CREATE TABLE IF NOT EXISTS memory (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        digest TEXT NOT NULL,
        query TEXT NOT NULL,
        content TEXT NOT NULL,
        at REAL NOT NULL,
        UNIQUE (run_id, kind, digest)
      )`,
    );
    ready = true;
  };
  return {
    read(query) {
      if (!ready) return [];
      const rows = sql
        .exec<MemoryRow>("SELECT run_id, kind, query, content, at FROM memory ORDER BY id DESC LIMIT ?", maxEntries)
        .toArray()
        .reverse();
      const ranked = createMemoryStore({ limit, maxEntries });
      for (const row of rows) {
        ranked.write({
          kind: row.kind,
          runId: row.run_id,
          query: row.query,
          content: JSON.parse(row.content) as unknown,
          at: row.at,
        });
      }
      return ranked.read(query);
    },
    async write(entry: MemoryEntry) {
      // The key tells NaN from null; the stored text is plain JSON, which reading parses.
      const content = JSON.stringify(entry.content ?? null) ?? "null";
      const digest = new Uint8Array(
        await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalJson(entry.content ?? null))),
      );
      const hex = [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
      prepare();
      sql.exec(
        "INSERT OR IGNORE INTO memory (run_id, kind, digest, query, content, at) VALUES (?, ?, ?, ?, ?, ?)",
        entry.runId,
        entry.kind,
        hex,
        entry.query,
        content,
        entry.at,
      );
      sql.exec("DELETE FROM memory WHERE id NOT IN (SELECT id FROM memory ORDER BY id DESC LIMIT ?)", maxEntries);
    },
  };
}
