import { describe, expect, it } from "vitest";
import { createScriptedModel } from "../../src/model/create-scripted-model.ts";
import { LLMPlanner } from "../../src/planner/llm-planner.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { collect, invariantProblems } from "./fake-planner.ts";
import { createTestRegistry } from "./test-tools.ts";

const line = (step: unknown): string => JSON.stringify(step);

describe("AgentRuntime with LLMPlanner and a scripted model", () => {
  it("runs a streamed plan end to end: tools start while the model writes, one model call", async () => {
    const { registry, calls } = createTestRegistry({ latencyMs: 2 });
    const plan = `[\n${[
      { id: "s1", type: "tool", name: "lookup", arguments: { q: "Tokyo" } },
      { id: "s2", type: "tool", name: "lookup", arguments: { q: "Osaka" } },
      { id: "s3", type: "tool", name: "combine", arguments: { parts: ["{{s1.value}}", "{{s2.value}}"] } },
      { id: "s4", type: "reply", text: "Both: {{s3.text}}" },
    ]
      .map(line)
      .join(",\n")}\n]`;
    const model = createScriptedModel({ responses: [plan], tokensPerSecond: 2000 });
    const planner = new LLMPlanner({ model });
    const runtime = new AgentRuntime({ planner, registry, memory: false });
    const run = runtime.run("Compare Tokyo and Osaka");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(run.state.reply?.text).toBe("Both: Tokyo!+Osaka!");
    expect(run.state.reason).toBe("completed");
    expect(run.state.usage.modelCalls).toBe(1);
    expect(model.calls).toBe(1);
    const firstStart = events.findIndex((event) => event.type === "step-start");
    const planEnd = events.findIndex((event) => event.type === "plan-end");
    expect(firstStart).toBeLessThan(planEnd);
    expect(calls.map((call) => call.name)).toEqual(["lookup", "lookup", "combine"]);
  });

  it("leaves a model's leading <think> block out of an llm step's answer, as the planner does", async () => {
    const { registry } = createTestRegistry();
    const plan = line([
      { id: "s1", type: "llm", prompt: "Name a colour" },
      { id: "s2", type: "reply", text: "Colour: {{s1}}" },
    ]);
    const model = createScriptedModel({
      responses: {
        plan: [`<think>the user wants a plan</think>${plan}`],
        "llm-step": ["<think>red or blue?</think>\nBlue"],
      },
    });
    const run = new AgentRuntime({ planner: new LLMPlanner({ model }), registry, memory: false }).run("Name a colour");
    await collect(run);
    expect(run.state.reply?.text).toBe("Colour: Blue");
  });

  it("re-plans through the planner's streamed patch and counts its model call", async () => {
    const { registry, calls } = createTestRegistry();
    const plan = `[${[
      { id: "s1", type: "tool", name: "lookup", arguments: { q: "a" } },
      { id: "s2", type: "tool", name: "fail", arguments: {} },
      { id: "s3", type: "reply", text: "{{s1.value}} {{s2}}" },
    ]
      .map(line)
      .join(",")}]`;
    const patch = `[${[
      { id: "s4", type: "tool", name: "lookup", arguments: { q: "b" } },
      { id: "s5", type: "reply", text: "{{s1.value}} and {{s4.value}}" },
    ]
      .map(line)
      .join(",")}]`;
    const model = createScriptedModel({ responses: [plan, patch] });
    const runtime = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry,
      memory: false,
      retries: 0,
      reflector: noOpReflector,
    });
    const run = runtime.run("a and b");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(model.requests[1]?.prompt).toContain("the service is down");
    expect(calls.filter((call) => call.name === "lookup").map((call) => call.args["q"])).toEqual(["a", "b"]);
    expect(run.state.reply?.text).toBe("a! and b!");
    expect(run.state.reason).toBe("completed");
    expect(run.state.usage).toMatchObject({ modelCalls: 2, replans: 1 });
  });

  it("a truncated plan runs its read-only steps and never the side effect", async () => {
    const { registry, calls } = createTestRegistry();
    const plan = `[${[
      { id: "s1", type: "tool", name: "lookup", arguments: { q: "a" } },
      { id: "s2", type: "tool", name: "send", arguments: { to: "{{s1.value}}" } },
    ]
      .map(line)
      .join(",")},{"id":"s3","type":"reply","te`;
    const model = createScriptedModel({ responses: [{ text: plan, finishReason: "length" }, "ok"] });
    const runtime = new AgentRuntime({ planner: new LLMPlanner({ model, repair: false }), registry, memory: false });
    const run = runtime.run("look a up and send it");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(calls.map((call) => call.name)).toEqual(["lookup"]);
    expect(run.state.plan.clean).toBe(false);
    expect(run.state.steps.find((step) => step.step.id === "s2")?.skip?.code).toBe("unsafe-plan");
  });
});
