/**
 * Chat Completions responses from chunks: streamed, or collected.
 *
 * @module
 */
import type { ChatCompletionChunk } from "../../src/openai.ts";

/**
 * Frames chunks as the Chat Completions stream: `data: <json>` per chunk,
 * `data: [DONE]` last.
 *
 * When the client goes away, `onCancel` runs (it aborts the run) and the
 * chunks' iterator is returned.
 *
 * @param chunks - the chunks.
 * @param onCancel - called once if the client goes away before the end.
 * @returns the body.
 */
export function encodeChatCompletionStream(chunks: AsyncIterable<ChatCompletionChunk>, onCancel?: () => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  let finished = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done === true) {
        finished = true;
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      } else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel() {
      if (finished) return;
      finished = true;
      onCancel?.();
      await iterator.return?.();
    },
  });
}

/**
 * Collects chunks into one `chat.completion` object, as a request without
 * `stream` gets it: the content and the reasoning joined, the last finish
 * reason, and the usage (from the chunk that carries it, whose `choices`
 * is empty).
 *
 * @param chunks - the chunks.
 * @returns the completion.
 */
async function collectChatCompletion(chunks: AsyncIterable<ChatCompletionChunk>): Promise<Record<string, unknown>> {
  let first: ChatCompletionChunk | undefined;
  let content = "";
  let reasoning = "";
  let finish: string | null = null;
  let usage: ChatCompletionChunk["usage"];
  for await (const chunk of chunks) {
    first ??= chunk;
    const choice = chunk.choices[0];
    content += choice?.delta.content ?? "";
    reasoning += choice?.delta.reasoning_content ?? "";
    finish = choice?.finish_reason ?? finish;
    usage = chunk.usage ?? usage;
  }
  const message: Record<string, unknown> = { role: "assistant", content };
  if (reasoning !== "") message["reasoning_content"] = reasoning;
  return {
    id: first?.id ?? "chatcmpl",
    object: "chat.completion",
    created: first?.created ?? Math.floor(Date.now() / 1000),
    model: first?.model ?? "plankit",
    choices: [{ index: 0, message, finish_reason: finish ?? "stop" }],
    ...(usage === undefined ? {} : { usage }),
  };
}

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
export function encodeChatCompletionJson(chunks: AsyncIterable<ChatCompletionChunk>, onCancel: () => void, heartbeatMs: number): ReadableStream<Uint8Array> {
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
