/**
 * A real MCP server over stdio: the filesystem server, driven by the MCP SDK
 * client, its tools adapted with `fromMcpTools`.
 */
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { noOpReflector } from "../../src/runtime/no-op-reflector.ts";
import { createSafetyPolicy } from "../../src/runtime/run/safety-policy.ts";
import { fromMcpTools } from "../../src/tools/from-mcp-tools.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { collect, createFakePlanner, invariantProblems } from "./fake-planner.ts";

const require = createRequire(import.meta.url);
const serverEntry = join(
  require.resolve("@modelcontextprotocol/server-filesystem/package.json"),
  "..",
  "dist",
  "index.js",
);

let directory = "";
let client: Client;
let transport: StdioClientTransport;
let registry: ToolRegistry;

beforeAll(async () => {
  directory = await realpath(await mkdtemp(join(tmpdir(), "plankit-mcp-")));
  transport = new StdioClientTransport({ command: process.execPath, args: [serverEntry, directory], stderr: "pipe" });
  client = new Client({ name: "plankit-test", version: "1.0.0" });
  await client.connect(transport);
  const list = await client.listTools();
  registry = new ToolRegistry().register(
    fromMcpTools(list, (name, args, { signal }) =>
      client.callTool({ name, arguments: args }, undefined, signal === undefined ? {} : { signal }),
    ),
  );
}, 20_000);

afterAll(async () => {
  // Closing the client closes the transport, which ends the server process it spawned.
  await client?.close();
  const pid = transport?.pid;
  if (pid !== null && pid !== undefined) {
    try {
      process.kill(pid, 0);
      process.kill(pid);
    } catch {
      // Already gone.
    }
  }
  if (directory !== "") await rm(directory, { recursive: true, force: true });
});

describe("the runtime with a real MCP filesystem server", () => {
  it("a read, an edit and a second read in one plan give the right text", async () => {
    const path = join(directory, "notes.txt");
    await writeFile(path, "hello world\n");
    const steps: PlanStep[] = [
      { id: "s1", type: "tool", name: "read_text_file", arguments: { path } },
      {
        id: "s2",
        type: "tool",
        name: "edit_file",
        arguments: { path, edits: [{ oldText: "world", newText: "MCP" }] },
        dependsOn: ["s1"],
      },
      { id: "s3", type: "tool", name: "read_text_file", arguments: { path }, dependsOn: ["s2"] },
      { id: "s4", type: "reply", text: "Before: {{s1}} After: {{s3}}" },
    ];
    const planner = createFakePlanner({ steps, stepDelayMs: 5, tailDelayMs: 30 });
    const run = new AgentRuntime({ planner, registry, memory: false, reflector: noOpReflector, maxReplans: 0 }).run(
      "edit the notes",
    );
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    expect(run.state.reason).toBe("completed");
    const text = (id: string): string => JSON.stringify(run.state.steps.find((step) => step.step.id === id)?.result);
    expect(text("s1")).toContain("hello world");
    expect(text("s3")).toContain("hello MCP");
    expect(text("s3")).not.toContain("world");
    expect(run.state.steps.find((step) => step.step.id === "s3")?.cached).toBe(false);
    expect(await readFile(path, "utf8")).toBe("hello MCP\n");
    // The edit waited for the plan to end cleanly; the first read did not.
    const planEnd = events.findIndex((event) => event.type === "plan-end");
    const startOf = (id: string): number =>
      events.findIndex((event: RuntimeEvent) => event.type === "step-start" && event.stepId === id);
    expect(startOf("s1")).toBeLessThan(planEnd);
    expect(startOf("s2")).toBeGreaterThan(planEnd);
  }, 20_000);

  it("the server's annotations decide which tools may start early (only the read-only ones), be retried or be cached", () => {
    const policy = createSafetyPolicy({ registry, eager: "safe", retries: 2, timeoutMs: 30_000, tools: {} });
    const decide = (check: (step: PlanStep) => boolean | number): string[] =>
      registry
        .list()
        .map((tool) => tool.name)
        .filter(
          (name) =>
            check({ id: "s1", type: "tool", name, arguments: {} }) !== false &&
            check({ id: "s1", type: "tool", name, arguments: {} }) !== 0,
        )
        .sort();
    const readOnly = [
      "directory_tree",
      "get_file_info",
      "list_allowed_directories",
      "list_directory",
      "list_directory_with_sizes",
      "read_file",
      "read_media_file",
      "read_multiple_files",
      "read_text_file",
      "search_files",
    ];
    expect(decide((step) => policy.mayStartEarly(step))).toEqual(readOnly);
    expect(decide((step) => policy.mayCache(step))).toEqual(readOnly);
    // idempotentHint permits retries (create_directory, write_file), never an early start or a cache entry.
    expect(decide((step) => policy.retriesOf(step))).toEqual([...readOnly, "create_directory", "write_file"].sort());
  });

  it("an idempotent but destructive write, or an idempotent non-destructive create, is not started early and runs every time", async () => {
    const file = join(directory, "out.txt");
    const folder = join(directory, "made");
    const steps: PlanStep[] = [
      { id: "s1", type: "tool", name: "create_directory", arguments: { path: folder } },
      { id: "s2", type: "tool", name: "write_file", arguments: { path: file, content: "one" } },
      { id: "s3", type: "tool", name: "list_directory", arguments: { path: directory } },
      { id: "s4", type: "tool", name: "write_file", arguments: { path: file, content: "one" }, dependsOn: ["s2"] },
      { id: "s5", type: "reply", text: "done" },
    ];
    const planner = createFakePlanner({ steps, stepDelayMs: 5, tailDelayMs: 30 });
    const run = new AgentRuntime({ planner, registry, memory: false, reflector: noOpReflector, maxReplans: 0 }).run(
      "write",
    );
    const events = await collect(run);
    expect(invariantProblems(events)).toEqual([]);
    const planned = events.flatMap((event) => (event.type === "step-planned" ? [[event.step.id, event.safe]] : []));
    expect(planned).toEqual([
      ["s1", false],
      ["s2", false],
      ["s3", true],
      ["s4", false],
      ["s5", true],
    ]);
    const planEnd = events.findIndex((event) => event.type === "plan-end");
    for (const id of ["s1", "s2", "s4"])
      expect(events.findIndex((event) => event.type === "step-start" && event.stepId === id)).toBeGreaterThan(planEnd);
    expect(
      events.filter((event) => event.type === "step-start" && event.stepId === "s4" && !event.cached),
    ).toHaveLength(1);
    expect(run.state.usage.cacheHits).toBe(0);
    expect(await readFile(file, "utf8")).toBe("one");
  }, 20_000);
});
