/**
 * Runs a request entirely in the page, with the demo model and tools.
 *
 * @module
 */
import { AgentRuntime, type ApprovalDecision, LLMPlanner, PlankitError } from "../src/index.ts";
import { createDemoModel, demoModelName } from "../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../worker/demo/create-demo-tools.ts";
import { demoApprovalPolicy } from "../worker/demo/demo-approval-policy.ts";
import type { DemoEvent } from "./demo-event.ts";
import type { DemoRun } from "./demo-run.ts";

/**
 * Plans and runs a request in the browser — the same planner, runtime,
 * demo model and demo tools as the Worker, and the same approval policy
 * as its session runs (`save_note` waits for a person) — without a
 * server. Its events are a `model` event, then the runtime's; decisions
 * go to the run's `approve`.
 *
 * @param query - the request.
 * @param signal - aborts the run.
 * @returns the run.
 *
 * @example
 * ```ts
 * for await (const event of runInBrowser("What is 21*2+5?").events) console.log(event.type);
 * ```
 */
export function runInBrowser(query: string, signal?: AbortSignal): DemoRun {
  const model = createDemoModel();
  const registry = createDemoTools();
  const planner = new LLMPlanner({ model, knowledgeBaseTool: "kb_search" });
  const runtime = new AgentRuntime({
    planner,
    registry,
    model,
    maxConcurrency: 8,
    timeoutMs: 20_000,
    policy: demoApprovalPolicy,
  });
  const run = runtime.run(query, signal === undefined ? {} : { signal });
  const events = async function* (): AsyncGenerator<DemoEvent> {
    yield { type: "model", name: `${demoModelName}, in this browser`, provider: "demo" };
    yield* run;
  };
  return {
    events: events(),
    approve(decisions: ApprovalDecision[]): Promise<void> {
      try {
        run.approve(decisions);
        return Promise.resolve();
      } catch (error) {
        // The same words the Worker answers with: the runtime's message names the step and the argument's path.
        return Promise.reject(
          new Error(
            PlankitError.isInstance(error)
              ? `The run refused the decision (${error.code}: ${error.message})`
              : String(error),
            { cause: error },
          ),
        );
      }
    },
  };
}
