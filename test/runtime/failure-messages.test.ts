/**
 * Errors that say what to fix: a run that fails while repairing its plan
 * names what the repair was for, and its answer says what went wrong.
 */
import { describe, expect, it } from "vitest";
import { createScriptedModel } from "../../src/model/create-scripted-model.ts";
import { LLMPlanner } from "../../src/planner/llm-planner.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";

const registry = new ToolRegistry().register({
  name: "add",
  description: "Add",
  inputSchema: { type: "object" },
  execute: () => ({ sum: 1 }),
});

describe("what a failed run says", () => {
  it("a repair re-ask that fails names the issue it was asked to repair, in the run's error and its answer", async () => {
    const model = createScriptedModel({
      responses: ['[{"id":"s1","tool":"ad","args":{}},{"id":"s2","reply":"{{s1.sum}}"}]'],
    });
    const state = await new AgentRuntime({ planner: new LLMPlanner({ model }), registry, memory: false }).run("add")
      .done;
    expect(state.reason).toBe("failed");
    expect(state.error?.code).toBe("model-error");
    expect(state.error?.message).toContain("while re-asking the model to repair its plan");
    expect(state.error?.message).toContain('unknown tool "ad"; did you mean "add"?');
    expect(state.reply?.text).toBe(`No answer: ${state.error?.message ?? ""}`);
  });

  it("a first call that fails keeps its own message", async () => {
    const model = createScriptedModel({ responses: [] });
    const state = await new AgentRuntime({ planner: new LLMPlanner({ model }), registry, memory: false }).run("add")
      .done;
    expect(state.error?.message).not.toContain("repair");
  });
});
