/**
 * The `retry:` hint of an event stream.
 *
 * @module
 */

/**
 * Starts an event stream with a `retry: <ms>` field, which tells an
 * `EventSource` how long to wait before it reconnects; the rest of the
 * body follows unchanged, read only as the client reads, and a client that
 * goes away cancels it.
 *
 * @param body - the event stream.
 * @param retryMs - the reconnection delay.
 * @returns the body with the hint first.
 *
 * @example
 * ```ts
 * return new Response(withRetryHint(stream, 3000), { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export function withRetryHint(body: ReadableStream<Uint8Array>, retryMs: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(`retry: ${Math.round(retryMs)}\n\n`));
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
