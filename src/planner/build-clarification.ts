/**
 * Asking the user for arguments a step is missing.
 *
 * @module
 */
import type { ToolStep } from "../plan/tool-step-schema.ts";
import type { ToolDescriptor } from "../tools/tool-descriptor.ts";

/**
 * Writes the text of a clarifying reply.
 *
 * @param step - the tool step that lacks arguments.
 * @param missing - the missing arguments, as dotted paths (`"expr"`, `"filters.date"`).
 * @param tool - the tool's descriptor.
 * @returns the reply text.
 */
export type ClarifyFunction = (step: ToolStep, missing: readonly string[], tool: ToolDescriptor | undefined) => string;

/**
 * Reads the description of a top-level argument from the tool's input schema.
 *
 * @param tool - the descriptor.
 * @param name - the argument.
 * @returns the description, if any.
 */
function describeArgument(tool: ToolDescriptor | undefined, name: string): string | undefined {
  const properties = tool?.inputSchema["properties"];
  if (typeof properties !== "object" || properties === null || !Object.hasOwn(properties, name)) return undefined;
  const schema = (properties as Record<string, unknown>)[name];
  const description =
    typeof schema === "object" && schema !== null ? (schema as Record<string, unknown>)["description"] : undefined;
  return typeof description === "string" && description.trim() !== "" ? description.trim() : undefined;
}

/**
 * The default {@link ClarifyFunction}, which asks for missing arguments
 * instead of dropping the step. It names the tool, what it does, and each
 * missing argument with its schema description.
 *
 * @param step - the tool step that lacks arguments.
 * @param missing - the missing arguments, as dotted paths.
 * @param tool - the tool's descriptor.
 * @returns the reply text.
 *
 * @example
 * ```ts
 * buildClarification(step, ["expr"], calculator);
 * // 'To use "calculator" (Do arithmetic) I need "expr" (the expression). Could you provide it?'
 * ```
 */
export function buildClarification(
  step: ToolStep,
  missing: readonly string[],
  tool: ToolDescriptor | undefined,
): string {
  const what = tool?.description.trim() ?? "";
  const names = missing.map((name) => {
    const description = describeArgument(tool, name);
    return description === undefined ? `"${name}"` : `"${name}" (${description})`;
  });
  const list =
    names.length <= 1
      ? (names[0] ?? "more details")
      : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1] ?? ""}`;
  return `To use "${step.name}"${what === "" ? "" : ` (${what})`} I need ${list}. Could you provide ${names.length > 1 ? "them" : "it"}?`;
}
