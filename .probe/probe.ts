import { AgentRuntime, LLMPlanner } from "/work/wt-stream/src/index.ts";
import { createDemoModel } from "/work/wt-stream/worker/demo/create-demo-model.ts";
import { createDemoTools } from "/work/wt-stream/worker/demo/create-demo-tools.ts";
import { workerDefaults } from "/work/wt-stream/worker/worker-defaults.ts";
const mode = (process.argv[2] ?? "safe") as "safe" | "early";
const model = createDemoModel();
const registry = createDemoTools();
const planner = new LLMPlanner({ model, topK: registry.list().length, knowledgeBaseTool: "kb_search" });
const runtime = new AgentRuntime({ ...workerDefaults.runtime, planner, registry, model, replyStreaming: mode });
const run = runtime.run("compare the populations of Tokyo and Paris and compute their ratio");
for await (const e of run) {
  const x: any = e;
  console.log(x.t.toFixed(0).padStart(5), x.type, x.stepId ?? "", x.type === "step-planned" ? JSON.stringify(x.step).slice(0, 140) + " safe=" + x.safe : "", x.delta ? JSON.stringify(x.delta) : "", x.type==="step-end"? x.durationMs: "");
}
