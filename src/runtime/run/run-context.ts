/**
 * What a run tells its planner and keeps in memory.
 *
 * @module
 */

import type { RunState } from "../../events/run-state.ts";
import type { RunEndReason } from "../../events/runtime-event.ts";
import { truncateJson } from "../../shared/truncate-json.ts";
import { buildMemoryEntries } from "./finish-run.ts";
import type { RunCore } from "./run-core.ts";
import { type MemoryAccess, readMemoryContext, writeRunMemory } from "./run-memory.ts";

/**
 * The planner's context: earlier turns, the run context and what memory
 * holds about the request (read within the memory time limit).
 *
 * @param core - the run.
 * @returns the text, or `""`.
 *
 * @example
 * ```ts
 * const context = await plannerContext(core); // "Conversation so far:\n…"
 * ```
 */
export async function plannerContext(core: RunCore): Promise<string> {
  const { input } = core;
  const parts: string[] = [];
  if (input.history !== "") parts.push(`Conversation so far:\n${input.history}`);
  if (Object.keys(input.context).length > 0)
    parts.push(`Run context (reference it as {{context.<key>}}): ${truncateJson(input.context, 2000)}`);
  const access = memoryAccess(core);
  if (access !== undefined) {
    const remembered = await readMemoryContext(access, input.query);
    if (remembered !== "") parts.push(remembered);
  }
  return parts.join("\n\n");
}

/**
 * Writes the run's reflections, then its result, to memory, each write
 * bounded in time.
 *
 * @param core - the run.
 * @param reason - how the run ended.
 * @param state - the run's state (its reply and reflections).
 * @returns resolves once written (or given up).
 *
 * @example
 * ```ts
 * await rememberRun(core, "completed", run.state);
 * ```
 */
export async function rememberRun(core: RunCore, reason: RunEndReason, state: RunState): Promise<void> {
  const access = memoryAccess(core);
  if (access === undefined) return;
  const { input, config } = core;
  const entries = buildMemoryEntries(
    { runId: input.runId, query: input.query, reason, reply: state.reply?.text, reflections: state.reflections },
    core.table,
    config.clock.now(),
  );
  await writeRunMemory(access, entries, () => core.isEnded());
}

/**
 * How the run reaches memory.
 *
 * @param core - the run.
 * @returns the access, or `undefined` without memory.
 */
function memoryAccess(core: RunCore): MemoryAccess | undefined {
  const { memory, clock, memoryTimeoutMs } = core.config;
  return memory === undefined ? undefined : { memory, clock, timeoutMs: memoryTimeoutMs, signal: core.signal };
}
