/**
 * Tools for the runtime suites, with a log of every call.
 *
 * @module
 */
import { type ToolDefinition, ToolRegistry } from "../../src/tools/tool-registry.ts";
import { delay } from "./fake-planner.ts";

/** One tool call as the tool saw it. */
export interface ToolCallRecord {
  name: string;
  args: Record<string, unknown>;
  signal: AbortSignal | undefined;
  callId: string;
  startedAt: number;
  endedAt?: number;
}

/** Options of {@link createTestRegistry}. */
export interface TestRegistryOptions {
  /** Latency of every tool (real ms). */
  latencyMs?: number;
  /** Extra tools. */
  extra?: ToolDefinition[];
}

/**
 * A registry with `lookup` (read-only), `put` (idempotent), `send` (side
 * effects), `remove` (destructive), `combine` (read-only) and `fail` (always throws).
 */
export function createTestRegistry(options: TestRegistryOptions = {}): {
  registry: ToolRegistry;
  calls: ToolCallRecord[];
} {
  const calls: ToolCallRecord[] = [];
  const latency = options.latencyMs ?? 0;
  const run =
    (name: string, result: (args: Record<string, unknown>) => unknown) =>
    async (args: Record<string, unknown>, { signal, callId }: { signal?: AbortSignal | undefined; callId: string }) => {
      const record: ToolCallRecord = { name, args, signal, callId, startedAt: performance.now() };
      calls.push(record);
      if (latency > 0) await delay(latency, signal);
      record.endedAt = performance.now();
      return result(args);
    };
  const registry = new ToolRegistry().register([
    {
      name: "lookup",
      description: "Look something up",
      inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      annotations: { readOnlyHint: true },
      execute: run("lookup", (args) => ({ value: `${String(args["q"])}!` })),
    },
    {
      name: "combine",
      description: "Join values",
      inputSchema: { type: "object", properties: { parts: { type: "array" } }, required: ["parts"] },
      annotations: { readOnlyHint: true },
      execute: run("combine", (args) => ({ text: (args["parts"] as unknown[]).map((part) => String(part)).join("+") })),
    },
    {
      name: "put",
      description: "Store a value under a key",
      inputSchema: { type: "object", properties: { key: { type: "string" }, value: {} }, required: ["key"] },
      annotations: { idempotentHint: true, destructiveHint: false },
      execute: run("put", (args) => ({ stored: args["key"] })),
    },
    {
      name: "send",
      description: "Send a message",
      inputSchema: {
        type: "object",
        properties: { to: { type: "string" }, text: { type: "string" } },
        required: ["to"],
      },
      execute: run("send", (args) => ({ sent: args["to"] })),
    },
    {
      name: "remove",
      description: "Delete a record",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      annotations: { destructiveHint: true, idempotentHint: true },
      execute: run("remove", (args) => ({ removed: args["id"] })),
    },
    {
      name: "fail",
      description: "Always fails",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
      execute: run("fail", () => {
        throw new Error("the service is down");
      }),
    },
    ...(options.extra ?? []),
  ]);
  return { registry, calls };
}

/**
 * A read-only tool named `flaky` that fails its first `failures` calls, then
 * answers `{ ok: true, args }`.
 */
export function createFlakyTool(failures: number) {
  let calls = 0;
  return {
    name: "flaky",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
    execute: (args: Record<string, unknown>) => {
      calls++;
      if (calls <= failures) throw new Error(`failure ${calls}`);
      return { ok: true, args };
    },
  };
}
