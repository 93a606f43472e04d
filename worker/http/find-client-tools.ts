/**
 * The client-defined tools of a Chat Completions request.
 *
 * @module
 */

/** The members through which a Chat Completions client offers its own functions. */
const toolMembers = ["tools", "tool_choice", "functions", "function_call"] as const;

/**
 * Finds the first member of a Chat Completions body that asks the model to
 * call functions the client defines — `tools` or legacy `functions` that
 * are not empty, a `tool_choice` or `function_call` other than `"none"`
 * or `"auto"` — which this API cannot do: it plans with its own tools and
 * never hands a call back. Absent, `null` and empty members pass.
 *
 * @param body - the request body.
 * @returns the member's name and a description of its value, or `undefined`.
 *
 * @example
 * ```ts
 * findClientTools({ messages: [], functions: [{ name: "f" }] }); // { param: "functions", value: "1 function" }
 * ```
 */
export function findClientTools(
  body: Record<string, unknown>,
): { param: (typeof toolMembers)[number]; value: string } | undefined {
  for (const param of toolMembers) {
    const value = body[param];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      return {
        param,
        value: `${value.length} ${param === "tools" ? "tool" : "function"}${value.length === 1 ? "" : "s"}`,
      };
    }
    if ((param === "tool_choice" || param === "function_call") && (value === "none" || value === "auto")) continue;
    return { param, value: JSON.stringify(value).slice(0, 80) };
  }
  return undefined;
}
