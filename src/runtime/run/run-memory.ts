/**
 * Reading and writing memory within time limits.
 *
 * @module
 */

import { isPromiseLike } from "../../shared/is-promise-like.ts";
import type { RuntimeClock } from "../../shared/runtime-clock.ts";
import { truncateJson } from "../../shared/truncate-json.ts";
import type { MemoryEntry, MemoryStore } from "../memory-store.ts";
import { withTimeout } from "./with-timeout.ts";

/** Where memory lives and how long it may take. */
export interface MemoryAccess {
  memory: MemoryStore;
  clock: RuntimeClock;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * Reads what memory holds about a request, as lines for the planner's
 * context. Memory is advisory: a store that fails or stalls past the limit
 * gives nothing, and the run goes on.
 *
 * @param access - the store, the clock, the limit and the run's signal.
 * @param query - the request.
 * @returns the text, or `""`.
 *
 * @example
 * ```ts
 * const text = await readMemoryContext({ memory, clock, timeoutMs: 5_000, signal }, "weather in Paris");
 * ```
 */
export async function readMemoryContext(access: MemoryAccess, query: string): Promise<string> {
  try {
    const found = access.memory.read(query);
    const entries = isPromiseLike<readonly MemoryEntry[]>(found)
      ? await withTimeout(
          access.clock,
          access.timeoutMs,
          access.signal,
          `Reading memory timed out after ${access.timeoutMs} ms`,
          () => found,
        )
      : found;
    if (!Array.isArray(entries) || entries.length === 0) return "";
    return `Memory of earlier runs:\n${entries.map((entry) => `- [${entry.kind}] ${entry.query}: ${truncateJson(entry.content, 300)}`).join("\n")}`;
  } catch {
    return "";
  }
}

/**
 * Writes entries in order, each within the limit; a failed or stalled write
 * is skipped.
 *
 * @param access - the store, the clock, the limit and the run's signal.
 * @param entries - what to keep.
 * @param isEnded - whether the run ended meanwhile (writing stops).
 *
 * @example
 * ```ts
 * await writeRunMemory(access, buildMemoryEntries(run, table, Date.now()), () => false);
 * ```
 */
export async function writeRunMemory(
  access: MemoryAccess,
  entries: readonly MemoryEntry[],
  isEnded: () => boolean,
): Promise<void> {
  for (const entry of entries) {
    try {
      const written = access.memory.write(entry);
      if (isPromiseLike(written)) {
        await withTimeout(
          access.clock,
          access.timeoutMs,
          access.signal,
          `Writing memory timed out after ${access.timeoutMs} ms`,
          () => written,
        );
      }
    } catch {
      // Memory is advisory: a failed or stalled write does not fail the run.
    }
    if (isEnded()) return;
  }
}
