/**
 * Reading a step's arguments a person edited as JSON.
 *
 * @module
 */

/** The edited arguments, or why they cannot be sent. */
export type ParsedArguments = { ok: true; arguments: Record<string, unknown> } | { ok: false; message: string };

/**
 * Reads the text of an approval card's edit box: it must be one JSON
 * object (the tool's whole arguments). Anything else is refused in the
 * page with a message naming the step and what is wrong, before anything
 * is sent; the tool's schema is checked by the runtime afterwards.
 *
 * @param stepId - the step, for the message.
 * @param text - the edit box's text.
 * @returns the arguments, or the message.
 *
 * @example
 * ```ts
 * parseEditedArguments("s1", '{"title":"shopping"}'); // { ok: true, arguments: { title: "shopping" } }
 * parseEditedArguments("s1", "{title: 1}"); // { ok: false, message: "The arguments of s1 are not valid JSON: …" }
 * ```
 */
export function parseEditedArguments(stepId: string, text: string): ParsedArguments {
  if (text.trim() === "")
    return {
      ok: false,
      message: `The arguments of ${stepId} are empty: write them as one JSON object, like {"title": "…"}.`,
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      message: `The arguments of ${stepId} are not valid JSON: ${error instanceof Error ? error.message : String(error)}.`,
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
    return {
      ok: false,
      message: `The arguments of ${stepId} must be one JSON object of the tool's arguments, not ${kind}.`,
    };
  }
  return { ok: true, arguments: value as Record<string, unknown> };
}
