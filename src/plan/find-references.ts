/**
 * Locating `{{id.path}}` references inside JSON values.
 *
 * @module
 */

/** One reference found in a value. */
export interface FoundReference {
  /** The referenced step id (or `"context"` for run-context references). */
  id: string;
  /** The path into the referenced value; numeric segments index arrays. */
  path: string[];
  /** A JSON Pointer, below the pointer passed in, to the string holding the reference. */
  pointer: string;
  /** Whether the string is exactly this one reference (so it takes the value's JSON type). */
  exact: boolean;
  /** The reference as written, braces included. */
  source: string;
  /** Where `source` starts in its string. */
  start: number;
}

/** A path segment: no dots, braces or brackets; spaces only inside (`Exchange Rate`). */
const segment = String.raw`[^\s{}.[\]](?:[^{}.[\]\n]*[^\s{}.[\]])?`;

/**
 * The reference pattern: `{{ id }}`, `{{id.a.0.b}}`, `{{id.items[0].name}}`
 * and `{{id.Exchange Rate}}`; whitespace around the reference inside the
 * braces is tolerated. Group 1 is the id, group 2 the path as written.
 * Global: use it with `matchAll` or `replace`, which start from the
 * beginning whatever `lastIndex` is, never with `exec` or `test`.
 */
export const REFERENCE_PATTERN = new RegExp(String.raw`\{\{\s*([^\s{}.[\]]+)((?:\.${segment}|\[\d+\])*)\s*\}\}`, "gu");
const segmentPattern = new RegExp(String.raw`\.(${segment})|\[(\d+)\]`, "gu");

/**
 * Splits the path part of a reference (`.a[0].b`) into segments.
 *
 * @param text - the path part, starting with `.` or `[`, or empty.
 * @returns the segments (`["a", "0", "b"]`).
 */
function splitPath(text: string): string[] {
  return Array.from(text.matchAll(segmentPattern), (match) => match[1] ?? match[2] ?? "");
}

/**
 * Escapes one JSON Pointer segment (RFC 6901).
 *
 * @param segment - a raw object key or array index.
 * @returns the escaped segment.
 */
export function escapePointerSegment(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * Finds the references inside one string.
 *
 * @param text - any string.
 * @param pointer - the JSON Pointer of the string, reported on each reference.
 * @returns the references in order of appearance.
 */
export function findReferencesInText(text: string, pointer = ""): FoundReference[] {
  if (!text.includes("{{")) return [];
  return Array.from(text.matchAll(REFERENCE_PATTERN), (match) => ({
    id: match[1] ?? "",
    path: splitPath(match[2] ?? ""),
    pointer,
    exact: match[0].length === text.length,
    source: match[0],
    start: match.index,
  }));
}

/**
 * Finds every `{{id}}` / `{{id.path.0.field}}` reference in a JSON value,
 * walking strings inside arrays and objects (keys are not searched).
 *
 * @param value - any JSON value, such as a tool step's `arguments`.
 * @param pointer - the JSON Pointer of `value` itself, prefixed to each reference's pointer.
 * @returns the references in document order.
 *
 * @example
 * ```ts
 * findReferences({ q: "{{s1.title}}", n: 2 }, "/steps/1/arguments");
 * // [{ id: "s1", path: ["title"], pointer: "/steps/1/arguments/q", exact: true, source: "{{s1.title}}" }]
 * ```
 */
export function findReferences(value: unknown, pointer = ""): FoundReference[] {
  const found: FoundReference[] = [];
  const visit = (current: unknown, at: string): void => {
    if (typeof current === "string") {
      for (const reference of findReferencesInText(current, at)) found.push(reference);
    } else if (typeof current === "object" && current !== null) {
      // An array's indexes are its keys.
      for (const [key, item] of Object.entries(current)) visit(item, `${at}/${escapePointerSegment(key)}`);
    }
  };
  visit(value, pointer);
  return found;
}
