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
 * for the next chunk (or the end). One stream does both this and the
 * prefix, so a body is never wrapped twice. Reads the source only as the client
 * reads; a client that goes away cancels the source with its reason.
 *
 * @param body - the body.
 * @param redactor - the secrets' redactor.
 * @param prefix - text to send first, as it is (an event stream's `retry:` hint).
 * @returns the redacted body.
 *
 * @example
 * ```ts
 * return new Response(redactBody(response.body, createRedactor([env.OPENAI_API_KEY])), response);
 * ```
 */
export function redactBody(body: ReadableStream<Uint8Array>, redactor: Redactor, prefix = ""): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let rest = "";
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (prefix !== "") controller.enqueue(encoder.encode(prefix));
    },
    async pull(controller) {
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          // The source failed (or the client went away): the body fails with it.
          controller.error(error);
          return;
        }
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
