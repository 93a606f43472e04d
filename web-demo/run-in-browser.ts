/**
 * Runs a request entirely in the page, with the demo model and tools.
 *
 * @module
 */
import { AgentRuntime, LLMPlanner, type RunHandle } from "../src/index.ts";
import { createDemoModel } from "../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../worker/demo/create-demo-tools.ts";
import { demoApprovalPolicy } from "../worker/demo/demo-approval-policy.ts";

/**
 * Plans and runs a request in the browser — the same planner, runtime,
 * demo model and demo tools as the Worker, and the same approval policy
 * as its session runs (`save_note` waits for a person) — without a
 * server. The handle is a source of `createRunStore`: its events feed the
 * view, and the store's approve and stop go to the handle.
 *
 * @param query - the request.
 * @returns the run's handle.
 *
 * @example
 * ```ts
 * view.store = createRunStore(runInBrowser("What is 21*2+5?"));
 * ```
 */
export function runInBrowser(query: string): RunHandle {
  const model = createDemoModel();
  const runtime = new AgentRuntime({
    planner: new LLMPlanner({ model, knowledgeBaseTool: "kb_search" }),
    registry: createDemoTools(),
    model,
    maxConcurrency: 8,
    timeoutMs: 20_000,
    policy: demoApprovalPolicy,
  });
  return runtime.run(query);
}
