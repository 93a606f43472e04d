/**
 * `POST /v1/run`.
 *
 * @module
 */
import { createEventStream } from "../http/create-event-stream.ts";
import { eventStreamHeaders } from "../http/event-stream-headers.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { createRequestBodySchema } from "../http/request-body-schema.ts";
import { startRun } from "./start-run.ts";
import type { WorkerRoute } from "./worker-route.ts";

/**
 * `POST /v1/run` (`{ query, tools?, maxSteps?, profile? }`): the run's
 * events as Server-Sent Events, `model` first and `run-end` last, the
 * reply as it is written (`reply-delta`) then whole (`reply`); the run id
 * in `x-plankit-run-id`. A client that goes away aborts the run.
 */
export const runRoute: WorkerRoute = {
  method: "POST",
  path: "/v1/run",
  errors: "problem-details",
  body: "api",
  handle: async (c) => {
    const { selected, registry } = c.var;
    const body = await readJsonBody(
      c.req.raw,
      createRequestBodySchema(registry.list().map((tool) => tool.name)),
      '{"query":"…"}',
    );
    const { run, stop } = startRun(c, {
      input: body.query,
      tools: body.tools,
      maxSteps: body.maxSteps,
      profile: body.profile,
    });
    const stream = createEventStream(run, {
      first: [{ type: "model", name: selected.name, provider: selected.provider }],
      onCancel: stop,
    });
    return new Response(stream, { headers: { ...eventStreamHeaders, "x-plankit-run-id": run.runId } });
  },
};
