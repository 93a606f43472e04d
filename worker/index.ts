/**
 * The plankit Worker: `POST /v1/plan` and `POST /v1/run` stream plans and
 * runs as Server-Sent Events, `GET /v1/tools` lists the tools, and `/`
 * serves the web demo through Workers static assets. It plans with
 * `OPENAI_API_KEY` (+ `OPENAI_BASE_URL`, `PLANKIT_MODEL`) when set, else
 * with the built-in offline demo model. See {@link createWorker}.
 * `POST /v1/runs` starts durable runs: the `PlanSession` Durable Object
 * holds each conversation's memory and run logs, the `PlanWorkflow`
 * Workflow runs the plan.
 *
 * @module
 */
import { createWorker } from "./create-worker.ts";
import type { WorkerEnv } from "./worker-env.ts";

export { PlanSession } from "./runs/plan-session.ts";
export { PlanWorkflow } from "./runs/plan-workflow.ts";

/**
 * The Worker's handlers.
 *
 * @example
 * ```ts
 * const response = await worker.fetch(new Request("https://example.com/v1/run", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "21*2+5?" }) }), {});
 * ```
 */
const worker = createWorker() satisfies ExportedHandler<WorkerEnv>;

export default worker;
