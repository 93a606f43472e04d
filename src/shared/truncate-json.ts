/**
 * Short JSON renderings for prompts.
 *
 * @module
 */

/** A value JSON cannot carry (a cycle, a BigInt): the rendering falls back to `String(value)`. */
class Unrenderable extends Error {}

/**
 * Writes a value as `JSON.stringify` would, keeping at most `limit`
 * characters of text and only counting the rest, so a huge value never
 * becomes a huge string.
 *
 * @param value - any value.
 * @param limit - the characters to keep.
 * @returns the kept text, the full length, and whether the value has a JSON form.
 */
function writeBounded(value: unknown, limit: number): { text: string; length: number; defined: boolean } {
  let text = "";
  let length = 0;
  const put = (piece: string): void => {
    if (text.length < limit) text += piece.length <= limit - text.length ? piece : piece.slice(0, limit - text.length);
    length += piece.length;
  };
  const ancestors: object[] = [];
  const visit = (current: unknown): boolean => {
    if (
      current !== null &&
      typeof current === "object" &&
      typeof (current as { toJSON?: unknown }).toJSON === "function"
    ) {
      current = (current as { toJSON: () => unknown }).toJSON();
    }
    if (typeof current === "bigint") throw new Unrenderable();
    if (current === undefined || typeof current === "function" || typeof current === "symbol") return false;
    if (current === null || typeof current !== "object") {
      // A string, a number (null when not finite), a boolean or null, written as JSON writes it.
      put(JSON.stringify(current));
      return true;
    }
    const object = current as object;
    if (ancestors.includes(object)) throw new Unrenderable();
    ancestors.push(object);
    if (Array.isArray(object)) {
      put("[");
      object.forEach((item: unknown, index) => {
        if (index > 0) put(",");
        if (!visit(item)) put("null");
      });
      put("]");
    } else {
      put("{");
      let first = true;
      for (const key of Object.keys(object)) {
        const item = (object as Record<string, unknown>)[key];
        if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
        put(`${first ? "" : ","}${JSON.stringify(key)}:`);
        first = false;
        visit(item);
      }
      put("}");
    }
    ancestors.pop();
    return true;
  };
  const defined = visit(value);
  return { text, length, defined };
}

/**
 * Renders a value as JSON (strings as they are), cut to `maxChars` with a
 * marker, so results of any size fit in a prompt. The value is cut while it
 * is written: the text never grows past `maxChars`, however large the value.
 *
 * @param value - any value.
 * @param maxChars - the longest text to return, before the marker.
 * @returns the text.
 *
 * @example
 * ```ts
 * truncateJson({ items: [1, 2, 3] }, 8); // '{"items"… [9 more characters]'
 * ```
 */
export function truncateJson(value: unknown, maxChars: number): string {
  let written: { text: string; length: number } | undefined;
  try {
    if (typeof value !== "string") {
      const bounded = writeBounded(value, maxChars);
      if (bounded.defined) written = bounded;
    }
  } catch {
    // A cycle or a BigInt, or a toJSON that threw: the value's String form below.
  }
  if (written === undefined) {
    let full: string;
    try {
      full = String(value);
    } catch {
      full = Object.prototype.toString.call(value);
    }
    written = { text: full.slice(0, maxChars), length: full.length };
  }
  const { text, length } = written;
  return length > maxChars ? `${text}… [${length - maxChars} more characters]` : text;
}
