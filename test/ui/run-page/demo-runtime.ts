/**
 * A runtime for the run-view tests: plankit's scripted model plans, and
 * three tools act: `lookup` (read-only), `fail` (always throws) and
 * `save_note` (needs a person's approval).
 *
 * @module
 */

import type { RuntimeEvent } from "../../../src/index.ts";
import { AgentRuntime, LLMPlanner, ToolRegistry } from "../../../src/index.ts";
import { createScriptedModel } from "../../../src/test.ts";

/** Calls of each tool, with their arguments. */
export type ToolLog = { tool: string; arguments: Record<string, unknown> }[];

/**
 * Creates the runtime, planning `plan` (a JSON array of steps) for every request.
 *
 * @param plan - the steps the model writes.
 * @param log - where tool calls are recorded.
 * @returns the runtime.
 */
export function createDemoRuntime(plan: readonly object[], log: ToolLog = []): AgentRuntime {
  const registry = new ToolRegistry().register([
    {
      name: "lookup",
      description: "Look a fact up",
      inputSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
      annotations: { readOnlyHint: true },
      execute: (input) => {
        log.push({ tool: "lookup", arguments: input });
        return { value: `facts about ${String(input["topic"])}` };
      },
    },
    {
      name: "fail",
      description: "A tool that is down",
      inputSchema: { type: "object", properties: { topic: { type: "string" } } },
      annotations: { readOnlyHint: true },
      execute: (input) => {
        log.push({ tool: "fail", arguments: input });
        throw new Error("the fact service is down (503)");
      },
    },
    {
      name: "save_note",
      description: "Save a note for the user",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: (input) => {
        log.push({ tool: "save_note", arguments: input });
        return { saved: String(input["text"]).length };
      },
    },
  ]);
  const text = JSON.stringify(plan);
  return new AgentRuntime({
    planner: new LLMPlanner({
      model: createScriptedModel({
        responses: { plan: () => text, other: () => "Some of the facts could not be found." },
        charsPerToken: 64,
      }),
      maxSteps: 50,
    }),
    registry,
    memory: false,
    retries: 0,
    maxReplans: 0,
    policy: { save_note: { approval: "plan" } },
  });
}

/**
 * Runs a plan to its end and returns its events.
 *
 * @param plan - the steps.
 * @returns the run's events.
 */
export async function recordRun(plan: readonly object[]): Promise<RuntimeEvent[]> {
  const run = createDemoRuntime(plan).run("Tell me about these topics");
  const events: RuntimeEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** Plans of 3, 12 and 40 steps, and one with a failed step. */
export const plans: Record<"three" | "twelve" | "forty" | "failed", object[]> = {
  three: [
    { id: "s1", tool: "lookup", args: { topic: "Paris" } },
    {
      id: "s2",
      tool: "lookup",
      args: { topic: "Tokyo, a city whose name is long enough to be cut in the box: {{s1.value}}" },
    },
    { id: "s3", reply: "{{s1.value}} and {{s2.value}}" },
  ],
  twelve: [
    ...Array.from({ length: 4 }, (_, index) => ({
      id: `s${index + 1}`,
      tool: "lookup",
      args: { topic: `city ${index + 1}` },
    })),
    ...Array.from({ length: 4 }, (_, index) => ({
      id: `s${index + 5}`,
      tool: "lookup",
      args: { topic: `weather of {{s${index + 1}.value}}` },
    })),
    { id: "s9", tool: "lookup", args: { topic: "{{s5.value}} vs {{s6.value}}" } },
    { id: "s10", tool: "lookup", args: { topic: "{{s7.value}} vs {{s8.value}}" } },
    { id: "s11", tool: "lookup", args: { topic: "{{s9.value}} then {{s10.value}} then {{s1.value}}" } },
    { id: "s12", reply: "{{s11.value}}" },
  ],
  forty: [
    { id: "s1", tool: "lookup", args: { topic: "root" } },
    // A tree: each step uses the one at half its number, and every fifth also the step before it.
    ...Array.from({ length: 38 }, (_, index) => {
      const n = index + 2;
      const parent = Math.floor(n / 2);
      return {
        id: `s${n}`,
        tool: "lookup",
        args: {
          topic: n % 5 === 0 ? `{{s${parent}.value}} + {{s${n - 1}.value}}` : `part ${n} of {{s${parent}.value}}`,
        },
      };
    }),
    { id: "s40", reply: "Done: {{s39.value}} {{s2.value}}" },
  ],
  failed: [
    { id: "s1", tool: "lookup", args: { topic: "Paris" } },
    { id: "s2", tool: "fail", args: { topic: "{{s1.value}}" } },
    { id: "s3", tool: "lookup", args: { topic: "{{s2.value}}" } },
    { id: "s4", reply: "{{s3.value}}" },
  ],
};
