/**
 * Typing a tool apart from the registry it will join.
 *
 * @module
 */

import type { CheckJsonSchema } from "./json-schema-definition.ts";
import type { ToolDefinition } from "./tool-registry.ts";
import type { ToolSchema } from "./tool-schema.ts";

/**
 * Returns the tool as it is, typed: `execute`'s arguments from `inputSchema`
 * (a Standard Schema, a Standard JSON Schema, or a JSON Schema literal) and its
 * result from `outputSchema`, so a tool can be written in its own module and
 * registered later with `registry.register(tool)`.
 *
 * @param tool - the tool.
 * @returns the same object.
 *
 * @example
 * ```ts
 * export const add = defineTool({
 *   name: "add",
 *   inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *   execute: ({ a, b }) => ({ sum: a + b }),
 * });
 * ```
 */
export function defineTool<
  const Input extends ToolSchema & CheckJsonSchema<Input> = ToolSchema,
  const Output extends ToolSchema & CheckJsonSchema<Output> = ToolSchema,
>(tool: ToolDefinition<Input, Output>): ToolDefinition<Input, Output> {
  return tool;
}
