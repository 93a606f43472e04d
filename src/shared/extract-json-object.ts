/**
 * Lenient extraction of a JSON object from model text.
 *
 * @module
 */
import { isRecord } from "./is-record.ts";

const maxScannedLength = 100_000;

function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return index;
  }
  return -1;
}

/**
 * Finds the first JSON object in model text that may wrap it in prose or
 * code fences. Candidates are balanced `{…}` spans (braces inside strings are
 * skipped), tried left to right with `JSON.parse`; the first object having
 * `preferKey` wins, else the first object at all.
 *
 * @param text - the model's text; only the first 100 000 characters are scanned.
 * @param preferKey - a key the wanted object has (e.g. `"action"`).
 * @returns the object, or `undefined` when the text holds none.
 * @example
 * ```ts
 * extractJsonObject('Sure:\n```json\n{"action":"respond","reason":"greeting"}\n```', "action");
 * ```
 */
export function extractJsonObject(text: string, preferKey?: string): Record<string, unknown> | undefined {
  const scanned = text.length > maxScannedLength ? text.slice(0, maxScannedLength) : text;
  let first: Record<string, unknown> | undefined;
  let from = 0;
  for (;;) {
    const start = scanned.indexOf("{", from);
    if (start === -1) return first;
    const end = closingBrace(scanned, start);
    if (end === -1) return first;
    let parsed: unknown;
    try {
      parsed = JSON.parse(scanned.slice(start, end + 1));
    } catch {
      from = start + 1;
      continue;
    }
    if (isRecord(parsed)) {
      const object = parsed as Record<string, unknown>;
      if (preferKey === undefined || Object.prototype.hasOwnProperty.call(object, preferKey)) return object;
      first ??= object;
    }
    from = end + 1;
  }
}
