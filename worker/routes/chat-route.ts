/**
 * `POST /v1/chat`.
 *
 * @module
 */
import { createChatBodySchema } from "../http/chat-body-schema.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { requireTextParts } from "../http/require-text-parts.ts";
import { requireUserMessageLast } from "../http/require-user-message-last.ts";
import { startRun } from "./start-run.ts";
import type { WorkerRoute } from "./worker-route.ts";

/**
 * `POST /v1/chat`: the AI SDK UI message stream of a run, for `useChat`
 * (body: its transport's `messages`, `id`, `trigger`, `messageId`, plus
 * `tools`, `maxSteps`, `profile`), the reply as a text part written as
 * the run writes it. A client that goes away aborts the run. `plankit/ai`
 * loads with the first request: the Worker starts without the AI SDK, which
 * that entry also holds.
 */
export const chatRoute: WorkerRoute = {
  method: "POST",
  path: "/v1/chat",
  errors: "problem-details",
  body: "chat",
  handle: async (c) => {
    const { fromUIMessages, toUIMessageStreamResponse } = await import("../../src/ai.ts");
    const body = await readJsonBody(
      c.req.raw,
      createChatBodySchema(c.var.registry.list().map((tool) => tool.name)),
      '{"messages":[…]}',
    );
    requireTextParts(body.messages, "parts");
    const dialog = requireUserMessageLast(body.messages, fromUIMessages);
    const { run, stop } = startRun(c, {
      input: dialog,
      tools: body.tools,
      maxSteps: body.maxSteps,
      profile: body.profile,
    });
    const response = toUIMessageStreamResponse(run, { headers: { "x-plankit-run-id": run.runId } });
    const source = response.body as ReadableStream<Uint8Array>;
    const reader = source.getReader();
    let finished = false;
    // Cancelling the UI message stream stops reading the run; the run itself is aborted here.
    const passed = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read();
        if (next.done) {
          finished = true;
          controller.close();
        } else controller.enqueue(next.value);
      },
      async cancel(reason) {
        if (!finished) stop();
        finished = true;
        await reader.cancel(reason);
      },
    });
    return new Response(passed, { status: response.status, headers: response.headers });
  },
};
