/**
 * Chat Completions chunks as the streamed response body.
 *
 * @module
 */
import { formatSse } from "../events/format-sse.ts";
import type { ChatCompletionChunk } from "./to-chat-completion-chunks.ts";

/**
 * Frames chunks as a streamed Chat Completions body, as OpenAI's clients
 * read it: one `data: <json>` message per chunk, then `data: [DONE]`. When
 * the client goes away, `onCancel` runs (abort the run there) and the
 * chunks' iterator is closed.
 *
 * @param chunks - the chunks (see `toChatCompletionChunks`).
 * @param onCancel - called once if the client goes away before the end.
 * @returns the body, UTF-8.
 *
 * @example
 * ```ts
 * const body = toChatCompletionStream(toChatCompletionChunks(run, { model: "plankit" }), () => run.abort());
 * return new Response(body, { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export function toChatCompletionStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  onCancel?: () => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  let finished = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done === true) {
        finished = true;
        controller.enqueue(encoder.encode(formatSse({ data: "[DONE]" })));
        controller.close();
      } else controller.enqueue(encoder.encode(formatSse({ data: JSON.stringify(next.value) })));
    },
    async cancel() {
      if (finished) return;
      finished = true;
      onCancel?.();
      await iterator.return?.();
    },
  });
}
