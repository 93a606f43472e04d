/**
 * One event as a JSON line.
 *
 * @module
 */
import type { RuntimeEvent } from "./runtime-event.ts";

/**
 * Encodes one event as a line of JSON Lines: the event's JSON and `"\n"`.
 * Values JSON cannot hold (functions, `undefined`) are dropped as by
 * `JSON.stringify`; a result that cannot be serialized at all (a cycle, a
 * `BigInt`) is written as its text in `{"unserializable": "…"}` so the log
 * stays readable.
 *
 * @param event - a runtime event.
 * @returns the line, ending in a newline.
 *
 * @example
 * ```ts
 * encodeJsonl({ type: "reply", runId: "r1", t: 12, text: "Hi", source: "step" });
 * // '{"type":"reply","runId":"r1","t":12,"text":"Hi","source":"step"}\n'
 * ```
 */
export function encodeJsonl(event: RuntimeEvent): string {
  return `${stringifyEvent(event)}\n`;
}

/**
 * Serializes an event. When plain `JSON.stringify` throws, a second pass
 * writes `BigInt`s as text and repeated objects (cycles) as `"[Circular]"`.
 *
 * @param event - a runtime event.
 * @returns its JSON, on one line.
 */
function stringifyEvent(event: RuntimeEvent): string {
  try {
    return JSON.stringify(event);
  } catch {
    const seen = new WeakSet<object>();
    return JSON.stringify(event, (_key, value: unknown) => {
      if (typeof value === "bigint") return value.toString();
      if (typeof value === "object" && value !== null) {
        if (seen.has(value)) return "[Circular]";
        seen.add(value);
      }
      return value;
    });
  }
}
