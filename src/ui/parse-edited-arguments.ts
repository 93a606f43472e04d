/**
 * Checking arguments a person edited before they are sent.
 *
 * @module
 */

/** The outcome: the arguments, or what is wrong with the text. */
export type EditedArguments = { ok: true; arguments: Record<string, unknown> } | { ok: false; message: string };

/**
 * Parses the JSON a person wrote as a step's new arguments: it must be a
 * JSON object (the tool's whole arguments), not an array, string or number.
 *
 * @param text - the edited text.
 * @param stepId - the step, for the message.
 * @returns the arguments, or a message naming the step and what is wrong.
 *
 * @example
 * ```ts
 * parseEditedArguments('{"text":"milk"}', "s2"); // { ok: true, arguments: { text: "milk" } }
 * parseEditedArguments("[1]", "s2").ok; // false
 * ```
 */
export function parseEditedArguments(text: string, stepId: string): EditedArguments {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      message: `The arguments of ${stepId} are not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    return {
      ok: false,
      message: `The arguments of ${stepId} must be a JSON object ({ "name": value, … }), not ${kind}`,
    };
  }
  return { ok: true, arguments: value as Record<string, unknown> };
}
