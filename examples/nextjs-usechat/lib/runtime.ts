/**
 * The runtime the chat route runs: two tools and, offline, a scripted model.
 * Made once per server process, not per request.
 */
import { AgentRuntime, LLMPlanner, ToolRegistry } from "plankit";
import { createScriptedModel } from "plankit/test";

const heights: Record<string, number> = { everest: 8849, k2: 8611, fuji: 3776, kilimanjaro: 5895 };

const registry = new ToolRegistry()
  .register({
    name: "mountain_height",
    description: "The height of a mountain in metres",
    inputSchema: { type: "object", properties: { mountain: { type: "string" } }, required: ["mountain"] },
    annotations: { readOnlyHint: true },
    execute: ({ mountain }) => {
      const metres = heights[mountain.toLowerCase()];
      if (metres === undefined) throw new Error(`No height known for ${mountain}`);
      return { mountain, metres };
    },
  })
  .register({
    name: "subtract",
    description: "Subtract b from a",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    annotations: { readOnlyHint: true },
    execute: ({ a, b }) => ({ difference: a - b }),
  });

// Offline: a scripted model writes the plan. For a real model pass `fromLanguageModel(openai("gpt-4o-mini"))`
// from plankit/ai to the planner.
const plan = JSON.stringify([
  { id: "s1", tool: "mountain_height", args: { mountain: "Everest" }, description: "Height of Everest" },
  { id: "s2", tool: "mountain_height", args: { mountain: "Fuji" }, description: "Height of Fuji" },
  { id: "s3", tool: "subtract", args: { a: "{{s1.metres}}", b: "{{s2.metres}}" }, description: "The difference" },
  { id: "s4", reply: "Everest is {{s3.difference}} m taller than Fuji." },
]);

export const runtime = new AgentRuntime({
  planner: new LLMPlanner({ model: createScriptedModel({ responses: () => plan }) }),
  registry,
});
