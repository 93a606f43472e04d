/**
 * A real MCP server over stdio: the knowledge-graph memory server, driven
 * by the MCP SDK client through plankit's public entries. Its reads
 * (`read_graph`, `search_nodes`, `open_nodes`) are declared read-only; its
 * writes (`create_entities`, `add_observations`, `delete_*`) are not, and
 * `create_entities` / `add_observations` are not idempotent either.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AgentRuntime,
  createMemoryCache,
  LLMPlanner,
  noOpReflector,
  type PlanStep,
  type RunHandle,
  type RuntimeEvent,
  ToolRegistry,
} from "../../src/index.ts";
import { createFixedPlanner, createScriptedModel } from "../../src/test.ts";
import { fromMcpTools } from "../../src/tools.ts";
import { collect, invariantProblems } from "./fake-planner.ts";
import { isAlive, type McpStdioServer, startMcpServer } from "./mcp-stdio-server.ts";

let directory = "";
const require = createRequire(import.meta.url);
let server: McpStdioServer;
let tools: Awaited<ReturnType<McpStdioServer["client"]["listTools"]>>;
let registry: ToolRegistry;

beforeAll(async () => {
  directory = await realpath(await mkdtemp(join(tmpdir(), "plankit-mcp-memory-")));
  server = await startMcpServer(require.resolve("@modelcontextprotocol/server-memory/package.json"), [], {
    MEMORY_FILE_PATH: join(directory, "memory.jsonl"),
  });
  tools = await server.client.listTools();
  registry = new ToolRegistry().register(fromMcpTools(tools, server.caller()));
}, 20_000);

afterAll(async () => {
  const pid = server?.transport.pid;
  await server?.stop();
  if (pid !== null && pid !== undefined) expect(isAlive(pid)).toBe(false);
  if (directory !== "") await rm(directory, { recursive: true, force: true });
}, 20_000);

/** Empties the graph through the server itself, and forgets what was sent. */
beforeEach(async () => {
  const graph = (await server.client.callTool({ name: "read_graph", arguments: {} })).structuredContent as {
    entities: { name: string }[];
  };
  if (graph.entities.length > 0)
    await server.client.callTool({
      name: "delete_entities",
      arguments: { entityNames: graph.entities.map((entity) => entity.name) },
    });
  server.sent.length = 0;
});

const ada = { name: "Ada", entityType: "person", observations: ["wrote the first program"] };
const names = (value: unknown): string[] =>
  (value as { entities: { name: string }[] }).entities.map((entity) => entity.name);
const stepOf = (run: RunHandle, id: string) => run.state.steps.find((step) => step.step.id === id);
const startOf = (events: readonly RuntimeEvent[], id: string): number =>
  events.findIndex((event) => event.type === "step-start" && event.stepId === id);
const planned = (events: readonly RuntimeEvent[]): [string, boolean][] =>
  events.flatMap((event): [string, boolean][] => (event.type === "step-planned" ? [[event.step.id, event.safe]] : []));

/** Runs a fixed plan to its end. */
async function runPlan(
  steps: readonly unknown[],
  options: {
    registry?: ToolRegistry;
    cache?: ReturnType<typeof createMemoryCache>;
    replan?: (failed: string) => PlanStep[];
  } = {},
): Promise<{ run: RunHandle; events: RuntimeEvent[] }> {
  const replan = options.replan;
  const planner = createFixedPlanner(
    steps,
    replan === undefined
      ? {}
      : { replan: (request) => replan(request.failed.map((failure) => failure.step.id).join(",")) },
  );
  const runtime = new AgentRuntime({
    planner,
    registry: options.registry ?? registry,
    memory: false,
    reflector: noOpReflector,
    maxReplans: replan === undefined ? 0 : 1,
    ...(options.cache === undefined ? {} : { cache: options.cache }),
  });
  const run = runtime.run("remember things");
  const events = await collect(run);
  expect(invariantProblems(events)).toEqual([]);
  return { run, events };
}

describe("the runtime with a real MCP memory server", () => {
  it("reads the annotations the server declares: reads are read-only, writes are not", () => {
    const declared = Object.fromEntries(tools.tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint]));
    expect(declared).toEqual({
      create_entities: false,
      create_relations: false,
      add_observations: false,
      delete_entities: false,
      delete_observations: false,
      delete_relations: false,
      read_graph: true,
      search_nodes: true,
      open_nodes: true,
    });
    expect(registry.get("create_entities")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
  });

  it("a streamed plan starts the graph read while the model writes and the writes only after the plan ended cleanly, each once", async () => {
    const plan = JSON.stringify([
      { id: "s1", type: "tool", name: "read_graph", arguments: {} },
      { id: "s2", type: "tool", name: "create_entities", arguments: { entities: [ada] } },
      {
        id: "s3",
        type: "tool",
        name: "add_observations",
        arguments: { observations: [{ entityName: "Ada", contents: ["loved engines"] }] },
        dependsOn: ["s2"],
      },
      { id: "s4", type: "tool", name: "open_nodes", arguments: { names: ["Ada"] }, dependsOn: ["s3"] },
      { id: "s5", type: "tool", name: "delete_entities", arguments: { entityNames: ["Ada"] }, dependsOn: ["s4"] },
      { id: "s6", type: "tool", name: "read_graph", arguments: {}, dependsOn: ["s5"] },
      {
        id: "s7",
        type: "reply",
        text: "Before: {{s1.entities}}. Ada: {{s4.entities.0.observations}}. After: {{s6.entities}}",
      },
    ]);
    const model = createScriptedModel({ responses: [plan], tokensPerSecond: 2_000 });
    const run = new AgentRuntime({
      planner: new LLMPlanner({ model, maxSteps: 10 }),
      registry,
      memory: false,
      reflector: noOpReflector,
      maxReplans: 0,
    }).run("remember Ada");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(run.state.reason).toBe("completed");
    expect(planned(events)).toEqual([
      ["s1", true],
      ["s2", false],
      ["s3", false],
      ["s4", true],
      ["s5", false],
      ["s6", true],
      ["s7", true],
    ]);
    const planEnd = events.findIndex((event) => event.type === "plan-end");
    expect(startOf(events, "s1")).toBeLessThan(planEnd);
    for (const id of ["s2", "s3", "s5"]) expect(startOf(events, id)).toBeGreaterThan(planEnd);
    expect(run.state.reply?.text).toBe('Before: []. Ada: ["wrote the first program","loved engines"]. After: []');
    // The second graph read came after the writes: read again, not reused from s1.
    expect(stepOf(run, "s6")?.cached).toBe(false);
    expect(server.callsOf("read_graph")).toHaveLength(2);
    expect(server.callsOf("create_entities")).toHaveLength(1);
    expect(server.callsOf("add_observations")).toHaveLength(1);
    expect(server.callsOf("delete_entities")).toHaveLength(1);
  }, 20_000);

  it("the same tools listed without annotations get MCP's cautious defaults: nothing starts early, nothing is cached", async () => {
    const bare = fromMcpTools(
      { tools: tools.tools.map(({ annotations: _annotations, ...tool }) => tool) },
      server.caller(),
    );
    const bareRegistry = new ToolRegistry().register(bare);
    expect(bareRegistry.get("read_graph")?.annotations).toBeUndefined();
    const steps = [
      { id: "s1", type: "tool", name: "read_graph", args: {} },
      { id: "s2", type: "tool", name: "read_graph", args: {}, dependsOn: ["s1"] },
      { id: "s3", type: "reply", text: "{{s2.entities}}" },
    ];
    const declared = await runPlan(steps);
    expect(planned(declared.events)).toEqual([
      ["s1", true],
      ["s2", true],
      ["s3", true],
    ]);
    expect(stepOf(declared.run, "s2")?.cached).toBe(true);
    expect(server.callsOf("read_graph")).toHaveLength(1);

    server.sent.length = 0;
    const undeclared = await runPlan(steps, { registry: bareRegistry });
    expect(undeclared.run.state.reason).toBe("completed");
    expect(planned(undeclared.events)).toEqual([
      ["s1", false],
      ["s2", false],
      ["s3", true],
    ]);
    const planEnd = undeclared.events.findIndex((event) => event.type === "plan-end");
    expect(startOf(undeclared.events, "s1")).toBeGreaterThan(planEnd);
    expect(stepOf(undeclared.run, "s2")?.cached).toBe(false);
    expect(undeclared.run.state.usage.cacheHits).toBe(0);
    expect(server.callsOf("read_graph")).toHaveLength(2);
  }, 20_000);

  it("a read after a write in the same run is not served from the earlier read", async () => {
    const { run } = await runPlan([
      { id: "s1", type: "tool", name: "read_graph", args: {} },
      { id: "s2", type: "tool", name: "create_entities", args: { entities: [ada] }, dependsOn: ["s1"] },
      { id: "s3", type: "tool", name: "read_graph", args: {}, dependsOn: ["s2"] },
      { id: "s4", type: "reply", text: "done" },
    ]);
    expect(run.state.reason).toBe("completed");
    expect(names(stepOf(run, "s1")?.result)).toEqual([]);
    expect(names(stepOf(run, "s3")?.result)).toEqual(["Ada"]);
    expect(stepOf(run, "s3")?.cached).toBe(false);
    expect(server.callsOf("read_graph")).toHaveLength(2);
  }, 20_000);

  it("a cache shared across runs never serves a read older than a write a later run made", async () => {
    const cache = createMemoryCache({ ttlMs: 60_000 });
    const reads = [
      { id: "r1", type: "tool", name: "read_graph", args: {} },
      { id: "r2", type: "tool", name: "search_nodes", args: { query: "Ada" } },
      { id: "r3", type: "reply", text: "done" },
    ];
    const first = await runPlan(reads, { cache });
    expect(names(stepOf(first.run, "r1")?.result)).toEqual([]);
    expect(names(stepOf(first.run, "r2")?.result)).toEqual([]);

    // Run 2 writes, then reads the graph: its read sees its write.
    const second = await runPlan(
      [
        { id: "w1", type: "tool", name: "create_entities", args: { entities: [ada] } },
        { id: "w2", type: "tool", name: "read_graph", args: {}, dependsOn: ["w1"] },
        { id: "w3", type: "reply", text: "done" },
      ],
      { cache },
    );
    expect(names(stepOf(second.run, "w2")?.result)).toEqual(["Ada"]);
    expect(stepOf(second.run, "w2")?.cached).toBe(false);

    // Run 3 only reads: neither read may be run 1's answer from before the write.
    server.sent.length = 0;
    const third = await runPlan(reads, { cache });
    expect(names(stepOf(third.run, "r1")?.result)).toEqual(["Ada"]);
    expect(names(stepOf(third.run, "r2")?.result)).toEqual(["Ada"]);
    expect(server.callsOf("search_nodes")).toHaveLength(1);

    // With no write since, run 4 is served from the shared cache.
    server.sent.length = 0;
    const fourth = await runPlan(reads, { cache });
    expect(stepOf(fourth.run, "r1")?.cached).toBe(true);
    expect(stepOf(fourth.run, "r2")?.cached).toBe(true);
    expect(names(stepOf(fourth.run, "r2")?.result)).toEqual(["Ada"]);
    expect(server.callsOf()).toEqual([]);
  }, 20_000);

  it("writes are never served from a cache: the same write in two runs reaches the server twice", async () => {
    const cache = createMemoryCache({ ttlMs: 60_000 });
    const steps = [
      {
        id: "s1",
        type: "tool",
        name: "add_observations",
        args: { observations: [{ entityName: "Ada", contents: ["counted"] }] },
      },
      { id: "s2", type: "reply", text: "{{s1.results.0.addedObservations}}" },
    ];
    await server.client.callTool({ name: "create_entities", arguments: { entities: [ada] } });
    server.sent.length = 0;
    // An entry under the write's key (the documented "<tool> <canonical JSON>"), as another runtime or the application could leave: never used for a write.
    cache.set('add_observations {"observations":[{"contents":["counted"],"entityName":"Ada"}]}', {
      results: [{ entityName: "Ada", addedObservations: ["from the cache"] }],
    });
    const first = await runPlan(steps, { cache });
    const second = await runPlan(steps, { cache });
    expect(first.run.state.reply?.text).toBe('["counted"]');
    // The server ignores an observation the entity already has: the second call really ran.
    expect(second.run.state.reply?.text).toBe("[]");
    expect(stepOf(second.run, "s1")?.cached).toBe(false);
    expect(server.callsOf("add_observations")).toHaveLength(2);
    expect(second.run.state.usage.cacheHits).toBe(0);
  }, 20_000);

  it("a write the server rejects fails its step with the server's message, is not retried, and the re-plan never re-runs the completed write", async () => {
    const { run, events } = await runPlan(
      [
        { id: "s1", type: "tool", name: "create_entities", args: { entities: [ada] } },
        // The plan asks for retries; a non-idempotent write gets none, whatever the plan says.
        {
          id: "s2",
          type: "tool",
          name: "add_observations",
          args: { observations: [{ entityName: "Grace", contents: ["admiral"] }] },
          dependsOn: ["s1"],
          retries: 3,
        },
        { id: "s3", type: "reply", text: "{{s2}}" },
      ],
      {
        replan: (failed) => {
          expect(failed).toBe("s2");
          return [
            {
              id: "s4",
              type: "tool",
              name: "add_observations",
              arguments: { observations: [{ entityName: "Ada", contents: ["admiral's friend"] }] },
            },
            { id: "s5", type: "reply", text: "Added {{s4.results.0.addedObservations.0}}" },
          ];
        },
      },
    );
    const failure = events.find((event) => event.type === "step-error" && event.stepId === "s2");
    expect(failure).toMatchObject({ final: true, error: { code: "tool-error" } });
    expect(failure?.type === "step-error" ? failure.error.message : "").toContain(
      'Tool "add_observations" reported an error: Entity with name Grace not found',
    );
    expect(run.state.replans).toBe(1);
    expect(run.state.reason).toBe("completed");
    expect(run.state.reply?.text).toBe("Added admiral's friend");
    expect(server.callsOf("create_entities")).toHaveLength(1);
    expect(
      server
        .callsOf("add_observations")
        .map((args) => (args["observations"] as { entityName: string }[])[0]?.entityName),
    ).toEqual(["Grace", "Ada"]);
  }, 20_000);

  it("a planned argument of the wrong type is refused before the call, naming the tool, the path and the value", async () => {
    const { run, events } = await runPlan([
      {
        id: "s1",
        type: "tool",
        name: "create_entities",
        args: { entities: [{ name: "Ada", entityType: "person", observations: "wrote programs" }] },
      },
      { id: "s2", type: "reply", text: "done" },
    ]);
    const issue = events.find((event) => event.type === "step-issue");
    expect(issue?.type === "step-issue" ? issue.issue : undefined).toMatchObject({
      code: "invalid-argument",
      stepId: "s1",
      path: "/steps/0/arguments/entities/0/observations",
    });
    const message = issue?.type === "step-issue" ? issue.issue.message : "";
    expect(message).toContain("create_entities");
    expect(message).toContain("wrote programs");
    expect(run.state.steps.map((step) => step.step.id)).not.toContain("s1");
    expect(server.callsOf("create_entities")).toEqual([]);
  }, 20_000);

  it("a model's argument of the wrong type is shown back to it with the tool, path and value, and only the repaired call reaches the server", async () => {
    const wrong = JSON.stringify([
      {
        id: "s1",
        type: "tool",
        name: "create_entities",
        arguments: { entities: [{ name: "Ada", entityType: "person", observations: "wrote programs" }] },
      },
      { id: "s2", type: "reply", text: "Saved {{s1.entities.0.name}}" },
    ]);
    const repaired = JSON.stringify([
      {
        id: "s1",
        type: "tool",
        name: "create_entities",
        arguments: { entities: [{ name: "Ada", entityType: "person", observations: ["wrote programs"] }] },
      },
      { id: "s2", type: "reply", text: "Saved {{s1.entities.0.name}}" },
    ]);
    const model = createScriptedModel({ responses: { plan: [wrong], repair: [repaired] } });
    const run = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry,
      memory: false,
      reflector: noOpReflector,
      maxReplans: 0,
    }).run("remember Ada");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    const repairPrompt = JSON.stringify(model.requests[1]);
    expect(model.requests[1]?.purpose).toBe("repair");
    expect(repairPrompt).toContain("create_entities");
    expect(repairPrompt).toContain("/steps/0/arguments/entities/0/observations");
    expect(repairPrompt).toContain("wrote programs");
    expect(run.state.reason).toBe("completed");
    expect(run.state.reply?.text).toBe("Saved Ada");
    expect(server.callsOf("create_entities")).toEqual([
      { entities: [{ name: "Ada", entityType: "person", observations: ["wrote programs"] }] },
    ]);
  }, 20_000);

  it("an argument that resolves to the wrong type at run time is refused before the call, naming the tool, the path and the value", async () => {
    const { run } = await runPlan([
      { id: "s1", type: "tool", name: "create_entities", args: { entities: [ada] } },
      // One observation (a string) where the tool takes a list of them.
      {
        id: "s2",
        type: "tool",
        name: "add_observations",
        args: { observations: [{ entityName: "Ada", contents: "{{s1.entities.0.observations.0}}" }] },
      },
      { id: "s3", type: "reply", text: "{{s2}}" },
    ]);
    const failed = stepOf(run, "s2");
    expect(failed?.status).toBe("failed");
    expect(failed?.error?.code).toBe("invalid-argument");
    expect(failed?.error?.message).toContain('Tool "add_observations"');
    expect(failed?.error?.message).toContain("/observations/0/contents");
    expect(failed?.error?.message).toContain("wrote the first program");
    expect(server.callsOf("add_observations")).toEqual([]);
  }, 20_000);
});
