/**
 * The planner interface: what the runtime asks of a planner.
 *
 * @module
 */
import type { PlanModel } from "../model/plan-model.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import type { PlannerEvent, PlanRequest, ReplanRequest } from "./planner-event.ts";

/**
 * What the runtime needs from a planner. `LLMPlanner` implements it; any
 * object with these methods can stand in (a cached or hand-written planner,
 * `createFixedPlanner` from `plankit/test`).
 */
export interface Planner {
  /** Streams a plan: steps as they validate, then `done`. */
  stream(request: PlanRequest): AsyncIterable<PlannerEvent>;
  /** A patch for what is left after a failure: new steps, which may reference completed ones by id and never repeat them. */
  replan(request: ReplanRequest): Promise<PlanStep[]>;
  /**
   * Streams the patch instead, each step the moment it validates, then
   * `done`. When present the runtime uses it in place of `replan`, so the
   * patch's first steps start while the rest is written.
   */
  streamReplan?(request: ReplanRequest): AsyncIterable<PlannerEvent>;
  /**
   * The planner works in turns and tells the model what became of the
   * steps it awaits (`PlanRequest.awaitOutcomes`), so a failure among its
   * plan's steps is the model's to answer: the runtime asks no reflector
   * about it. `ToolCallPlanner` is such a planner.
   */
  readonly hearsOutcomes?: boolean;
  /**
   * The model the planner plans with. The runtime uses it for `llm` steps,
   * integration and reflection when `AgentRuntimeOptions.model` is not given.
   */
  readonly model?: PlanModel;
}
