/**
 * A stream from runtime events to Server-Sent Events.
 *
 * @module
 */
import { encodeSse } from "./encode-sse.ts";
import type { RuntimeEvent } from "./runtime-event.ts";

/**
 * A `TransformStream` from runtime events to Server-Sent Events text. Each
 * message's `id` is the event's 0-based position in the stream (plus
 * `firstId`), so a client can say where to resume.
 *
 * @example
 * ```ts
 * const body = toReadableStream(runtime.run(query))
 *   .pipeThrough(new SseEncoderStream())
 *   .pipeThrough(new TextEncoderStream());
 * return new Response(body, { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export class SseEncoderStream extends TransformStream<RuntimeEvent, string> {
  /**
   * @param firstId - the id of the first message.
   * @defaultValue `firstId`: `0`
   */
  constructor(firstId = 0) {
    let next = firstId;
    super({
      transform(event, controller) {
        controller.enqueue(encodeSse(event, next++));
      },
    });
  }
}
