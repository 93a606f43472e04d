/**
 * The Workflow that runs a plan durably.
 *
 * @module
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import type { WorkerEnv } from "../worker-env.ts";
import { createRunSetup, type RunSetup } from "./create-run-setup.ts";
import type { DurableRunParams } from "./durable-run-params.ts";
import { type DurableRunResult, executeDurableRun } from "./execute-durable-run.ts";

/**
 * The durable run (Cloudflare Workflows): one instance per run, its id the
 * run id, its payload the {@link DurableRunParams}. It plans once in the
 * step `plan` and runs the plan with the core runtime while it streams
 * (read-only steps at once, side-effecting ones once the plan is stored), each `tool` or
 * `llm` step in one `step.do` named by the step id and a hash of its
 * resolved arguments, with the step's retries and time limit, independent
 * steps at once; a step that needs a person's approval waits for the
 * `approval` event (`step.waitForEvent`, which `POST /v1/runs/:id/approvals`
 * sends) — see `executeDurableRun`. Events and memory go to the
 * run's session object (`PLAN_SESSION`). Override {@link PlanWorkflow.createSetup}
 * in a subclass to give the application's tools and model, as
 * `worker/index.ts` does with the demo's.
 *
 * @example
 * ```toml
 * [[workflows]]
 * name = "plankit-plan"
 * binding = "PLAN_WORKFLOW"
 * class_name = "PlanWorkflow"
 * ```
 */
export class PlanWorkflow extends WorkflowEntrypoint<WorkerEnv, DurableRunParams> {
  /**
   * Runs (or, after a restart, resumes) the run.
   *
   * @param event - the instance's event; `payload` holds the run's parameters.
   * @param step - the engine's steps.
   * @returns the end reason and the reply.
   */
  override async run(event: Readonly<WorkflowEvent<DurableRunParams>>, step: WorkflowStep): Promise<DurableRunResult> {
    const params = event.payload;
    const namespace = this.env.PLAN_SESSION;
    if (namespace === undefined) throw new Error("A durable run needs the PLAN_SESSION Durable Object binding");
    const session = namespace.get(namespace.idFromName(params.session));
    return executeDurableRun({
      params,
      session,
      createdAt: new Date(event.timestamp).getTime(),
      setup: this.createSetup(params),
      step: {
        do: (name, config, callback) => step.do(name, config, callback as never) as Promise<never>,
        waitForEvent: async (name, options) =>
          (await step.waitForEvent<Rpc.Serializable<unknown>>(name, { type: options.type, timeout: options.timeoutMs }))
            .payload,
      },
    });
  }

  /**
   * The run's planner, tools and model.
   *
   * @param params - the run's parameters.
   * @returns the setup; by default `createRunSetup(env, params, {})`: no
   *   tools, and the model the environment configures.
   */
  protected createSetup(params: DurableRunParams): RunSetup {
    return createRunSetup(this.env, params, {});
  }
}
