import { describe, expect, it } from "vitest";
import { LLMPlanner } from "../../src/index.ts";
import { createReasoningFilter } from "../../src/model/create-reasoning-filter.ts";
import { createScriptedModel } from "../../src/test.ts";
import { mcpTools } from "../fixtures/tools/example-tools.ts";

/** Runs the filter over `text` cut at `cut`, and over single characters. */
function filtered(text: string): string[] {
  const outputs: string[] = [];
  for (let cut = 0; cut <= text.length; cut++) {
    const filter = createReasoningFilter();
    outputs.push(filter.push(text.slice(0, cut)) + filter.push(text.slice(cut)) + filter.end());
  }
  const filter = createReasoningFilter();
  outputs.push([...text].map((character) => filter.push(character)).join("") + filter.end());
  return [...new Set(outputs)];
}

describe("createReasoningFilter", () => {
  it("drops a leading think block, wherever the chunks are cut", () => {
    expect(filtered('<think>Maybe [1, 2]? Or {"id": 3}.</think>\n[{"id":"s1"}]')).toEqual(['[{"id":"s1"}]']);
    expect(filtered("<think>hmm</think>\n\n  Blue, \n  or green")).toEqual(["Blue, \n  or green"]);
    expect(filtered("\n  <thinking>plan: [a]</thinking>[]")).toEqual(["[]"]);
  });

  it("passes text without a leading think block unchanged", () => {
    for (const text of ['[{"id":"s1"}]', "<b>bold</b> [1]", "Plan: <think>not leading</think> [1]", "<thin", ""]) {
      expect(filtered(text)).toEqual([text]);
    }
  });

  it("drops everything after an unclosed think block", () => {
    expect(filtered("<think>still thinking [1]")).toEqual([""]);
  });
});

describe("LLMPlanner with a reasoning model", () => {
  it("plans from the answer after the think block, not from brackets in the thought", async () => {
    const answer =
      '<think>I could use [calculator] or {"tool": "x"}… calculator it is.</think>\n[{"id":"s1","tool":"calculator","args":{"expr":"2+2"}},{"id":"s2","reply":"{{s1.value}}"}]';
    const planner = new LLMPlanner({ model: createScriptedModel({ responses: [answer], charsPerToken: 3 }) });
    expect(await planner.plan({ query: "2+2?", tools: mcpTools })).toEqual([
      { id: "s1", type: "tool", name: "calculator", arguments: { expr: "2+2" } },
      { id: "s2", type: "reply", text: "{{s1.value}}" },
    ]);
  });
});
