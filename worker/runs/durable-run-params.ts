/**
 * What a durable or session run is started with.
 *
 * @module
 */
import type { PlannerProfile } from "../../src/runtime.ts";

/**
 * The parameters of a run started by `POST /v1/runs`: the Workflow
 * instance's payload (durable runs) or the session object's request
 * (session runs). Plain JSON, so it survives the Workflow engine.
 *
 * @example
 * ```ts
 * const params: DurableRunParams = { runId: createRunId(), session: "chat_42", query: "What is 21*2+5?", engine: 3 };
 * await env.PLAN_WORKFLOW.create({ id: params.runId, params });
 * ```
 */
export interface DurableRunParams {
  /** The run id (also the Workflow instance id). */
  runId: string;
  /** The session whose object holds the run's log and the memory the run reads and writes. */
  session: string;
  /** The user's request. */
  query: string;
  /** The planner profile. */
  profile?: PlannerProfile | string;
  /** Names of the tools the planner may use; all by default. */
  tools?: string[];
  /** The most steps a plan may have. */
  maxSteps?: number;
  /**
   * How a durable run is executed, so an instance replays the way it was
   * made across a deploy: `2` — reflection, integration and the start time
   * as stored steps, budgets, the result cache, a marker step
   * (`<name>:started`) before each side effect; `3` — the same, with the
   * start of a side effect claimed in the session object inside the
   * step's own `step.do` instead of a marker step. Instances created
   * without it replay as before: no reflector, no result cache, no budgets.
   */
  engine?: 2 | 3;
}
