/**
 * A Hono app that plans and runs a request and streams the run's events as
 * Server-Sent Events. The same app serves on Node, Deno and Bun.
 */
import { Hono } from "hono";
import { AgentRuntime, LLMPlanner, ToolRegistry } from "plankit";
import { SseEncoderStream, toReadableStream } from "plankit/events";
import { createScriptedModel } from "plankit/test";

const registry = new ToolRegistry()
  .register({
    name: "add",
    description: "Add two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    annotations: { readOnlyHint: true },
    execute: ({ a, b }) => ({ sum: a + b }),
  })
  .register({
    name: "multiply",
    description: "Multiply two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    annotations: { readOnlyHint: true },
    execute: ({ a, b }) => ({ product: a * b }),
  });

// Offline: a scripted model writes the plan. Swap in any model (`fromLanguageModel` from plankit/ai) for real use.
const plan = JSON.stringify([
  { id: "s1", tool: "multiply", args: { a: 21, b: 2 } },
  { id: "s2", tool: "add", args: { a: "{{s1.product}}", b: 5 } },
  { id: "s3", reply: "21 * 2 + 5 = {{s2.sum}}" },
]);
const model = createScriptedModel({ responses: () => plan });
const runtime = new AgentRuntime({ planner: new LLMPlanner({ model }), registry });

export const app = new Hono();

app.post("/run", async (c) => {
  const body = (await c.req.json().catch(() => null)) as { query?: unknown } | null;
  if (typeof body?.query !== "string" || body.query === "")
    return c.json({ error: "query must be a non-empty string" }, 400);
  const events = toReadableStream(runtime.run(body.query, { signal: c.req.raw.signal }));
  return new Response(events.pipeThrough(new SseEncoderStream()).pipeThrough(new TextEncoderStream()), {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
});
