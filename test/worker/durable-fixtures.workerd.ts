/**
 * What the durable-run suites share: the session object a run logs to, and
 * tools that count their calls.
 *
 * @module
 */
import { env } from "cloudflare:workers";
import { type ToolDefinition, ToolRegistry } from "../../src/index.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";

const bindings = env as unknown as Required<Pick<WorkerEnv, "PLAN_SESSION" | "PLAN_WORKFLOW">>;

/**
 * A session object for the durable run `runId` of the suite `name`, with the
 * run started in its log. Each run gets an object of its own: these runs
 * execute on a stand-in engine, with no Workflow instance, and the object's
 * sweep (every 30 s while a run is open) closes an open run whose instance
 * it cannot find — in a shared object, a run of a suite that outlasts the
 * first sweep would be closed under it.
 */
export async function openSession(name: string, runId: string) {
  const session = bindings.PLAN_SESSION.get(bindings.PLAN_SESSION.idFromName(`${name}:${runId}`));
  await session.startRun({ runId, mode: "durable", query: "q", model: { name: "scripted", provider: "test" } });
  return session;
}

/** Tools that count their calls: `lookup` (read-only, 20 ms), `flaky` (read-only, fails its first `failures` calls), `send` (side effects). */
export function createTools(failures = 0): { registry: ToolRegistry; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const count = (name: string): number => {
    const next = (calls.get(name) ?? 0) + 1;
    calls.set(name, next);
    return next;
  };
  const tools: ToolDefinition[] = [
    {
      name: "lookup",
      description: "Look a thing up",
      inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      annotations: { readOnlyHint: true },
      execute: async ({ q }) => {
        count("lookup");
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { value: `${String(q)}!` };
      },
    },
    {
      name: "flaky",
      description: "Fails at first",
      inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      annotations: { readOnlyHint: true },
      execute: ({ q }) => {
        if (count("flaky") <= failures) throw new Error("the service is busy");
        return { value: `${String(q)}?` };
      },
    },
    {
      name: "send",
      description: "Send a message",
      inputSchema: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
      execute: ({ to }) => {
        count("send");
        return { sent: to };
      },
    },
  ];
  return { registry: new ToolRegistry().register(tools), calls };
}
