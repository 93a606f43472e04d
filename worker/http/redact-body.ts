/**
 * Redacting a response body as it streams.
 *
 * @module
 */
import type { Redactor } from "./redact-secrets.ts";

/**
 * Passes a body through `redactor`, chunk by chunk, so that no secret
 * reaches the client, even one split across chunks: a chunk's text is
 * sent at once except for a tail that could begin a secret, which waits
 * for the next chunk (or the end). Reads the source only as the client
 * reads; a client that goes away cancels the source with its reason.
 *
 * @param body - the body.
 * @param redactor - the secrets' redactor.
 * @returns the redacted body.
 *
 * @example
 * ```ts
 * return new Response(redactBody(response.body, createRedactor([env.OPENAI_API_KEY])), response);
 * ```
 */
export function redactBody(body: ReadableStream<Uint8Array>, redactor: Redactor): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let rest = "";
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const next = await reader.read();
        if (next.done) {
          const tail = redactor(rest + decoder.decode());
          if (tail !== "") controller.enqueue(encoder.encode(tail));
          controller.close();
          return;
        }
        const part = redactor.partial(rest + decoder.decode(next.value, { stream: true }));
        rest = part.rest;
        if (part.done !== "") {
          controller.enqueue(encoder.encode(part.done));
          return;
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
