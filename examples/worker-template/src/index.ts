/**
 * The smallest plankit Worker: `POST /v1/run` with `{ "query": "…" }` plans
 * over two tools and streams the run as Server-Sent Events.
 */
import { AgentRuntime, LLMPlanner, ToolRegistry } from "plankit";
import { SseEncoderStream, toReadableStream } from "plankit/events";
import { createScriptedModel } from "plankit/test";

const registry = new ToolRegistry()
  .register({
    name: "celsius_to_fahrenheit",
    description: "Convert a temperature from degrees Celsius to degrees Fahrenheit",
    inputSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
    annotations: { readOnlyHint: true },
    execute: ({ celsius }) => ({ fahrenheit: (celsius * 9) / 5 + 32 }),
  })
  .register({
    name: "round",
    description: "Round a number to a number of decimal places",
    inputSchema: {
      type: "object",
      properties: { value: { type: "number" }, places: { type: "integer", minimum: 0, maximum: 10 } },
      required: ["value", "places"],
    },
    annotations: { readOnlyHint: true },
    execute: ({ value, places }) => ({ value: Number(value.toFixed(places)) }),
  });

// Offline: a scripted model writes the plan. For a real model use `fromLanguageModel` from plankit/ai,
// e.g. with workers-ai-provider and an `AI` binding.
const plan = JSON.stringify([
  { id: "s1", tool: "celsius_to_fahrenheit", args: { celsius: 36.6 } },
  { id: "s2", tool: "round", args: { value: "{{s1.fahrenheit}}", places: 1 } },
  { id: "s3", reply: "36.6 °C is {{s2.value}} °F" },
]);
const runtime = new AgentRuntime({
  planner: new LLMPlanner({ model: createScriptedModel({ responses: () => plan }) }),
  registry,
});

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname !== "/v1/run") return new Response("Not found", { status: 404 });
    if (request.method !== "POST") return new Response("Use POST", { status: 405, headers: { allow: "POST" } });
    const body = (await request.json().catch(() => null)) as { query?: unknown } | null;
    if (typeof body?.query !== "string" || body.query === "")
      return Response.json({ error: "query must be a non-empty string" }, { status: 400 });
    const events = toReadableStream(runtime.run(body.query, { signal: request.signal }));
    return new Response(events.pipeThrough(new SseEncoderStream()).pipeThrough(new TextEncoderStream()), {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
    });
  },
};
