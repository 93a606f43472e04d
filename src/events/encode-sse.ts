/**
 * One event as a Server-Sent Events message.
 *
 * @module
 */
import { encodeJsonl } from "./encode-jsonl.ts";
import { formatSse } from "./format-sse.ts";
import type { RuntimeEvent } from "./runtime-event.ts";

/**
 * Encodes one event as a Server-Sent Events message: `event:` is the event
 * type, `id:` the given id (so a client can resume with `Last-Event-ID`),
 * and `data:` the event's JSON on one line.
 *
 * @param event - a runtime event.
 * @param id - the message id, e.g. the event's position in the run; omitted when `undefined`.
 * @returns the message, ending in a blank line.
 *
 * @example
 * ```ts
 * encodeSse(event, 3);
 * // 'id: 3\nevent: step-end\ndata: {"type":"step-end",…}\n\n'
 * ```
 */
export function encodeSse(event: RuntimeEvent, id?: string | number): string {
  // encodeJsonl never leaves a raw newline inside the JSON, so the event is one data line.
  return formatSse({ event: event.type, ...(id === undefined ? {} : { id }), data: encodeJsonl(event).slice(0, -1) });
}
