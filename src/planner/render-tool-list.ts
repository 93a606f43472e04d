/**
 * Rendering tools for a planning prompt.
 *
 * @module
 */
import type { ToolDescriptor } from "../tools/tool-descriptor.ts";

/**
 * Renders tools as a JSON array with one tool per line, each with
 * `name`, `description` and `input_schema`, plus `output_schema` when
 * the tool declares one (so the model can reference fields of its result)
 * and `read_only` when the tool's MCP `readOnlyHint` annotation is set.
 *
 * @param tools - the tools, in the order to show them.
 * @returns the JSON text (`[]` for no tools).
 *
 * @example
 * ```ts
 * renderToolList([{ name: "calculator", description: "Do arithmetic", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }]);
 * // '[\n{"name":"calculator","description":"Do arithmetic","input_schema":{"type":"object"},"read_only":true}\n]'
 * ```
 */
export function renderToolList(tools: readonly ToolDescriptor[]): string {
  if (tools.length === 0) return "[]";
  const lines = tools.map((tool) => {
    const item: Record<string, unknown> = {
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    };
    if (tool.outputSchema !== undefined) item["output_schema"] = tool.outputSchema;
    const readOnly = tool.annotations?.readOnlyHint;
    if (typeof readOnly === "boolean") item["read_only"] = readOnly;
    return JSON.stringify(item);
  });
  return `[\n${lines.join(",\n")}\n]`;
}
