/**
 * A whole Chat Completions response that the client holds from the start.
 *
 * @module
 */
import { type ChatCompletionChunk, collectChatCompletion } from "../../src/openai.ts";

/**
 * A whole (not streamed) completion as a response body that the client
 * holds from the start: while the run goes on, a space is written every
 * `heartbeatMs` (JSON allows whitespace before a value, so clients read
 * the same object), then the `chat.completion` JSON. Writing while the run
 * goes on is how the Worker learns that a client left where the request's
 * signal does not tell it (`wrangler dev`), and keeps idle-timeouts of
 * proxies at bay; a client that goes away cancels the body, which calls
 * `onCancel` (it aborts the run).
 *
 * @param chunks - the chunks.
 * @param onCancel - called once if the client goes away before the end.
 * @param heartbeatMs - how long to wait between spaces.
 * @returns the body.
 */
export function encodeChatCompletionJson(
  chunks: AsyncIterable<ChatCompletionChunk>,
  onCancel: () => void,
  heartbeatMs: number,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let finished = false;
  const completion = collectChatCompletion(chunks).then((value) => ({ value }));
  // A failure is reported by the read that awaits it.
  completion.catch(() => undefined);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let stopTick: () => void = () => undefined;
      const tick = new Promise<undefined>((resolve) => {
        const id = setTimeout(() => resolve(undefined), heartbeatMs);
        stopTick = () => clearTimeout(id);
      });
      const next = await Promise.race([completion, tick]);
      stopTick();
      if (next === undefined) {
        controller.enqueue(encoder.encode(" "));
        return;
      }
      finished = true;
      controller.enqueue(encoder.encode(JSON.stringify(next.value)));
      controller.close();
    },
    cancel() {
      if (finished) return;
      finished = true;
      onCancel();
    },
  });
}
