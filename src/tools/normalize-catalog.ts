/**
 * Reading a tool catalog given in any accepted shape.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { describeValue } from "../shared/describe-value.ts";
import type { JsonSchema, RecordTool, ToolAnnotations, ToolDescriptor } from "./tool-descriptor.ts";
import { checkToolSchemas } from "./check-tool-schemas.ts";
import { readToolSchema } from "./read-tool-schema.ts";
import { isRecord } from "../shared/is-record.ts";

/** Where catalogs keep a tool's input parameters, in the order they are looked for. */
const INPUT_KEYS = ["inputSchema", "input_schema", "parameters", "query_parameters", "input_parameters", "args"];
/** Where catalogs keep a tool's output description. */
const OUTPUT_KEYS = ["outputSchema", "output_schema", "output_parameters"];
/** Keys under which a catalog object lists its tools. */
const LIST_KEYS = ["tools", "functions", "apis", "api_list", "nodes"];

/**
 * A tool catalog in any shape plankit accepts: an MCP `tools/list` array
 * (`[{ name, description, inputSchema, outputSchema?, annotations? }]`; also
 * Anthropic `input_schema` and OpenAI `{ type: "function", function }`
 * items), an MCP `tools/list` result (`{ tools: [...] }`, or the list under
 * `functions`, `apis`, `api_list` or `nodes`), the record shape
 * (`{ [name]: { description, input_schema } }`), or anything with a
 * `list()` method returning descriptors (such as a `ToolRegistry`).
 *
 * Function-calling data sets are read too: parameters under `parameters`,
 * `query_parameters`, `input_parameters` or `args` as a JSON Schema, a map of
 * parameter descriptions or a list of them; ToolBench's
 * `required_parameters` and `optional_parameters`; results described under
 * `output_parameters`; `desc` for `description`, and TaskBench's `id` for a
 * missing `name` (see `readToolSchema` for the parameter shapes).
 */
export type ToolCatalogInput =
  | readonly unknown[]
  | { readonly tools: readonly unknown[]; readonly [key: string]: unknown }
  | { readonly functions: readonly unknown[]; readonly [key: string]: unknown }
  | { readonly apis: readonly unknown[]; readonly [key: string]: unknown }
  | { readonly api_list: readonly unknown[]; readonly [key: string]: unknown }
  | { readonly nodes: readonly unknown[]; readonly [key: string]: unknown }
  | Readonly<Record<string, RecordTool>>
  | { list(): readonly ToolDescriptor[] };


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
  const tool = `Tool "${name}" (${where})`;
  const input = INPUT_KEYS.map((key) => raw[key]).find((value) => value !== undefined && value !== null);
  const required = raw["required_parameters"];
  const optional = raw["optional_parameters"];
  let inputSchema: JsonSchema = { type: "object" };
  if (input !== undefined) inputSchema = readToolSchema(input, `${tool} input`);
  else if (Array.isArray(required) || Array.isArray(optional)) {
    // ToolBench: two parameter lists.
    const flag = (list: unknown, isRequired: boolean): unknown[] =>
      Array.isArray(list) ? list.map((item: unknown) => (isRecord(item) && typeof item["required"] !== "boolean" ? { ...item, required: isRequired } : item)) : [];
    inputSchema = readToolSchema([...flag(required, true), ...flag(optional, false)], `${tool} input`);
  }
  const output = OUTPUT_KEYS.map((key) => raw[key]).find((value) => value !== undefined && value !== null);
  const description = raw["description"] ?? raw["desc"];
  const descriptor: ToolDescriptor = { name, description: typeof description === "string" ? description : "", inputSchema };
  if (typeof raw["title"] === "string") descriptor.title = raw["title"];
  if (output !== undefined) descriptor.outputSchema = readToolSchema(output, `${tool} output`);
  if (isRecord(raw["annotations"])) descriptor.annotations = raw["annotations"] as ToolAnnotations;
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
      if (!isRecord(item)) throw new PlankitError("invalid-catalog", `Tool ${index + 1} must be an object, got ${describeValue(item)}`);
      const raw = item["type"] === "function" && isRecord(item["function"]) ? item["function"] : item;
      return toDescriptor(raw["name"] === undefined && typeof raw["id"] === "string" ? raw["id"] : raw["name"], raw, `[${index}]`);
    });
  } else if (isRecord(input) && typeof input["list"] === "function") {
    return normalizeCatalog((input as { list(): readonly ToolDescriptor[] }).list());
  } else if (isRecord(input) && LIST_KEYS.some((key) => Array.isArray(input[key]))) {
    return normalizeCatalog(LIST_KEYS.map((key) => input[key]).find(Array.isArray) as readonly unknown[]);
  } else if (isRecord(input)) {
    tools = Object.entries(input).map(([name, item]) => {
      if (!isRecord(item)) throw new PlankitError("invalid-catalog", `Tool "${name}" must be an object, got ${describeValue(item)}`);
      return toDescriptor(name, item, `"${name}"`);
    });
  } else {
    throw new PlankitError("invalid-catalog", `A tool catalog must be an array of tools, an object listing them under "tools", or a record of tools by name, got ${describeValue(input)}`);
  }
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new PlankitError("invalid-catalog", `Tool "${tool.name}" appears twice in the catalog`);
    seen.add(tool.name);
  }
  return tools;
}
