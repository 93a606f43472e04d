/**
 * A real MCP server over stdio: the "everything" reference server, driven by
 * the MCP SDK client through plankit's public entries. It has read-only
 * tools (`echo`, `get-sum`, `get-structured-content` with an output schema,
 * `get-tiny-image`, `get-resource-reference`, `trigger-long-running-operation`
 * with progress) and a tool that is not (`gzip-file-as-resource`, which
 * creates a resource in the session).
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AgentRuntime,
  LLMPlanner,
  noOpReflector,
  type RunHandle,
  type RuntimeEvent,
  ToolRegistry,
} from "../../src/index.ts";
import { createFixedPlanner, createScriptedModel } from "../../src/test.ts";
import { fromMcpTools } from "../../src/tools.ts";
import { collect, invariantProblems } from "./fake-planner.ts";
import { isAlive, type McpStdioServer, startMcpServer } from "./mcp-stdio-server.ts";

const require = createRequire(import.meta.url);
let server: McpStdioServer;
let tools: Awaited<ReturnType<McpStdioServer["client"]["listTools"]>>;
let registry: ToolRegistry;
/** Called with each progress notification of a call made through {@link registry}. */
let onProgress: (progress: { progress: number; total?: number | undefined }) => void = () => undefined;

beforeAll(async () => {
  // No domain is allowed for http(s) fetches: the tests use data: URLs only.
  server = await startMcpServer(require.resolve("@modelcontextprotocol/server-everything/package.json"), ["stdio"], {
    GZIP_ALLOWED_DOMAINS: "example.invalid",
  });
  tools = await server.client.listTools();
  registry = new ToolRegistry().register(
    fromMcpTools(
      tools,
      server.caller((progress) => onProgress(progress)),
    ),
  );
}, 20_000);

afterAll(async () => {
  const pid = server?.transport.pid;
  await server?.stop();
  if (pid !== null && pid !== undefined) expect(isAlive(pid)).toBe(false);
}, 20_000);

beforeEach(() => {
  server.sent.length = 0;
  server.received.length = 0;
  onProgress = () => undefined;
});

const stepOf = (run: RunHandle, id: string) => run.state.steps.find((step) => step.step.id === id);
const startOf = (events: readonly RuntimeEvent[], id: string): number =>
  events.findIndex((event) => event.type === "step-start" && event.stepId === id);

/** Runs a fixed plan to its end. */
async function runPlan(
  steps: readonly unknown[],
  options: { retries?: number; signal?: AbortSignal } = {},
): Promise<{ run: RunHandle; events: RuntimeEvent[] }> {
  const runtime = new AgentRuntime({
    planner: createFixedPlanner(steps),
    registry,
    memory: false,
    reflector: noOpReflector,
    maxReplans: 0,
    retries: options.retries ?? 0,
    sleep: () => Promise.resolve(),
  });
  const run = runtime.run("use the everything server", options.signal === undefined ? {} : { signal: options.signal });
  const events = await collect(run);
  expect(invariantProblems(events)).toEqual([]);
  return { run, events };
}

describe("the runtime with the real MCP everything server", () => {
  it("lists the tools these tests use, with the annotations they are tested for", () => {
    const byName = new Map(tools.tools.map((tool) => [tool.name, tool]));
    for (const name of [
      "echo",
      "get-sum",
      "get-structured-content",
      "get-tiny-image",
      "get-resource-reference",
      "trigger-long-running-operation",
    ]) {
      expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true);
    }
    expect(byName.get("gzip-file-as-resource")?.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(byName.get("get-structured-content")?.outputSchema?.required).toEqual([
      "temperature",
      "conditions",
      "humidity",
    ]);
  });

  it("references reach into structured content, and the results feed echo and get-sum", async () => {
    const plan = JSON.stringify([
      { id: "s1", type: "tool", name: "get-structured-content", arguments: { location: "Chicago" } },
      { id: "s2", type: "tool", name: "get-sum", arguments: { a: "{{s1.temperature}}", b: "{{s1.humidity}}" } },
      { id: "s3", type: "tool", name: "echo", arguments: { message: "{{s1.conditions}}" } },
      { id: "s4", type: "reply", text: "{{s1.temperature}}°C. {{s2}} {{s3}}" },
    ]);
    const model = createScriptedModel({ responses: [plan], tokensPerSecond: 2_000 });
    const run = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry,
      memory: false,
      reflector: noOpReflector,
      maxReplans: 0,
    }).run("weather sum");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(run.state.reason).toBe("completed");
    expect(stepOf(run, "s1")?.result).toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
    expect(stepOf(run, "s2")?.input).toEqual({ a: 36, b: 82 });
    expect(run.state.reply?.text).toBe("36°C. The sum of 36 and 82 is 118. Echo: Light rain / drizzle");
    // Read-only tools start while the model is still writing the plan.
    expect(startOf(events, "s1")).toBeLessThan(events.findIndex((event) => event.type === "plan-end"));
  }, 20_000);

  it("a reference into a field the output schema does not declare is refused when planned", async () => {
    const { run, events } = await runPlan([
      { id: "s1", type: "tool", name: "get-structured-content", args: { location: "Chicago" } },
      { id: "s2", type: "reply", text: "{{s1.windSpeed}}" },
    ]);
    const issue = events.find((event) => event.type === "step-issue");
    expect(issue?.type === "step-issue" ? issue.issue : undefined).toMatchObject({
      code: "unknown-reference",
      stepId: "s2",
    });
    expect(issue?.type === "step-issue" ? issue.issue.message : "").toContain("windSpeed");
    expect(run.state.reply?.text).not.toContain("{{");
  }, 20_000);

  it("arguments of the wrong type or outside an enum are refused before any call, naming the tool, the path and the value", async () => {
    const { events } = await runPlan([
      { id: "s1", type: "tool", name: "get-sum", args: { a: "2", b: 3 } },
      { id: "s2", type: "tool", name: "get-structured-content", args: { location: "Paris" } },
      { id: "s3", type: "reply", text: "done" },
    ]);
    const issues = events.flatMap((event) => (event.type === "step-issue" ? [event.issue] : []));
    expect(issues.map((issue) => [issue.code, issue.stepId, issue.path])).toEqual([
      ["invalid-argument", "s1", "/steps/0/arguments/a"],
      ["invalid-argument", "s2", "/steps/1/arguments/location"],
    ]);
    expect(issues[0]?.message).toContain("get-sum");
    expect(issues[0]?.message).toContain('"2"');
    expect(issues[1]?.message).toContain("get-structured-content");
    expect(issues[1]?.message).toContain("Paris");
    expect(server.callsOf()).toEqual([]);
  }, 20_000);

  it("a call the server rejects fails its step with the server's message, after the retries a read-only tool is allowed", async () => {
    const { run } = await runPlan(
      [
        { id: "s1", type: "tool", name: "get-resource-reference", args: { resourceType: "Text", resourceId: 1.5 } },
        { id: "s2", type: "reply", text: "{{s1}}" },
      ],
      { retries: 1 },
    );
    const failed = stepOf(run, "s1");
    expect(failed?.status).toBe("failed");
    expect(failed?.error?.code).toBe("tool-error");
    expect(failed?.error?.message).toContain("Invalid resourceId: 1.5");
    expect(server.callsOf("get-resource-reference")).toHaveLength(2);
  }, 20_000);

  it("images, embedded resources and resource links come back as results a reference can reach, without breaking the run", async () => {
    const { run } = await runPlan([
      { id: "s1", type: "tool", name: "get-tiny-image", args: {} },
      { id: "s2", type: "tool", name: "get-resource-reference", args: { resourceType: "Blob", resourceId: 2 } },
      { id: "s3", type: "tool", name: "get-resource-links", args: { count: 2 } },
      {
        id: "s4",
        type: "reply",
        text: "{{s1.content.1.mimeType}} {{s2.content.1.resource.uri}} {{s3.content.1.type}}",
      },
    ]);
    expect(run.state.reason).toBe("completed");
    const image = (stepOf(run, "s1")?.result as { content: { type: string; data?: string }[] }).content;
    expect(image.map((part) => part.type)).toEqual(["text", "image", "text"]);
    expect(atob(image[1]?.data ?? "").startsWith("\x89PNG")).toBe(true);
    const [mimeType, uri, linkType] = (run.state.reply?.text ?? "").split(" ");
    expect(mimeType).toBe("image/png");
    expect(uri).toBe("demo://resource/dynamic/blob/2");
    expect(linkType).toBe("resource_link");
  }, 20_000);

  it("a tool that is not read-only waits for the plan, is never served from a cache and runs once per step", async () => {
    const data = `data:text/plain;base64,${btoa("hello gzip")}`;
    const plan = JSON.stringify([
      { id: "s1", type: "tool", name: "echo", arguments: { message: "first" } },
      {
        id: "s2",
        type: "tool",
        name: "gzip-file-as-resource",
        arguments: { name: "a.gz", data, outputType: "resource" },
      },
      {
        id: "s3",
        type: "tool",
        name: "gzip-file-as-resource",
        arguments: { name: "a.gz", data, outputType: "resource" },
        dependsOn: ["s2"],
      },
      { id: "s4", type: "tool", name: "echo", arguments: { message: "first" }, dependsOn: ["s3"] },
      { id: "s5", type: "reply", text: "{{s3.content.0.resource.mimeType}}" },
    ]);
    const model = createScriptedModel({ responses: [plan], tokensPerSecond: 2_000 });
    const run = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry,
      memory: false,
      reflector: noOpReflector,
      maxReplans: 0,
    }).run("zip it twice");
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(run.state.reason).toBe("completed");
    expect(events.flatMap((event) => (event.type === "step-planned" ? [[event.step.id, event.safe]] : []))).toEqual([
      ["s1", true],
      ["s2", false],
      ["s3", false],
      ["s4", true],
      ["s5", true],
    ]);
    const planEnd = events.findIndex((event) => event.type === "plan-end");
    expect(startOf(events, "s1")).toBeLessThan(planEnd);
    expect(startOf(events, "s2")).toBeGreaterThan(planEnd);
    expect(run.state.reply?.text).toBe("application/gzip");
    expect(server.callsOf("gzip-file-as-resource")).toHaveLength(2);
    // The second echo came after a side effect: it ran again instead of reusing the first.
    expect(stepOf(run, "s4")?.cached).toBe(false);
    expect(server.callsOf("echo")).toHaveLength(2);
  }, 20_000);

  it("aborting the run cancels the long-running call on the server and starts nothing after it", async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    onProgress = ({ progress: done }) => {
      progress.push(done);
      controller.abort("enough");
    };
    const { run, events } = await runPlan(
      [
        { id: "s1", type: "tool", name: "trigger-long-running-operation", args: { duration: 1.2, steps: 4 } },
        { id: "s2", type: "tool", name: "echo", args: { message: "after" }, dependsOn: ["s1"] },
        { id: "s3", type: "reply", text: "{{s2}}" },
      ],
      { signal: controller.signal },
    );
    expect(run.state.reason).toBe("aborted");
    expect(progress).toEqual([1]);
    expect(stepOf(run, "s1")).toMatchObject({ status: "failed", attempts: 1, error: { code: "aborted" } });
    expect(stepOf(run, "s2")?.status).toBe("skipped");
    expect(startOf(events, "s2")).toBe(-1);
    expect(server.callsOf("echo")).toEqual([]);
    // The client told the server: notifications/cancelled for the very request.
    const request = server.sent.find((message) => "method" in message && message.method === "tools/call");
    const requestId = request !== undefined && "id" in request ? request.id : undefined;
    expect(requestId).toBeDefined();
    expect(server.sent).toContainEqual(
      expect.objectContaining({ method: "notifications/cancelled", params: expect.objectContaining({ requestId }) }),
    );
    // The server keeps working through its steps (it does not watch the signal) but never answers the cancelled request.
    const lastProgress = (): boolean =>
      server.received.some(
        (message) =>
          "method" in message &&
          message.method === "notifications/progress" &&
          (message.params as { progress: number }).progress === 4,
      );
    for (let wait = 0; wait < 150 && !lastProgress(); wait++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lastProgress()).toBe(true);
    // A round trip after the server's last step: a response to the cancelled request would have come before this one.
    expect(await server.client.callTool({ name: "echo", arguments: { message: "still here" } })).toMatchObject({
      content: [{ type: "text", text: "Echo: still here" }],
    });
    expect(server.received.filter((message) => "id" in message && message.id === requestId)).toEqual([]);
  }, 20_000);
});
