/**
 * Starting a run answered in the request.
 *
 * @module
 */
import type { Context } from "hono";
import type { Dialog } from "../../src/events.ts";
import { AgentRuntime, type RunHandle } from "../../src/index.ts";
import type { PlannerProfile } from "../../src/runtime.ts";
import { createRequestPlanner } from "../create-request-planner.ts";
import { abortOnDisconnect } from "../http/abort-on-disconnect.ts";
import { keepAlive } from "../http/keep-alive.ts";
import type { WorkerAppEnv } from "../worker-app-env.ts";
import { workerDefaults } from "../worker-defaults.ts";
import { denyApprovals } from "./deny-approvals.ts";

/** What shapes a run: the request, and its optional tools, step limit and profile. */
export interface RunRequest {
  /** The request, or the conversation ending with it. */
  input: string | Dialog;
  tools?: readonly string[] | undefined;
  maxSteps?: number | undefined;
  profile?: unknown;
}

/**
 * Starts a run of the request's model and tools with the Worker's runtime
 * settings (`workerDefaults.runtime`, then the Worker's `runtime`
 * option). The run is aborted — with every model and tool call in it —
 * when the client goes away, or when `stop` is called (a stream's cancel);
 * the request's context is kept alive until the run has ended. Nobody can
 * approve a step there: each step a policy marks is denied the moment the
 * run asks ({@link denyApprovals}), and the run answers without it.
 *
 * @param c - the request's context.
 * @param request - the input and the run's options.
 * @returns the run, and the function that aborts it.
 *
 * @example
 * ```ts
 * const { run, stop } = startRun(c, { input: body.query, tools: body.tools });
 * ```
 */
export function startRun(c: Context<WorkerAppEnv>, request: RunRequest): { run: RunHandle; stop: () => void } {
  const { selected, registry, options } = c.var;
  const { planner } = createRequestPlanner(selected.model, registry, request, options);
  const controller = abortOnDisconnect(c.var.signal);
  const profile = request.profile as PlannerProfile | string | undefined;
  const runtime = new AgentRuntime({
    ...workerDefaults.runtime,
    ...options.runtime,
    planner,
    registry,
    model: selected.model,
    ...(profile === undefined ? {} : { profile }),
  });
  const run = runtime.run(request.input, { signal: controller.signal });
  void denyApprovals(run);
  // The run outlives a response that fails: it ends (aborted) rather than being cut off.
  keepAlive(c, run.done);
  return { run, stop: () => controller.abort(new Error("The client disconnected")) };
}
