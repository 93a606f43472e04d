/**
 * The HTTP response AI SDK UI clients read.
 *
 * @module
 */
import { formatSse } from "../events/format-sse.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import {
  type ToUIMessageStreamOptions,
  toUIMessageStream,
  uiMessageStreamOptionNames,
} from "./to-ui-message-stream.ts";

/** Options of {@link toUIMessageStreamResponse}. */
export interface ToUIMessageStreamResponseOptions extends ToUIMessageStreamOptions {
  /** @defaultValue `200` */
  status?: number;
  /** More headers (the stream's own are set after them). */
  headers?: HeadersInit;
}

/**
 * Answers with a run as an AI SDK UI message stream (see
 * {@link toUIMessageStream}) over Server-Sent Events: one `data:` line per
 * chunk, `data: [DONE]` last, with the `x-vercel-ai-ui-message-stream: v1`
 * header — what `useChat`'s default transport expects from its `api`.
 *
 * @param events - the run's events.
 * @param options - status, headers, the message id, and whether to send every event as a transient data chunk too.
 * @returns the response.
 *
 * @example
 * ```ts
 * export default {
 *   async fetch(request: Request) {
 *     const { messages } = await request.json();
 *     return toUIMessageStreamResponse(runtime.run(fromUIMessages(messages), { signal: request.signal }));
 *   },
 * };
 * ```
 */
export function toUIMessageStreamResponse(
  events: AsyncIterable<RuntimeEvent>,
  options: ToUIMessageStreamResponseOptions = {},
): Response {
  checkOptionKeys(options, ["status", "headers", ...uiMessageStreamOptionNames], "toUIMessageStreamResponse");
  const { status = 200, headers: extra, ...streamOptions } = options;
  const headers = new Headers(extra);
  headers.set("content-type", "text/event-stream; charset=utf-8");
  headers.set("cache-control", "no-cache");
  headers.set("x-vercel-ai-ui-message-stream", "v1");
  headers.set("x-accel-buffering", "no");
  const body = toUIMessageStream(events, streamOptions)
    .pipeThrough(
      new TransformStream<unknown, string>({
        transform(chunk, controller) {
          controller.enqueue(formatSse({ data: JSON.stringify(chunk) }));
        },
        flush(controller) {
          controller.enqueue(formatSse({ data: "[DONE]" }));
        },
      }),
    )
    .pipeThrough(new TextEncoderStream());
  return new Response(body, { status, headers });
}
