/**
 * The steps of a run: entries, results, status and dependents.
 *
 * @module
 */

import type { RuntimeErrorInfo, StepSkipCode } from "../../events/runtime-event.ts";
import { CONTEXT_REFERENCE_ROOT } from "../../plan/context-reference-root.ts";
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import { referencesOf } from "../../plan/references-of.ts";
import type { CompletedStep } from "../../planner/planner-event.ts";
import type { StepSource } from "./step-source.ts";

/** Where a step is. `succeeded`, `failed` and `skipped` are terminal. */
export type EntryStatus = "pending" | "running" | "succeeded" | "failed" | "skipped";

/**
 * Where a step that needs approval stands: not asked yet (its source still
 * streams), asked, approved or denied.
 */
export type ApprovalState =
  | { mode: "plan" | "step"; status: "unasked" }
  | { mode: "plan" | "step"; status: "requested"; requestId: string; shown: Record<string, unknown> }
  | { mode: "plan" | "step"; status: "approved"; requestId: string; shown: Record<string, unknown> }
  | { mode: "plan" | "step"; status: "denied"; requestId: string; reason: string | undefined };

/** One step of the run and everything the runtime knows about it (a field not yet set is left out). */
export interface StepEntry {
  readonly step: PlanStep;
  /** Position in the run's list of steps. */
  readonly index: number;
  readonly source: StepSource;
  /** The ids it references or depends on, each once. */
  readonly deps: readonly string[];
  /** How many of `deps` have not succeeded. */
  unmet: number;
  status: EntryStatus;
  attempts: number;
  /** Bumped whenever a running attempt's outcome must be ignored (abort). */
  generation: number;
  reflections: number;
  /** Arguments a reflector changed. */
  overrides?: Record<string, unknown> | undefined;
  lastInput?: unknown;
  error?: RuntimeErrorInfo | undefined;
  /** A failure the re-plan logic has dealt with. */
  handled?: boolean;
  /** A failure a re-plan patch replaced. */
  superseded?: boolean;
  /** Its outcome went to the planner, whose model answers it: a failure or skip of it fails no run (but an unknown outcome). */
  heard?: boolean;
  skipCode?: StepSkipCode | undefined;
  /** Why it was skipped, in words. */
  skipReason?: string | undefined;
  /** A reply whose text is already streaming: it cannot be skipped or replaced, only completed. */
  fixed?: boolean;
  /** Its approval, when the application's policy asks for one. */
  approval?: ApprovalState | undefined;
  /** Arguments a person approved in place of the planned ones. */
  edited?: Record<string, unknown> | undefined;
}

/**
 * The run's steps by id and in order, their results (frozen snapshots), and
 * who depends on whom, so a step's end wakes only its dependents.
 *
 * @example
 * ```ts
 * const table = new StepTable({ city: "Paris" });
 * const entry = table.add(step, source);
 * ```
 */
export class StepTable {
  /** Every step, in the order it was added. */
  readonly order: StepEntry[] = [];
  /** Results by step id, and the run context under `context`. */
  readonly results = new Map<string, unknown>();
  readonly #entries = new Map<string, StepEntry>();
  readonly #dependents = new Map<string, StepEntry[]>();

  /**
   * @param context - the run context, referable as `{{context.<key>}}`.
   */
  constructor(context: unknown) {
    this.results.set(CONTEXT_REFERENCE_ROOT, context);
  }

  /**
   * Whether an id is taken.
   *
   * @param id - a step id.
   * @returns the check.
   */
  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /**
   * A step by id.
   *
   * @param id - a step id.
   * @returns it, or `undefined`.
   */
  get(id: string): StepEntry | undefined {
    return this.#entries.get(id);
  }

  /**
   * Adds a step (its id must be free).
   *
   * @param step - a validated step.
   * @param source - where it came from.
   * @returns the entry.
   */
  add(step: PlanStep, source: StepSource): StepEntry {
    const deps = referencesOf(step);
    let unmet = 0;
    for (const id of deps) if (this.#entries.get(id)?.status !== "succeeded") unmet++;
    const entry: StepEntry = {
      step,
      index: this.order.length,
      source,
      deps,
      unmet,
      status: "pending",
      attempts: 0,
      generation: 0,
      reflections: 0,
    };
    this.#entries.set(step.id, entry);
    this.order.push(entry);
    for (const id of deps) {
      const list = this.#dependents.get(id);
      if (list === undefined) this.#dependents.set(id, [entry]);
      else list.push(entry);
    }
    return entry;
  }

  /**
   * The steps that reference or depend on an id.
   *
   * @param id - a step id.
   * @returns them, in the order they were added.
   */
  dependentsOf(id: string): readonly StepEntry[] {
    return this.#dependents.get(id) ?? [];
  }

  /**
   * Records a success: the result (already a frozen snapshot) and one less
   * unmet dependency for each dependent.
   *
   * @param entry - the step.
   * @param value - its result.
   * @returns the dependents that have no unmet dependency left.
   */
  succeed(entry: StepEntry, value: unknown): StepEntry[] {
    entry.status = "succeeded";
    this.results.set(entry.step.id, value);
    const freed: StepEntry[] = [];
    for (const dependent of this.dependentsOf(entry.step.id)) {
      dependent.unmet--;
      if (dependent.unmet === 0) freed.push(dependent);
    }
    return freed;
  }

  /**
   * The ids some step depends on that no step has.
   *
   * @returns them.
   */
  missingIds(): string[] {
    const missing: string[] = [];
    for (const id of this.#dependents.keys()) if (!this.#entries.has(id)) missing.push(id);
    return missing;
  }

  /**
   * The steps that succeeded, with their results.
   *
   * @returns them, in plan order.
   */
  completed(): CompletedStep[] {
    return this.order
      .filter((entry) => entry.status === "succeeded")
      .map((entry) => ({ step: entry.step, result: this.results.get(entry.step.id) }));
  }
}
