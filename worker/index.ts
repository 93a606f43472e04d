/**
 * The plankit Worker as deployed: the core Worker (`createWorker`, whose
 * routes are listed in `createRoutes`) and its session and durable runs
 * (`PlanSession`, `PlanWorkflow`), given the demo's tools, offline model,
 * approval policy and guided conversation (`demoWorkerOptions`). The one
 * file outside `worker/demo/` that imports the demo.
 *
 * @module
 */
import { createWorker } from "./create-worker.ts";
import { demoWorkerOptions } from "./demo/demo-worker-options.ts";
import { createRunSetup, type RunSetup } from "./runs/create-run-setup.ts";
import type { DurableRunParams } from "./runs/durable-run-params.ts";
import { PlanSession as CorePlanSession } from "./runs/plan-session.ts";
import { PlanWorkflow as CorePlanWorkflow } from "./runs/plan-workflow.ts";
import type { WorkerEnv } from "./worker-env.ts";

/** The session object (wrangler.toml `PLAN_SESSION`), whose session runs use the demo's setup. */
export class PlanSession extends CorePlanSession {
  protected override createSetup(params: DurableRunParams): RunSetup {
    return createRunSetup(this.env, params, demoWorkerOptions);
  }
}

/** The durable run (wrangler.toml `PLAN_WORKFLOW`), with the demo's setup. */
export class PlanWorkflow extends CorePlanWorkflow {
  protected override createSetup(params: DurableRunParams): RunSetup {
    return createRunSetup(this.env, params, demoWorkerOptions);
  }
}

/**
 * The Worker's handlers.
 *
 * @example
 * ```ts
 * const response = await worker.fetch(new Request("https://example.com/v1/run", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "21*2+5?" }) }), {});
 * ```
 */
const worker = createWorker(demoWorkerOptions) satisfies ExportedHandler<WorkerEnv>;

export default worker;
