/**
 * Reading an event log back.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { RuntimeEvent } from "./runtime-event.ts";

/**
 * Parses a JSON Lines event log. Blank lines are ignored.
 *
 * @param text - the log, as written by `toJsonl` or a `JsonlEncoderStream`.
 * @returns the events, in order.
 * @throws PlankitError `json-syntax` naming the line that is not JSON or not an event object.
 *
 * @example
 * ```ts
 * const state = replay(parseJsonl(log));
 * ```
 */
export function parseJsonl(text: string): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  const lines = text.split(/\r?\n/u);
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new PlankitError("json-syntax", `Line ${index + 1} of the event log is not JSON: ${String(error)}`, {
        cause: error,
      });
    }
    if (typeof value !== "object" || value === null || typeof (value as { type?: unknown }).type !== "string") {
      throw new PlankitError("json-syntax", `Line ${index + 1} of the event log is not an event object`);
    }
    events.push(value as RuntimeEvent);
  });
  return events;
}
