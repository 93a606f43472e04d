import { describe, expect, it } from "vitest";
import { LLMPlanner, type PlanStep, understandRequest } from "../../src/index.ts";
import { createScriptedModel } from "../../src/test.ts";
import { mcpTools } from "../fixtures/tools/example-tools.ts";

const reply = JSON.stringify([{ type: "reply", text: "done" }]);

describe("LLMPlanner: the purpose of each model call", () => {
  it("marks a plan call plan, and its repair re-ask repair", async () => {
    const model = createScriptedModel({
      responses: {
        plan: [
          JSON.stringify([
            { type: "tool", name: "no_such_tool", arguments: {} },
            { type: "reply", text: "x" },
          ]),
        ],
        repair: [reply],
      },
    });
    await new LLMPlanner({ model }).plan({ query: "q", tools: mcpTools });
    expect(model.requests.map((request) => request.purpose)).toEqual(["plan", "repair"]);
  });

  it("marks sketch mode's thinking reason, then plan", async () => {
    const model = createScriptedModel({ responses: { reason: ["1. Goal: reply."], plan: [reply] } });
    await new LLMPlanner({ model, mode: "sketch" }).plan({ query: "q", tools: mcpTools });
    expect(model.requests.map((request) => request.purpose)).toEqual(["reason", "plan"]);
  });

  it("marks a re-plan call replan and goal understanding understand", async () => {
    const search: PlanStep = {
      id: "s1",
      type: "tool",
      name: "arxiv_search",
      arguments: { query: "agents", max_results: 1 },
    };
    const model = createScriptedModel({
      responses: {
        replan: [JSON.stringify([{ id: "s3", type: "reply", text: "patched" }])],
        understand: ['{"objective":"q"}'],
      },
    });
    const planner = new LLMPlanner({ model });
    await planner.replan({
      query: "q",
      tools: mcpTools,
      completed: [],
      failed: [{ step: search, error: "boom" }],
      remaining: [{ id: "s2", type: "reply", text: "x" }],
    });
    await understandRequest({ model, query: "q" });
    expect(model.requests.map((request) => request.purpose)).toEqual(["replan", "understand"]);
  });
});
