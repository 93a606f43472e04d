/**
 * Refusing a tool whose schemas are malformed.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { findSchemaProblem } from "./find-schema-problem.ts";
import type { ToolDescriptor } from "./tool-descriptor.ts";

/**
 * Checks a tool's input and output schemas with {@link findSchemaProblem}.
 *
 * @param tool - the descriptor.
 * @param where - where the tool sits in its catalog, for the message.
 * @throws PlankitError `invalid-catalog` naming the tool, the schema, the pointer and the value.
 *
 * @example
 * ```ts
 * checkToolSchemas({ name: "add", description: "", inputSchema: { type: "objet" } });
 * // throws: Tool "add" has a malformed input schema: /type must be one of "array", …, got "objet"
 * ```
 */
export function checkToolSchemas(tool: ToolDescriptor, where?: string): void {
  const at = where === undefined ? "" : ` (${where})`;
  for (const [schema, label] of [
    [tool.inputSchema, "input"],
    [tool.outputSchema, "output"],
  ] as const) {
    if (schema === undefined) continue;
    const problem = findSchemaProblem(schema);
    if (problem !== undefined)
      throw new PlankitError("invalid-catalog", `Tool "${tool.name}"${at} has a malformed ${label} schema: ${problem}`);
  }
}
