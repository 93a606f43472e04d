/**
 * The interface of a run's long-term memory.
 *
 * @module
 */

/**
 * One memory record. The runtime writes, after each run that was not
 * aborted, first one `reflection` entry per reflector verdict, then one
 * `result` entry with the step results and the reply (the runtime
 * loop order: reflections, then results, written after the run).
 */
export interface MemoryEntry {
  /** `result`, `reflection`, or a kind of your own. */
  kind: string;
  /** The run that wrote it. */
  runId: string;
  /** The user's request of that run. */
  query: string;
  /** The payload: for `result`, `{ reply, steps: [{ id, tool?, status, result?, error? }] }`; for `reflection`, the verdict. */
  content: unknown;
  /** When it was written (the runtime clock's milliseconds). */
  at: number;
}

/**
 * Memory the runtime reads before planning (the entries go into the
 * planner's context) and writes after the run.
 *
 * @example
 * ```ts
 * const memory: MemoryStore = {
 *   read: async (query) => db.search(query, 5),
 *   write: async (entry) => { await db.insert(entry); },
 * };
 * ```
 */
export interface MemoryStore {
  /**
   * Entries relevant to a request, most relevant first.
   *
   * @param query - the user's request.
   * @returns the entries.
   */
  read(query: string): readonly MemoryEntry[] | Promise<readonly MemoryEntry[]>;
  /**
   * Stores one entry.
   *
   * @param entry - the entry.
   */
  write(entry: MemoryEntry): void | Promise<void>;
}
