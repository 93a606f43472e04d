/**
 * A stream from runtime events to JSON Lines.
 *
 * @module
 */
import { encodeJsonl } from "./encode-jsonl.ts";
import type { RuntimeEvent } from "./runtime-event.ts";

/**
 * A `TransformStream` from runtime events to JSON Lines text, one line per
 * event. Pipe it through a `TextEncoderStream` for bytes.
 *
 * @example
 * ```ts
 * const body = toReadableStream(runtime.run(query))
 *   .pipeThrough(new JsonlEncoderStream())
 *   .pipeThrough(new TextEncoderStream());
 * return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
 * ```
 */
export class JsonlEncoderStream extends TransformStream<RuntimeEvent, string> {
  constructor() {
    super({
      transform(event, controller) {
        controller.enqueue(encodeJsonl(event));
      },
    });
  }
}
