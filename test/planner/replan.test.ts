import { describe, expect, it } from "vitest";
import { LLMPlanner, type PlanStep } from "../../src/index.ts";
import { buildReplanPrompt } from "../../src/planner/build-replan-prompt.ts";
import type { ReplanRequest } from "../../src/runtime.ts";
import { createScriptedModel } from "../../src/test.ts";
import { mcpTools } from "../fixtures/tools/example-tools.ts";
import { collectEvents, doneOf, traceOf } from "./planner-test-kit.ts";

const search: PlanStep = {
  id: "s1",
  type: "tool",
  name: "arxiv_search",
  arguments: { query: "LLM agents survey", max_results: 2 },
};
const fetchStep: PlanStep = {
  id: "s2",
  type: "tool",
  name: "fetch_json",
  arguments: { url: "https://example.org/{{s1.papers.0.title}}" },
};
const reply: PlanStep = { id: "s3", type: "reply", text: "{{s2}}" };
const request: ReplanRequest = {
  query: "Find a survey on LLM agents and fetch its details",
  tools: mcpTools,
  completed: [{ step: search, result: { papers: [{ title: "Agents", authors: ["A"] }], total: 1 } }],
  failed: [{ step: fetchStep, error: "fetch_json: HTTP 503" }],
  remaining: [reply],
};

describe("LLMPlanner.replan", () => {
  it("returns a patch that references completed steps and never repeats them", async () => {
    const answer = JSON.stringify([
      search,
      { id: "s4", type: "llm", prompt: "Describe the paper {{s1.papers.0.title}}" },
      { id: "s5", type: "reply", text: "{{s4}}" },
    ]);
    const model = createScriptedModel({ responses: [answer] });
    const patch = await new LLMPlanner({ model }).replan(request);
    expect(patch).toEqual([
      { id: "s4", type: "llm", prompt: "Describe the paper {{s1.papers.0.title}}" },
      { id: "s5", type: "reply", text: "{{s4}}" },
    ]);
    expect(model.calls).toBe(1);
  });

  it("keeps a repeat of a completed call under a new id (it may read fresh state), drops a restatement, and refuses the failed step's id", async () => {
    const answer = JSON.stringify([
      { id: "s9", type: "tool", name: "arxiv_search", arguments: { max_results: 2, query: "LLM agents survey" } },
      { id: "s1", type: "tool", name: "arxiv_search", arguments: { query: "LLM agents survey", max_results: 2 } },
      { id: "s2", type: "tool", name: "fetch_json", arguments: { url: "https://mirror.example.org/agents" } },
      { id: "s6", type: "reply", text: "{{s9.total}} paper found" },
    ]);
    const events = await collectEvents(
      new LLMPlanner({ model: createScriptedModel({ responses: [answer] }), repair: false }).streamReplan(request),
    );
    expect(traceOf(events)).toEqual([
      "step s9",
      "issue dropped duplicate-id",
      "issue dropped duplicate-id",
      "step s6",
      "done",
    ]);
    const done = doneOf(events);
    expect(done.steps.map((step) => step.id)).toEqual(["s9", "s6"]);
    expect(done.clean).toBe(false);
  });

  it("shows the model the completed results, the errors and the remaining steps", async () => {
    const model = createScriptedModel({ responses: ['[{"id":"s4","type":"reply","text":"{{s1}}"}]'] });
    await new LLMPlanner({ model }).replan(request);
    const prompt = model.requests[0]?.prompt ?? "";
    expect(prompt).toContain(
      '<COMPLETED_STEPS>\n[\n{"id":"s1","type":"tool","name":"arxiv_search","arguments":{"query":"LLM agents survey","max_results":2},"result":{"papers":[{"title":"Agents","authors":["A"]}],"total":1}}\n]\n</COMPLETED_STEPS>',
    );
    expect(prompt).toContain('"error":"fetch_json: HTTP 503"');
    expect(prompt).toContain('<REMAINING_STEPS>\n[\n{"id":"s3","type":"reply","text":"{{s2}}"}\n]\n</REMAINING_STEPS>');
    expect(prompt).toContain("never repeat completed steps");
  });

  it("cuts long results in the prompt", () => {
    const { prompt } = buildReplanPrompt({
      ...request,
      tools: [],
      completed: [{ step: search, result: "x".repeat(5000) }],
    });
    expect(prompt).toContain("… (cut)");
    expect(prompt.length).toBeLessThan(4000);
  });

  it("gives default ids past the original plan to steps without one", async () => {
    const model = createScriptedModel({
      responses: ['[{"type":"llm","prompt":"Summarize {{s1}}"},{"type":"reply","text":"{{s4}}"}]'],
    });
    const patch = await new LLMPlanner({ model }).replan(request);
    expect(patch.map((step) => step.id)).toEqual(["s4", "s5"]);
  });
});
