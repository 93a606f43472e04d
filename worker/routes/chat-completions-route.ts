/**
 * `POST /v1/chat/completions`.
 *
 * @module
 */
import { fromChatMessages, toChatCompletionChunks, toChatCompletionStream } from "../../src/openai.ts";
import { createChatCompletionsBodySchema } from "../http/chat-completions-body-schema.ts";
import { encodeChatCompletionJson } from "../http/encode-chat-completion-json.ts";
import { eventStreamHeaders } from "../http/event-stream-headers.ts";
import { findClientTools } from "../http/find-client-tools.ts";
import { HttpProblem } from "../http/http-problem.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { requireTextParts } from "../http/require-text-parts.ts";
import { requireUserMessageLast } from "../http/require-user-message-last.ts";
import { workerDefaults } from "../worker-defaults.ts";
import { startRun } from "./start-run.ts";
import type { WorkerRoute } from "./worker-route.ts";

/**
 * `POST /v1/chat/completions`: the OpenAI Chat Completions API over a
 * run, model `plankit` (any `model` is accepted). The reply is the
 * message's `content`, streamed as it is written; the plan's progress is
 * `reasoning_content`. Streamed (`stream: true`) as `data:` chunks and
 * `data: [DONE]`, with `stream_options.include_usage` adding a last chunk
 * with empty `choices` and the usage; whole otherwise, with usage.
 * A whole completion's body starts at once and carries a space every
 * second until the JSON (see `encodeChatCompletionJson`).
 * `tools`, `tool_choice`, `functions` and `function_call` are refused
 * (400 `unsupported_parameter`, naming the parameter): the run plans with
 * the Worker's tools. Errors come in OpenAI's shape. A client that goes
 * away — streamed or not — aborts the run.
 */
export const chatCompletionsRoute: WorkerRoute = {
  method: "POST",
  path: "/v1/chat/completions",
  errors: "openai",
  body: "chat",
  handle: async (c) => {
    const body = await readJsonBody(
      c.req.raw,
      createChatCompletionsBodySchema(),
      '{"messages":[{"role":"user","content":"…"}]}',
    );
    const clientTools = findClientTools(body);
    if (clientTools !== undefined) {
      throw new HttpProblem(
        400,
        `${clientTools.param} is not supported (got ${clientTools.value}): this API plans with its own tools and cannot hand calls of functions the client defines back; leave ${clientTools.param} out`,
        { code: "unsupported-parameter", param: clientTools.param },
      );
    }
    requireTextParts(body.messages, "content");
    const dialog = requireUserMessageLast(body.messages, fromChatMessages);
    const stream = body.stream === true;
    const { run, stop } = startRun(c, { input: dialog, maxSteps: body.maxSteps, profile: body.profile });
    const chunks = toChatCompletionChunks(run, {
      model: workerDefaults.chatModelId,
      includeUsage: !stream || body.stream_options?.include_usage === true,
    });
    const headers = { "x-plankit-run-id": run.runId };
    if (stream)
      return new Response(toChatCompletionStream(chunks, stop), { headers: { ...eventStreamHeaders, ...headers } });
    return new Response(encodeChatCompletionJson(chunks, stop, workerDefaults.heartbeatMs), {
      headers: {
        ...headers,
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store, no-transform",
        "content-encoding": "identity",
      },
    });
  },
};
