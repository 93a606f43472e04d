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
 * stays readable. `-0` is written `-0`, so parsing the line gives back `-0`.
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
  let lenient = false;
  let text: string;
  const found = { negativeZero: false };
  try {
    // The plain call first: a replacer would slow every event down for the rare -0.
    text = JSON.stringify(event);
    found.negativeZero = holdsNegativeZero(event);
  } catch {
    lenient = true;
    text = JSON.stringify(event, createReplacer(true, found, undefined));
  }
  if (!found.negativeZero) return text;
  // -0 is valid JSON that JSON.parse reads back as -0, but JSON.stringify writes 0: a marker the
  // text does not contain stands in for each -0 in a second pass, then is replaced.
  let marker = "-0~";
  while (text.includes(marker)) marker += "~";
  return JSON.stringify(event, createReplacer(lenient, found, marker))
    .split(`"${marker}"`)
    .join("-0");
}

/**
 * Whether a value that `JSON.stringify` could write (so without cycles)
 * holds a `-0` among its own enumerable values, at any depth.
 *
 * @param value - the value.
 * @returns whether a `-0` is there.
 */
function holdsNegativeZero(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === "number") {
      if (current === 0 && 1 / current < 0) return true;
    } else if (typeof current === "object" && current !== null) {
      if (Array.isArray(current)) for (const item of current) pending.push(item);
      else for (const key of Object.keys(current)) pending.push((current as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/**
 * A fresh replacer for one pass of `JSON.stringify`.
 *
 * @param lenient - write BigInts as text and repeated objects as `"[Circular]"`.
 * @param found - set when a `-0` is met.
 * @param marker - what to write for `-0`, if anything.
 * @returns the replacer.
 */
function createReplacer(
  lenient: boolean,
  found: { negativeZero: boolean },
  marker: string | undefined,
): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>();
  return (_key, value) => {
    if (value === 0 && Object.is(value, -0)) {
      found.negativeZero = true;
      return marker ?? value;
    }
    if (!lenient) return value;
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "object" && value !== null) {
      if (seen.has(value)) return "[Circular]";
      seen.add(value);
    }
    return value;
  };
}
