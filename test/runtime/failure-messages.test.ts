/**
 * Errors that say what to fix: a run that fails while repairing its plan
 * names what the repair was for, and its answer says what went wrong; a
 * plan with a reference to no step, or with a cycle, says which steps.
 */
import { describe, expect, it } from "vitest";
import { createScriptedModel } from "../../src/model/create-scripted-model.ts";
import { LLMPlanner } from "../../src/planner/llm-planner.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { createFakePlanner, invariantProblems, reply, tool } from "./fake-planner.ts";

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

describe("what a run of a planner of one's own says about its plan", () => {
  const lookup = new ToolRegistry().register({
    name: "lookup",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
    execute: () => ({ s: "found" }),
  });
  const quiet = { memory: false, reflector: noOpReflector, integrate: "template" } as const;

  it("a reference to a step that is not in the plan fails the run as a reference problem, naming both steps", async () => {
    const planner = createFakePlanner({ steps: [tool("s1", "lookup"), reply("s2", "Here: {{s9.s}}")] });
    const run = new AgentRuntime({ planner, registry: lookup, ...quiet }).run("go");
    const state = await run.done;
    expect(state.reason).toBe("failed");
    expect(state.error).toEqual({
      code: "unknown-reference",
      message: 'Step "s2" was skipped (unknown-dependency): It depends on step "s9", which is not in the plan',
    });
    expect(invariantProblems(run.events)).toEqual([]);
  });

  it("steps that wait for one another are skipped with the cycle named step by step; what needed them is skipped after", async () => {
    const planner = createFakePlanner({
      steps: [
        tool("s1", "lookup", { q: "{{s2.s}}" }),
        tool("s2", "lookup", { q: "{{s1.s}}" }),
        tool("s3", "lookup", { q: "{{s1.s}}" }),
        tool("s4", "lookup", { q: "{{s4.s}}" }),
        tool("s5", "lookup", { q: "x" }),
        reply("s6", "done: {{s5.s}}"),
      ],
    });
    const run = new AgentRuntime({ planner, registry: lookup, ...quiet }).run("go");
    const state = await run.done;
    const skips = Object.fromEntries(state.steps.map((step) => [step.step.id, step.skip]));
    expect(skips).toEqual({
      s1: { code: "cycle", reason: "It waits for itself: s1 → s2 → s1" },
      s2: { code: "cycle", reason: "It waits for itself: s1 → s2 → s1" },
      s3: { code: "dependency-failed", reason: 'It depends on step "s1", which was skipped' },
      s4: { code: "cycle", reason: "It waits for itself: s4 → s4" },
      s5: undefined,
      s6: undefined,
    });
    expect(state.reply).toEqual({ text: "done: found", source: "step", stepId: "s6" });
    expect(state.reason).toBe("failed");
    expect(state.error).toEqual({
      code: "cycle",
      message: 'Step "s1" was skipped (cycle): It waits for itself: s1 → s2 → s1',
    });
    expect(invariantProblems(run.events)).toEqual([]);
  });
});
