/**
 * `POST /v1/plan`.
 *
 * @module
 */
import { PlankitError, type PlanStep } from "../../src/index.ts";
import type { PlannerEvent, PlannerProfile } from "../../src/runtime.ts";
import { createRequestPlanner } from "../create-request-planner.ts";
import { abortOnDisconnect } from "../http/abort-on-disconnect.ts";
import { createEventStream } from "../http/create-event-stream.ts";
import { eventStreamHeaders } from "../http/event-stream-headers.ts";
import { keepAlive } from "../http/keep-alive.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { createRequestBodySchema } from "../http/request-body-schema.ts";
import { trackEnd } from "../http/track-end.ts";
import type { WorkerRoute } from "./worker-route.ts";

/** An error reported inside an event stream. */
interface StreamError {
  type: "error";
  code: string;
  message: string;
}

/**
 * Passes planner events through, and when the planner throws, reports the
 * error and still ends with a `done` event (the steps accepted so far,
 * `clean: false`, `finishReason: "error"`), so every plan stream ends with `done`.
 *
 * @param events - the planner's events.
 * @returns the same events, plus `error` and `done` after a failure.
 */
async function* endWithDone(events: AsyncIterable<PlannerEvent>): AsyncGenerator<PlannerEvent | StreamError> {
  const steps: PlanStep[] = [];
  try {
    for await (const event of events) {
      if (event.type === "step") steps.push(event.step);
      yield event;
    }
  } catch (error) {
    yield {
      type: "error",
      code: PlankitError.isInstance(error) ? error.code : "internal-error",
      message: error instanceof Error ? error.message : String(error),
    };
    yield { type: "done", steps, clean: false, finishReason: "error", fallback: false, usage: { modelCalls: 0 } };
  }
}

/**
 * `POST /v1/plan` (`{ query, tools?, maxSteps?, profile? }`): the plan as
 * Server-Sent Events — a `model` event, `step` events (data: the step),
 * `issue`/`repair` events, and `done` last (after an `error` event when
 * the planner failed). A client that goes away aborts the planner's model
 * call.
 */
export const planRoute: WorkerRoute = {
  method: "POST",
  path: "/v1/plan",
  errors: "problem-details",
  body: "api",
  handle: async (c) => {
    const { selected, registry, options } = c.var;
    const body = await readJsonBody(
      c.req.raw,
      createRequestBodySchema(registry.list().map((tool) => tool.name)),
      '{"query":"…"}',
    );
    const { planner, tools } = createRequestPlanner(selected.model, registry, body, options);
    const controller = abortOnDisconnect(c.var.signal);
    const profile = body.profile as PlannerProfile | string | undefined;
    const events = planner.stream({
      query: body.query,
      tools,
      signal: controller.signal,
      ...(profile === undefined ? {} : { profile }),
    });
    // Kept alive until the plan has ended or the client has gone (and the planner is aborted).
    const tracked = trackEnd(endWithDone(events), controller.signal);
    keepAlive(c, tracked.ended);
    const stream = createEventStream<PlannerEvent | StreamError>(tracked.events, {
      first: [{ type: "model", name: selected.name, provider: selected.provider }],
      toData: (event) => (event.type === "step" ? event.step : event),
      onCancel: () => controller.abort(new Error("The client disconnected")),
    });
    return new Response(stream, { headers: eventStreamHeaders });
  },
};
