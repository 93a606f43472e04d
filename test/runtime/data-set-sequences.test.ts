import { describe, expect, it } from "vitest";
import { AgentRuntime, LLMPlanner, type ToolDefinition, ToolRegistry } from "../../src/index.ts";
import { validatePlan } from "../../src/plan.ts";
import { createScriptedModel } from "../../src/test.ts";
import { normalizeCatalog } from "../../src/tools.ts";
import { collect, invariantProblems } from "./fake-planner.ts";

// A catalog and a gold call sequence written the way NESTFUL writes them:
// parameter maps with required flags, output parameter maps, labels and
// `$var.field$` references, and a closing `var_result` call.
const catalog = [
  {
    name: "find_airport",
    description: "Find the airport of a city",
    query_parameters: { city: { type: "string", required: true, description: "City name" } },
    output_parameters: { code: { type: "string" }, "Entity Id": { type: "str" } },
  },
  {
    name: "search_flights",
    description: "Search flights between two airports on a day",
    query_parameters: {
      origin: { type: "string", required: true },
      destination: { type: "string", required: true },
      date: { type: "DATE (YYYY-MM-DD)", required: true },
      cabin: { type: "string", allowed_values: ["economy", "business"] },
    },
    output_parameters: { price: { type: "float" }, flight: { type: "string" } },
  },
];

const sequence = [
  { name: "find_airport", arguments: { city: "Paris" }, label: "var1" },
  { name: "find_airport", arguments: { city: "Rome" }, label: "var2" },
  {
    name: "search_flights",
    arguments: { origin: "$var1.code$", destination: "$var2.Entity Id$", date: "2025-05-01" },
    label: "var3",
  },
  { name: "var_result", arguments: { price: "$var3.price$", flight: "$var3.flight$" } },
];

describe("function-calling data sets: a NESTFUL sequence over its own catalog", () => {
  it("validates without issues, and a wrong field or a missing argument is named", () => {
    const tools = normalizeCatalog(catalog);
    expect(validatePlan(sequence, tools).issues).toEqual([]);
    const broken: unknown[] = structuredClone(sequence);
    broken[2] = {
      name: "search_flights",
      arguments: { origin: "$var1.iata$", destination: "$var2.code$" },
      label: "var3",
    };
    expect(validatePlan(broken, tools).issues.map((issue) => issue.message)).toEqual([
      'Step "var3" (tool "search_flights"): missing required argument "date" (/steps/2/arguments/date)',
      'Step "var3" references {{var1.iata}}, but the output of tool "find_airport" declares no "iata" (available: code, Entity Id) (/steps/2/arguments/origin)',
      'Step "s4" references step "var3", which is invalid (/steps/3/text)',
      'Step "s4" references step "var3", which is invalid (/steps/3/text)',
    ]);
  });

  it("runs while it streams: references resolve, the airports are looked up in parallel, var_result is the reply", async () => {
    const calls: { name: string; args: Record<string, unknown> }[] = [];
    const behaviour: Record<string, (args: Record<string, unknown>) => unknown> = {
      find_airport: (args) => ({
        code: String(args["city"]).slice(0, 3).toUpperCase(),
        "Entity Id": `e-${String(args["city"])}`,
      }),
      search_flights: (args) => ({
        price: 99.5,
        flight: `${String(args["origin"])}→${String(args["destination"])} on ${String(args["date"])}`,
      }),
    };
    const registry = new ToolRegistry().register(
      normalizeCatalog(catalog).map(
        (descriptor): ToolDefinition => ({
          ...descriptor,
          annotations: { readOnlyHint: true },
          execute: async (args) => {
            calls.push({ name: descriptor.name, args });
            await new Promise((resolve) => setTimeout(resolve, 40));
            return behaviour[descriptor.name]?.(args);
          },
        }),
      ),
    );
    const model = createScriptedModel({ responses: [JSON.stringify(sequence, null, 1)], tokensPerSecond: 4000 });
    const runtime = new AgentRuntime({ planner: new LLMPlanner({ model }), registry, memory: false });
    const run = runtime.run("Fly from Paris to Rome on 1 May 2025: price and flight?");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(run.state.reason).toBe("completed");
    expect(calls).toEqual([
      { name: "find_airport", args: { city: "Paris" } },
      { name: "find_airport", args: { city: "Rome" } },
      { name: "search_flights", args: { origin: "PAR", destination: "e-Rome", date: "2025-05-01" } },
    ]);
    expect(run.state.reply?.text).toBe("price: 99.5\nflight: PAR→e-Rome on 2025-05-01");
    const starts = events.filter((event) => event.type === "step-start").map((event) => event.stepId);
    expect(starts).toEqual(["var1", "var2", "var3", "s4"]);
    // Both lookups were running at once: the second started before the first ended.
    const order = events
      .filter((event) => event.type === "step-start" || event.type === "step-end")
      .map((event) => `${event.type}:${event.stepId}`);
    expect(order.indexOf("step-start:var2")).toBeLessThan(order.indexOf("step-end:var1"));
  });
});

describe("function-calling data sets: a TaskBench task graph over its tool graph", () => {
  const toolGraph = {
    nodes: [
      {
        id: "get_weather",
        desc: "Weather for a place and day",
        parameters: [
          { name: "location", type: "string", desc: "Where" },
          { name: "date", type: "string", desc: "When" },
        ],
      },
      {
        id: "send_message",
        desc: "Send a text message",
        parameters: [
          { name: "to", type: "string" },
          { name: "text", type: "string" },
        ],
      },
    ],
    links: [{ source: "get_weather", target: "send_message" }],
  };

  it("validates with positional arguments named after the tool's parameters and <node-j> references", () => {
    const { steps, issues } = validatePlan(
      {
        task_steps: ["Step 1: get the weather", "Step 2: send it"],
        task_nodes: [
          { task: "get_weather", arguments: ["Paris", "2025-05-01"] },
          {
            task: "send_message",
            arguments: [
              { name: "to", value: "Ada" },
              { name: "text", value: "<node-0>" },
            ],
          },
        ],
        task_links: [{ source: "get_weather", target: "send_message" }],
      },
      normalizeCatalog(toolGraph),
    );
    expect(issues).toEqual([]);
    expect(steps.map((step) => (step.type === "tool" ? [step.name, step.arguments] : [step.type]))).toEqual([
      ["get_weather", { location: "Paris", date: "2025-05-01" }],
      ["send_message", { to: "Ada", text: "{{node-0}}" }],
      ["reply"],
    ]);
  });
});
