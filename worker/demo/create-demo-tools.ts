/**
 * The demo's tool registry.
 *
 * @module
 */
import { ToolRegistry } from "../../src/index.ts";
import { createCalculatorTool } from "./create-calculator-tool.ts";
import { createClockTool } from "./create-clock-tool.ts";
import { createKnowledgeLookupTool } from "./create-knowledge-lookup-tool.ts";
import { createKnowledgeSearchTool } from "./create-knowledge-search-tool.ts";
import { createNoteStore, type NoteStore } from "./create-note-store.ts";
import { createSaveNoteTool } from "./create-save-note-tool.ts";
import { createSlowLookupTool } from "./create-slow-lookup-tool.ts";
import { createUnitConversionTool } from "./create-unit-conversion-tool.ts";

/** Options of {@link createDemoTools}. */
export interface DemoToolsOptions {
  /**
   * The clock of `current_time` and `save_note`.
   *
   * @defaultValue `Date.now`
   */
  now?: () => number;
  /**
   * The wait of `slow_lookup`.
   *
   * @defaultValue a `setTimeout` wait
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * How long `slow_lookup` takes by default, in milliseconds.
   *
   * @defaultValue `1500`
   */
  slowLookupDelayMs?: number;
  /**
   * Where `save_note` writes.
   *
   * @defaultValue a new in-memory store
   */
  notes?: NoteStore;
  /** Register only these tools (by name); all by default. */
  only?: readonly string[];
}

/**
 * Creates the registry of demo tools, none of which needs the network:
 * `kb_lookup` and `kb_search` (a small knowledge base with sources),
 * `calculator`, `convert_units`, `current_time`, `slow_lookup` (about 1.5 s
 * per call) and `save_note` (side-effecting, `destructiveHint: true`).
 *
 * @param options - clock, wait, slow delay, note store and a name filter.
 * @returns the registry.
 *
 * @example
 * ```ts
 * const tools = createDemoTools();
 * await tools.call("calculator", { expr: "21*2+5" }); // { expr: "21*2+5", value: 47 }
 * ```
 */
export function createDemoTools(options: DemoToolsOptions = {}): ToolRegistry {
  const clock = options.now === undefined ? {} : { now: options.now };
  const slow: { delayMs?: number; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> } = {};
  if (options.slowLookupDelayMs !== undefined) slow.delayMs = options.slowLookupDelayMs;
  if (options.sleep !== undefined) slow.sleep = options.sleep;
  const tools = [
    createKnowledgeLookupTool(),
    createKnowledgeSearchTool(),
    createCalculatorTool(),
    createUnitConversionTool(),
    createClockTool(clock),
    createSlowLookupTool(slow),
    createSaveNoteTool({ store: options.notes ?? createNoteStore(), ...clock }),
  ];
  const only = options.only === undefined ? undefined : new Set(options.only);
  return new ToolRegistry().register(only === undefined ? tools : tools.filter((tool) => only.has(tool.name)));
}
