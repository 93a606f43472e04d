/**
 * The planner, tools and model of a run started by `POST /v1/runs`.
 *
 * @module
 */

import type { RuntimeBudget, ToolPolicy, ToolRegistry } from "../../src/index.ts";
import type { PlanModel } from "../../src/model.ts";
import type { Planner, PlannerProfile } from "../../src/runtime.ts";
import { createRequestPlanner } from "../create-request-planner.ts";
import type { SelectedModel } from "../select-model.ts";
import { selectToolsAndModel } from "../select-tools-and-model.ts";
import type { WorkerEnv } from "../worker-env.ts";
import type { WorkerOptions } from "../worker-options.ts";
import type { DurableRunParams } from "./durable-run-params.ts";

/** What a run needs, built from the environment and the run's parameters. */
export interface RunSetup {
  registry: ToolRegistry;
  planner: Planner;
  /**
   * Builds the run's planner over a given model. A durable run that has it
   * plans with `createPlanner(model)`, where `model` records each of the
   * planner's model calls as a durable step (`model:plan:<n>`,
   * `model:replan:<n>`), instead of recording the planner's whole stream
   * as the step `plan`. A planner that works in turns (`ToolCallPlanner`)
   * needs it: each turn is then a step of its own, and the
   * next turn hears the outcomes of the steps it called. Build it as
   * `planner` is built (the request's tools and `maxSteps`): the run does
   * not check its plans again.
   *
   * @defaultValue none: the durable run records `planner`'s stream as one step
   */
  createPlanner?: (model: PlanModel) => Planner;
  model: PlanModel;
  /** The model's name and provider, for the log's first event. */
  selected: SelectedModel;
  profile?: PlannerProfile | string;
  /**
   * The per-tool policy of the run — which tools need a person's approval
   * (`POST /v1/runs/:id/approvals` answers it).
   */
  policy?: Readonly<Record<string, ToolPolicy>>;
  /**
   * How long a durable run waits for each decision (`step.waitForEvent`'s
   * timeout) before it denies the steps still waiting, in milliseconds.
   *
   * @defaultValue `workerDefaults.durableApprovalTimeoutMs` (7 days)
   */
  approvalTimeoutMs?: number;
  /**
   * The durable run's budget: steps, model calls, tool calls, re-plans and
   * `deadlineMs`, which counts from the run's start across restarts and
   * includes time spent waiting for a person's decision.
   *
   * @defaultValue `workerDefaults.durableBudget` (12 model calls, 40 tool calls, no deadline)
   */
  budget?: RuntimeBudget;
}

/**
 * Builds a run's planner, tools and model the way `POST /v1/run` does from
 * the same options: the tools and model of `selectToolsAndModel`, the
 * planner of `createRequestPlanner` (every tool, or the `tools` the request
 * named, and the request's `maxSteps`), and the options' `approvalPolicy`.
 * The session object and the Workflow call it on their own side (from
 * their `createSetup`), since they cannot receive live objects from the
 * request.
 *
 * @param env - the Worker's environment.
 * @param params - the run's parameters.
 * @param options - the Worker's options (the application's tools, model and approval policy).
 * @returns the setup.
 * @throws {HttpProblem} 503 `model-not-configured` (see `selectModel`).
 *
 * @example
 * ```ts
 * const { planner, registry, model } = createRunSetup(env, { tools: ["calculator"] }, { createTools: () => createMyTools() });
 * ```
 */
export function createRunSetup(
  env: WorkerEnv,
  params: Pick<DurableRunParams, "tools" | "maxSteps" | "profile">,
  options: WorkerOptions,
): RunSetup {
  const { registry, selected } = selectToolsAndModel(options, env);
  const { planner } = createRequestPlanner(selected.model, registry, params, options);
  const setup: RunSetup = { registry, planner, model: selected.model, selected };
  if (options.approvalPolicy !== undefined) setup.policy = options.approvalPolicy;
  if (params.profile !== undefined) setup.profile = params.profile;
  return setup;
}
