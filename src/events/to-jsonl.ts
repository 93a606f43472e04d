/**
 * A whole event log as JSON Lines.
 *
 * @module
 */
import { encodeJsonl } from "./encode-jsonl.ts";
import type { RuntimeEvent } from "./runtime-event.ts";

/**
 * Encodes events as JSON Lines, one event per line (see `encodeJsonl`).
 *
 * @param events - the events, e.g. collected from `runtime.run(…)`.
 * @returns the log text; empty for no events.
 *
 * @example
 * ```ts
 * const events = [];
 * for await (const event of runtime.run("hi")) events.push(event);
 * const log = toJsonl(events);
 * ```
 */
export function toJsonl(events: Iterable<RuntimeEvent>): string {
  let text = "";
  for (const event of events) text += encodeJsonl(event);
  return text;
}
