/**
 * Converting the input schemas tools come with into JSON Schema.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { JsonSchema } from "./tool-descriptor.ts";
import { isRecord } from "../shared/is-record.ts";

/**
 * Converts a schema object of some library into JSON Schema, such as
 * `toJsonSchema` from `@valibot/to-json-schema` or Zod's `z.toJSONSchema`.
 */
export type JsonSchemaConverter = (schema: never) => unknown;

/** Options of {@link toToolJsonSchema}. */
export interface ToToolJsonSchemaOptions {
  /** The converter for Standard Schemas that cannot convert themselves (valibot before native support, for one). */
  toJsonSchema?: JsonSchemaConverter;
}


/**
 * Checks a conversion result.
 *
 * @param value - what a converter returned.
 * @param what - what was converted, for messages.
 * @returns the JSON Schema.
 */
function expectSchema(value: unknown, what: string): JsonSchema {
  if (isRecord(value) && typeof value["then"] === "function") {
    throw new PlankitError("invalid-catalog", `${what} is a promise; await the JSON Schema before registering the tool`);
  }
  if (!isRecord(value)) throw new PlankitError("invalid-catalog", `${what} did not produce a JSON Schema object`);
  return value;
}

/**
 * Returns the JSON Schema of a tool's input (or output) schema, whatever
 * form it comes in:
 *
 * - a plain JSON Schema object: as it is;
 * - an AI SDK `jsonSchema()` (or `zodSchema()`, `valibotSchema()`) wrapper:
 *   its `.jsonSchema`;
 * - a Standard Schema that implements the Standard JSON Schema interface
 *   (`schema["~standard"].jsonSchema.input`): converted with target draft 2020-12;
 * - any other Standard Schema (such as a valibot schema): converted with
 *   `options.toJsonSchema` — pass `toJsonSchema` from `@valibot/to-json-schema`,
 *   which plankit does not bundle.
 *
 * @param schema - the schema in any of those forms.
 * @param options - `toJsonSchema`, the converter for plain Standard Schemas.
 * @returns the JSON Schema.
 * @throws PlankitError `invalid-catalog` when the schema cannot be converted.
 *
 * @example
 * ```ts
 * import { toJsonSchema } from "@valibot/to-json-schema";
 * toToolJsonSchema(v.object({ city: v.string() }), { toJsonSchema });
 * // { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 * ```
 */
export function toToolJsonSchema(schema: unknown, options: ToToolJsonSchemaOptions = {}): JsonSchema {
  if (!isRecord(schema) && typeof schema !== "function") {
    throw new PlankitError("invalid-catalog", `A tool schema must be a JSON Schema object, an AI SDK schema or a Standard Schema, got ${typeof schema}`);
  }
  const record = schema as Record<string, unknown>;
  if (Object.hasOwn(record, "jsonSchema") || (!("~standard" in record) && "jsonSchema" in record)) {
    return expectSchema(record["jsonSchema"], "The AI SDK schema's jsonSchema");
  }
  const standard = record["~standard"];
  if (isRecord(standard)) {
    const converter = standard["jsonSchema"];
    if (isRecord(converter) && typeof converter["input"] === "function") {
      return expectSchema((converter["input"] as (options: { target: string }) => unknown)({ target: "draft-2020-12" }), "The Standard JSON Schema conversion");
    }
    if (options.toJsonSchema !== undefined) {
      return expectSchema(options.toJsonSchema(schema as never), "The toJsonSchema converter");
    }
    const vendor = typeof standard["vendor"] === "string" ? standard["vendor"] : "unknown";
    throw new PlankitError(
      "invalid-catalog",
      `A ${vendor} schema cannot convert itself to JSON Schema; pass a toJsonSchema converter (for valibot: toJsonSchema from @valibot/to-json-schema)`,
    );
  }
  return record;
}
