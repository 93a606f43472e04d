/**
 * The interface of a reflector: what to do about a step that failed.
 *
 * @module
 */

import type { RuntimeErrorInfo } from "../events/runtime-event.ts";
import type { PlanModel } from "../model/plan-model.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import type { ToolDescriptor } from "../tools/tool-descriptor.ts";
import type { CompletedStep } from "./planner-event.ts";

/**
 * A reflector's verdict on a failed step (how to adjust the plan):
 *
 * - `retry`: run the step once more, with `arguments` merged into its arguments;
 * - `new_plan`: give up on the step and ask the planner for a patch;
 * - `abort`: stop the run.
 */
export type Reflection =
  | { action: "retry"; reason: string; arguments?: Record<string, unknown> }
  | { action: "new_plan"; reason: string }
  | { action: "abort"; reason: string };

/** What a reflector is told about a failure. */
export interface ReflectionRequest {
  /** The user's request. */
  query: string;
  /** The failed step, as planned. */
  step: PlanStep;
  /** The resolved arguments (tool steps) or prompt (`llm` steps) of the last attempt. */
  input: unknown;
  /** The last attempt's error. */
  error: RuntimeErrorInfo;
  /** Attempts made. */
  attempts: number;
  /** The tool's descriptor, for tool steps. */
  tool?: ToolDescriptor;
  /** Steps that succeeded so far, with their results. */
  completed: CompletedStep[];
  /** The runtime's model, counted against the run's budget; absent when the runtime has none. */
  model?: PlanModel;
  /** Fires when the run is aborted. */
  signal: AbortSignal;
}

/**
 * Decides what to do after a step failed and its retries ran out. Returning
 * `undefined` means "no opinion": the runtime goes on to re-plan.
 *
 * @example
 * ```ts
 * const reflector: Reflector = {
 *   reflect: ({ error }) => (error.code === "invalid-argument" ? { action: "abort", reason: error.message } : undefined),
 * };
 * ```
 */
export interface Reflector {
  /**
   * Judges one failure.
   *
   * @param request - the failed step, its error and the run so far.
   * @returns the verdict, or `undefined`.
   */
  reflect(request: ReflectionRequest): Reflection | undefined | Promise<Reflection | undefined>;
}
