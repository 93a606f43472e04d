/**
 * Reading a tool catalog in the shapes tool protocols write.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
import { checkToolSchemas } from "./check-tool-schemas.ts";
import { READ_ELSEWHERE, readJsonSchema } from "./read-json-schema.ts";
import type { RecordTool, ToolAnnotations, ToolDescriptor } from "./tool-descriptor.ts";

/**
 * A tool catalog in the shapes tool protocols write: an MCP `tools/list`
 * array (`[{ name, description, inputSchema, outputSchema?, annotations? }]`;
 * also Anthropic `input_schema` and OpenAI `{ type: "function", function }`
 * items with `parameters`), an MCP `tools/list` result (`{ tools: [...] }`),
 * the record shape (`{ [name]: { description, input_schema } }`), or
 * anything with a `list()` method returning descriptors (such as a
 * `ToolRegistry`). Schemas are JSON Schemas; the parameter lists and maps of
 * function-calling data sets are read by `normalizeCatalog` from
 * `plankit/tools`, whose descriptors are accepted here.
 */
export type ToolCatalogInput =
  | readonly unknown[]
  | { readonly tools: readonly unknown[]; readonly [key: string]: unknown }
  | Readonly<Record<string, RecordTool>>
  | { list(): readonly ToolDescriptor[] };

/**
 * Reads one tool's raw fields as a descriptor.
 *
 * @param raw - the tool's fields (an OpenAI item already unwrapped).
 * @param where - where the tool sits in the catalog, for messages (`[2]`, `"search"`).
 * @param key - the tool's key in the record shape, which names it.
 * @returns the descriptor.
 */
export type ToolReader = (raw: Record<string, unknown>, where: string, key?: string) => ToolDescriptor;

/**
 * The first of some fields that is neither `undefined` nor `null`.
 *
 * @param raw - the fields.
 * @param keys - the keys, in order of preference.
 * @returns the value, or `undefined`.
 */
export function firstField(raw: Record<string, unknown>, keys: readonly string[]): unknown {
  return keys.map((key) => raw[key]).find((value) => value !== undefined && value !== null);
}

/**
 * Checks a tool's name.
 *
 * @param name - the name read.
 * @param where - where the tool sits, for the message.
 * @returns the name.
 * @throws PlankitError `invalid-catalog` unless it is a non-empty string.
 */
export function toolName(name: unknown, where: string): string {
  if (typeof name !== "string" || name === "")
    throw new PlankitError(
      "invalid-catalog",
      `Tool at ${where} needs a non-empty string name, got ${describeValue(name)}`,
    );
  return name;
}

/**
 * Fills a descriptor's optional fields from the raw tool and checks its schemas.
 *
 * @param descriptor - name, description and input schema.
 * @param raw - the tool's fields.
 * @param where - where the tool sits, for messages.
 * @returns the descriptor.
 */
export function finishDescriptor(
  descriptor: ToolDescriptor,
  raw: Record<string, unknown>,
  where: string,
): ToolDescriptor {
  if (typeof raw["title"] === "string") descriptor.title = raw["title"];
  if (isRecord(raw["annotations"])) descriptor.annotations = raw["annotations"] as ToolAnnotations;
  checkToolSchemas(descriptor, where);
  return descriptor;
}

/** Fields only function-calling data sets write: a protocol reader that passed over them would drop the tool's parameters unseen. */
const DATA_SET_FIELDS = [
  "query_parameters",
  "input_parameters",
  "args",
  "required_parameters",
  "optional_parameters",
  "output_parameters",
];

/**
 * Reads one tool of a protocol catalog.
 *
 * @param raw - the tool's fields.
 * @param where - where it sits.
 * @param key - its key in the record shape.
 * @returns the descriptor.
 */
const readProtocolTool: ToolReader = (raw, where, key) => {
  const name = toolName(key ?? raw["name"], where);
  const tool = `Tool "${name}" (${where})`;
  const field = DATA_SET_FIELDS.find((key) => raw[key] !== undefined);
  if (field !== undefined)
    throw new PlankitError("invalid-catalog", `${tool} has a data set's field ${field}; ${READ_ELSEWHERE}`);
  const input = firstField(raw, ["inputSchema", "input_schema", "parameters"]);
  const output = firstField(raw, ["outputSchema", "output_schema"]);
  const description = raw["description"];
  const descriptor: ToolDescriptor = {
    name,
    description: typeof description === "string" ? description : "",
    inputSchema: input === undefined ? { type: "object" } : readJsonSchema(input, `${tool} input`),
  };
  if (output !== undefined) descriptor.outputSchema = readJsonSchema(output, `${tool} output`);
  return finishDescriptor(descriptor, raw, where);
};

/**
 * Reads a tool catalog (see {@link ToolCatalogInput}) as MCP descriptors.
 * Every function that takes tools goes through this.
 *
 * @param catalog - the catalog.
 * @param readTool - reads one tool; `normalizeCatalog` passes its data-set reader.
 * @param listKeys - keys under which an object lists its tools.
 * @returns the descriptors in catalog order; input schemas default to `{ "type": "object" }`, descriptions to `""`.
 * @throws PlankitError `invalid-catalog` for a tool without a name, with a non-object or malformed schema, or a repeated name.
 *
 * @example
 * ```ts
 * readCatalog({ calculator: { description: "Do arithmetic", input_schema: { type: "object" } } });
 * // [{ name: "calculator", description: "Do arithmetic", inputSchema: { type: "object" } }]
 * ```
 */
export function readCatalog(
  catalog: unknown,
  readTool: ToolReader = readProtocolTool,
  listKeys: readonly string[] = ["tools"],
): ToolDescriptor[] {
  let tools: ToolDescriptor[];
  if (Array.isArray(catalog)) {
    tools = catalog.map((item: unknown, index: number) => {
      if (!isRecord(item))
        throw new PlankitError("invalid-catalog", `Tool ${index + 1} must be an object, got ${describeValue(item)}`);
      return readTool(
        item["type"] === "function" && isRecord(item["function"]) ? item["function"] : item,
        `[${index}]`,
      );
    });
  } else if (isRecord(catalog) && typeof catalog["list"] === "function") {
    return readCatalog((catalog as { list(): readonly ToolDescriptor[] }).list(), readTool, listKeys);
  } else if (isRecord(catalog) && listKeys.some((key) => Array.isArray(catalog[key]))) {
    return readCatalog(listKeys.map((key) => catalog[key]).find(Array.isArray), readTool, listKeys);
  } else if (isRecord(catalog)) {
    tools = Object.entries(catalog).map(([name, item]) => {
      if (!isRecord(item))
        throw new PlankitError(
          "invalid-catalog",
          `Tool "${name}" must be an object, got ${describeValue(item)}${Array.isArray(item) ? `; ${READ_ELSEWHERE}` : ""}`,
        );
      return readTool(item, `"${name}"`, name);
    });
  } else {
    throw new PlankitError(
      "invalid-catalog",
      `A tool catalog must be an array of tools, an object listing them under "tools", or a record of tools by name, got ${describeValue(catalog)}`,
    );
  }
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name))
      throw new PlankitError("invalid-catalog", `Tool "${tool.name}" appears twice in the catalog`);
    seen.add(tool.name);
  }
  return tools;
}
