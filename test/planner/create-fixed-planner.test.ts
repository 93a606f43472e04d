import { describe, expect, it } from "vitest";
import { AgentRuntime, PlankitError, ToolRegistry } from "../../src/index.ts";
import type { PlannerEvent } from "../../src/runtime.ts";
import { createFixedPlanner } from "../../src/test.ts";

function registry(calls: string[]): ToolRegistry {
  return new ToolRegistry().register([
    {
      name: "add",
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      annotations: { readOnlyHint: true },
      execute: ({ a, b }: { a: number; b: number }) => (calls.push(`add ${a} ${b}`), a + b),
    },
    {
      name: "flaky",
      description: "Fails",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      execute: () => {
        calls.push("flaky");
        throw new Error("down");
      },
    },
  ]);
}

async function events(stream: AsyncIterable<PlannerEvent>): Promise<PlannerEvent[]> {
  const all: PlannerEvent[] = [];
  for await (const event of stream) all.push(event);
  return all;
}

describe("createFixedPlanner", () => {
  it("plans the given steps, validated, and the runtime runs them", async () => {
    const calls: string[] = [];
    const planner = createFixedPlanner([
      { id: "s1", type: "tool", name: "add", args: { a: 2, b: 3 } },
      { id: "s2", type: "reply", text: "2 + 3 = {{s1}}" },
    ]);
    const run = new AgentRuntime({ planner, registry: registry(calls), memory: false }).run("add 2 and 3");
    expect((await run.done).reply?.text).toBe("2 + 3 = 5");
    expect(calls).toEqual(["add 2 3"]);
    expect(planner.requests.map((request) => request.query)).toEqual(["add 2 and 3"]);
  });

  it("reports and drops what a model writing the same plan would have had dropped", async () => {
    const planner = createFixedPlanner([
      { id: "s1", type: "tool", name: "add", args: { a: "two", b: 3 } },
      { id: "s2", type: "tool", name: "subtract", args: {} },
    ]);
    const seen = await events(planner.stream({ query: "q", tools: registry([]) }));
    const issues = seen.flatMap((event) => (event.type === "issue" ? [`${event.issue.code} ${event.issue.path}`] : []));
    expect(issues).toEqual([
      "invalid-argument /steps/0/arguments/a",
      "unknown-tool /steps/1/name",
      "no-reply /steps/1",
    ]);
    expect(seen.at(-1)).toMatchObject({ type: "done", steps: [], clean: false, usage: { modelCalls: 0 } });
  });

  it("takes a function of the request, and answers re-plans with the given patch", async () => {
    const calls: string[] = [];
    const planner = createFixedPlanner(
      (request) => [
        { id: "s1", type: "tool", name: "flaky", args: {} },
        { id: "s2", type: "reply", text: `${request.query}: {{s1}}` },
      ],
      { replan: () => [{ id: "s3", type: "reply", text: "the service is down" }] },
    );
    const run = new AgentRuntime({ planner, registry: registry(calls), memory: false, retries: 0 }).run("status");
    expect((await run.done).reply?.text).toBe("the service is down");
    expect(planner.replans).toHaveLength(1);
    expect(planner.replans[0]?.failed.map((entry) => entry.step.id)).toEqual(["s1"]);
  });

  it("refuses what is not a plan, naming what it got", async () => {
    expect(() => createFixedPlanner("s1" as unknown as [])).toThrow(
      new PlankitError(
        "invalid-options",
        "createFixedPlanner needs an array of steps or a function returning one, got string",
      ),
    );
    const planner = createFixedPlanner(() => null as unknown as []);
    await expect(events(planner.stream({ query: "q", tools: [] }))).rejects.toMatchObject({
      code: "invalid-options",
      message: "The fixed planner's function returned null, not an array of steps",
    });
  });
});
