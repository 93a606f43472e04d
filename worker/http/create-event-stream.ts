/**
 * Server-Sent Events from an async iterable of events.
 *
 * @module
 */
import { formatSse } from "../../src/events.ts";
import { PlankitError } from "../../src/index.ts";

/** Options of {@link createEventStream}. */
export interface EventStreamOptions<E extends { type: string }> {
  /** Events sent before the source's (e.g. which model runs). */
  first?: readonly ({ type: string } & Record<string, unknown>)[];
  /** The `data` of an event; the event itself by default. */
  toData?: (event: E) => unknown;
  /** Called once when the client goes away before the end. */
  onCancel?: (reason: unknown) => void;
}

/**
 * Frames one message: `id`, `event`, `data` (JSON on one line: `JSON.stringify`
 * escapes line breaks), and the blank line that ends it.
 *
 * @param id - the message id.
 * @param type - the event type.
 * @param data - the data.
 * @returns the message text.
 */
function frame(id: number, type: string, data: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(data) ?? "null";
  } catch {
    json = JSON.stringify({ type, error: "the event could not be serialized" });
  }
  return formatSse({ id, event: type, data: json });
}

/**
 * Turns events into a `text/event-stream` body, pulling one event from the
 * source per read so a slow client slows nothing but its own stream. Each
 * message is framed `id: <n>` (0-based, in order), `event: <type>`,
 * `data: <json>`. An error thrown by the source becomes a final `error`
 * event (`{ type, code, message }`). When the client disconnects, the
 * stream is cancelled: `onCancel` runs and the source's iterator is
 * returned, which for a runtime run aborts it.
 *
 * @param source - the events.
 * @param options - events to send first, the data mapping, and the cancel hook.
 * @returns the body stream.
 *
 * @example
 * ```ts
 * const body = createEventStream(runtime.run(query, { signal }), { onCancel: () => controller.abort() });
 * return new Response(body, { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export function createEventStream<E extends { type: string }>(
  source: AsyncIterable<E>,
  options: EventStreamOptions<E> = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let id = 0;
  let iterator: AsyncIterator<E> | undefined;
  let finished = false;
  const encode = (type: string, data: unknown): Uint8Array => encoder.encode(frame(id++, type, data));
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of options.first ?? []) controller.enqueue(encode(event.type, event));
    },
    async pull(controller) {
      iterator ??= source[Symbol.asyncIterator]();
      try {
        const next = await iterator.next();
        if (next.done === true) {
          finished = true;
          controller.close();
          return;
        }
        controller.enqueue(
          encode(next.value.type, options.toData === undefined ? next.value : options.toData(next.value)),
        );
      } catch (error) {
        finished = true;
        const code = PlankitError.isInstance(error) ? error.code : "internal-error";
        const message = error instanceof Error ? error.message : String(error);
        controller.enqueue(encode("error", { type: "error", code, message }));
        controller.close();
      }
    },
    async cancel(reason) {
      if (finished) return;
      finished = true;
      options.onCancel?.(reason);
      await iterator?.return?.();
    },
  });
}
