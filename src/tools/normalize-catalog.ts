/**
 * Reading a tool catalog given in any accepted shape, function-calling data
 * sets' included.
 *
 * @module
 */
import { isRecord } from "../shared/is-record.ts";
import {
  finishDescriptor,
  firstField,
  readCatalog,
  type ToolCatalogInput,
  type ToolReader,
  toolName,
} from "./read-catalog.ts";
import { readToolSchema } from "./read-tool-schema.ts";
import type { JsonSchema, ToolDescriptor } from "./tool-descriptor.ts";

/** Where catalogs keep a tool's input parameters, in the order they are looked for. */
const INPUT_KEYS = ["inputSchema", "input_schema", "parameters", "query_parameters", "input_parameters", "args"];
/** Where catalogs keep a tool's output description. */
const OUTPUT_KEYS = ["outputSchema", "output_schema", "output_parameters"];
/** Keys under which a catalog object lists its tools. */
const LIST_KEYS = ["tools", "functions", "apis", "api_list", "nodes"];

/**
 * A tool catalog in any shape {@link normalizeCatalog} reads: the protocol
 * shapes (`ToolCatalogInput`) and function-calling data sets' — the tool
 * list under `functions`, `apis`, `api_list` or `nodes`, parameters under
 * `parameters`, `query_parameters`, `input_parameters` or `args` as a JSON
 * Schema, a map of parameter descriptions or a list of them; ToolBench's
 * `required_parameters` and `optional_parameters`; results described under
 * `output_parameters`; `desc` for `description`, and TaskBench's `id` for a
 * missing `name` (see `readToolSchema` for the parameter shapes).
 */
export type DataSetCatalogInput =
  | ToolCatalogInput
  | { readonly functions: readonly unknown[]; readonly [key: string]: unknown }
  | { readonly apis: readonly unknown[]; readonly [key: string]: unknown }
  | { readonly api_list: readonly unknown[]; readonly [key: string]: unknown }
  | { readonly nodes: readonly unknown[]; readonly [key: string]: unknown };

/**
 * Reads one tool of a data set's catalog.
 *
 * @param raw - the tool's fields.
 * @param where - where it sits.
 * @param key - its key in the record shape.
 * @returns the descriptor.
 */
const readDataSetTool: ToolReader = (raw, where, key) => {
  const name = toolName(
    key ?? (raw["name"] === undefined && typeof raw["id"] === "string" ? raw["id"] : raw["name"]),
    where,
  );
  const tool = `Tool "${name}" (${where})`;
  const input = firstField(raw, INPUT_KEYS);
  const required = raw["required_parameters"];
  const optional = raw["optional_parameters"];
  let inputSchema: JsonSchema = { type: "object" };
  if (input !== undefined) inputSchema = readToolSchema(input, `${tool} input`);
  else if (Array.isArray(required) || Array.isArray(optional)) {
    // ToolBench: two parameter lists.
    const flag = (list: unknown, isRequired: boolean): unknown[] =>
      Array.isArray(list)
        ? list.map((item: unknown) =>
            isRecord(item) && typeof item["required"] !== "boolean" ? { ...item, required: isRequired } : item,
          )
        : [];
    inputSchema = readToolSchema([...flag(required, true), ...flag(optional, false)], `${tool} input`);
  }
  const output = firstField(raw, OUTPUT_KEYS);
  const description = raw["description"] ?? raw["desc"];
  const descriptor: ToolDescriptor = {
    name,
    description: typeof description === "string" ? description : "",
    inputSchema,
  };
  if (output !== undefined) descriptor.outputSchema = readToolSchema(output, `${tool} output`);
  return finishDescriptor(descriptor, raw, where);
};

/**
 * Reads a tool catalog in any accepted shape (see {@link DataSetCatalogInput})
 * as MCP descriptors, which every function that takes tools accepts. The
 * protocol shapes need no reading first; a data set's do.
 *
 * @param catalog - the catalog.
 * @returns the descriptors in catalog order; input schemas default to `{ "type": "object" }`, descriptions to `""`.
 * @throws PlankitError `invalid-catalog` for a tool without a name, with a non-object or malformed schema, or a repeated name.
 *
 * @example
 * ```ts
 * normalizeCatalog({ functions: [{ name: "weather", parameters: { city: { type: "str", required: true } } }] });
 * // [{ name: "weather", description: "", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }]
 * ```
 */
export function normalizeCatalog(catalog: DataSetCatalogInput): ToolDescriptor[] {
  return readCatalog(catalog, readDataSetTool, LIST_KEYS);
}
