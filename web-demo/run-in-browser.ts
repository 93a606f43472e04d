/**
 * Runs a request entirely in the page, with the demo model and tools.
 *
 * @module
 */
import { AgentRuntime, LLMPlanner } from "../src/index.ts";
import { createDemoModel, demoModelName } from "../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../worker/demo/create-demo-tools.ts";
import type { DemoEvent } from "./demo-event.ts";

/**
 * Plans and runs a request in the browser — the same planner, runtime,
 * demo model and demo tools as the Worker, without a server — and yields
 * a `model` event, then the runtime's events.
 *
 * @param query - the request.
 * @param signal - aborts the run.
 * @returns the events.
 *
 * @example
 * ```ts
 * for await (const event of runInBrowser("What is 21*2+5?")) console.log(event.type);
 * ```
 */
export async function* runInBrowser(query: string, signal?: AbortSignal): AsyncGenerator<DemoEvent> {
  const model = createDemoModel();
  const registry = createDemoTools();
  const planner = new LLMPlanner({ model, knowledgeBaseTool: "kb_search" });
  const runtime = new AgentRuntime({ planner, registry, model, maxConcurrency: 8, timeoutMs: 20_000 });
  yield { type: "model", name: `${demoModelName}, in this browser`, provider: "demo" };
  yield* runtime.run(query, signal === undefined ? {} : { signal });
}
