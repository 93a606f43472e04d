/**
 * The plankit Worker for the real-client e2e suite: the Worker as deployed
 * (demo model, demo tools, durable runs), plus, for requests sent with
 * `x-e2e-model: counting`, a scripted plan of three slow calls of the
 * test-only tool `count_call` in a chain, whose calls are counted: `GET
 * /e2e/calls` answers `{ started, finished, aborted }` (this isolate's
 * counts), so a test can tell whether a client that left stopped the tools.
 *
 * @module
 */

import type { ToolRegistry } from "../../../src/index.ts";
import { createScriptedModel } from "../../../src/test.ts";
import { createWorker } from "../../../worker/create-worker.ts";
import { createDemoTools } from "../../../worker/demo/create-demo-tools.ts";
import { demoWorkerOptions } from "../../../worker/demo/demo-worker-options.ts";
import type { WorkerEnv } from "../../../worker/worker-env.ts";

export { PlanSession, PlanWorkflow } from "../../../worker/index.ts";

/** How long one `count_call` takes. */
const callMs = 1200;
const calls = { started: 0, finished: 0, aborted: 0 };

/** The demo tools and `count_call`, a read-only tool that waits `callMs` (or until aborted) and counts. */
function createTools(): ToolRegistry {
  return createDemoTools().register({
    name: "count_call",
    description: "Waits a moment and counts the calls that finish (e2e tests only)",
    inputSchema: { type: "object", properties: { after: {} } },
    annotations: { readOnlyHint: true },
    execute: (_args, { signal }) =>
      new Promise((resolve, reject) => {
        calls.started++;
        const timer = setTimeout(() => {
          calls.finished++;
          resolve({ done: calls.finished });
        }, callMs);
        signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          calls.aborted++;
          reject(new Error("aborted"));
        });
      }),
  });
}

const countingPlan = [
  { type: "tool", name: "count_call", arguments: {} },
  { type: "tool", name: "count_call", arguments: { after: "{{s1}}" } },
  { type: "tool", name: "count_call", arguments: { after: "{{s2}}" } },
  { type: "reply", text: "Counted {{s3.done}} calls." },
];

const demo = createWorker({ ...demoWorkerOptions, createTools });
const counting = createWorker({
  ...demoWorkerOptions,
  createTools,
  selectModel: () => ({
    name: "counting (scripted)",
    provider: "demo",
    model: createScriptedModel({ responses: () => JSON.stringify(countingPlan) }),
  }),
});

export default {
  fetch(request: Request, env: WorkerEnv, context: ExecutionContext): Promise<Response> {
    if (new URL(request.url).pathname === "/e2e/calls") return Promise.resolve(Response.json(calls));
    return (request.headers.get("x-e2e-model") === "counting" ? counting : demo).fetch(request, env, context);
  },
} satisfies ExportedHandler<WorkerEnv>;
