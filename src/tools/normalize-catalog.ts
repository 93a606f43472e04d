/**
 * Reading a tool catalog given in any accepted shape.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { describeValue } from "../plan/describe-value.ts";
import type { JsonSchema, RecordTool, ToolAnnotations, ToolDescriptor } from "./tool-descriptor.ts";
import { checkToolSchemas } from "./check-tool-schemas.ts";
import { normalizeSchemaTypes } from "./normalize-schema-types.ts";

/**
 * A tool catalog in any shape plankit accepts: an MCP `tools/list` array
 * (`[{ name, description, inputSchema, outputSchema?, annotations? }]`; also
 * Anthropic `input_schema` and OpenAI `{ type: "function", function }`
 * items), an MCP `tools/list` result (`{ tools: [...] }`), the record
 * shape (`{ [name]: { description, input_schema } }`), or anything with a
 * `list()` method returning descriptors (such as a `ToolRegistry`).
 */
export type ToolCatalogInput =
  | readonly unknown[]
  | { readonly tools: readonly unknown[] }
  | Readonly<Record<string, RecordTool>>
  | { list(): readonly ToolDescriptor[] };

/**
 * Whether a value is a non-array object.
 *
 * @param value - anything.
 * @returns the check.
 */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Builds one descriptor.
 *
 * @param name - the tool name.
 * @param raw - the raw tool fields.
 * @param where - where the tool sits in the input, for messages.
 * @returns the descriptor.
 */
function toDescriptor(name: unknown, raw: Record<string, unknown>, where: string): ToolDescriptor {
  if (typeof name !== "string" || name === "") {
    throw new PlankitError("invalid-catalog", `Tool at ${where} needs a non-empty string name, got ${describeValue(name)}`);
  }
  const inputSchema = raw["inputSchema"] ?? raw["input_schema"] ?? raw["parameters"] ?? { type: "object" };
  if (!isObject(inputSchema)) {
    throw new PlankitError("invalid-catalog", `Tool "${name}" (${where}) needs an object input schema, got ${describeValue(inputSchema)}`);
  }
  const outputSchema = raw["outputSchema"] ?? raw["output_schema"];
  if (outputSchema !== undefined && outputSchema !== null && !isObject(outputSchema)) {
    throw new PlankitError("invalid-catalog", `Tool "${name}" (${where}) has a non-object output schema ${describeValue(outputSchema)}`);
  }
  const description = raw["description"];
  const descriptor: ToolDescriptor = { name, description: typeof description === "string" ? description : "", inputSchema: normalizeSchemaTypes(inputSchema as JsonSchema) };
  if (typeof raw["title"] === "string") descriptor.title = raw["title"];
  if (isObject(outputSchema)) descriptor.outputSchema = normalizeSchemaTypes(outputSchema);
  if (isObject(raw["annotations"])) descriptor.annotations = raw["annotations"] as ToolAnnotations;
  checkToolSchemas(descriptor, where);
  return descriptor;
}

/**
 * Reads a tool catalog in any accepted shape (see {@link ToolCatalogInput})
 * as MCP descriptors. Every function that takes tools goes through this.
 *
 * @param catalog - the catalog.
 * @returns the descriptors in catalog order; input schemas default to `{ "type": "object" }`, descriptions to `""`.
 * @throws PlankitError `invalid-catalog` for a tool without a name, with a non-object or malformed schema, or a repeated name.
 *
 * @example
 * ```ts
 * normalizeCatalog({ calculator: { description: "Do arithmetic", input_schema: { type: "object" } } });
 * // [{ name: "calculator", description: "Do arithmetic", inputSchema: { type: "object" } }]
 * ```
 */
export function normalizeCatalog(catalog: ToolCatalogInput): ToolDescriptor[] {
  const input: unknown = catalog;
  let tools: ToolDescriptor[];
  if (Array.isArray(input)) {
    tools = input.map((item: unknown, index: number) => {
      if (!isObject(item)) throw new PlankitError("invalid-catalog", `Tool ${index + 1} must be an object, got ${describeValue(item)}`);
      const fn = item["type"] === "function" && isObject(item["function"]) ? item["function"] : undefined;
      return fn === undefined ? toDescriptor(item["name"], item, `[${index}]`) : toDescriptor(fn["name"], fn, `[${index}]`);
    });
  } else if (isObject(input) && typeof input["list"] === "function") {
    return normalizeCatalog((input as { list(): readonly ToolDescriptor[] }).list());
  } else if (isObject(input) && Array.isArray(input["tools"])) {
    return normalizeCatalog(input["tools"] as readonly unknown[]);
  } else if (isObject(input)) {
    tools = Object.entries(input).map(([name, item]) => {
      if (!isObject(item)) throw new PlankitError("invalid-catalog", `Tool "${name}" must be an object, got ${describeValue(item)}`);
      return toDescriptor(name, item, `"${name}"`);
    });
  } else {
    throw new PlankitError("invalid-catalog", `A tool catalog must be an array of tools or a record of tools by name, got ${describeValue(input)}`);
  }
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new PlankitError("invalid-catalog", `Tool "${tool.name}" appears twice in the catalog`);
    seen.add(tool.name);
  }
  return tools;
}
