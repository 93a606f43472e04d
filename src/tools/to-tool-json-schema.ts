/**
 * Converting the input schemas tools come with into JSON Schema.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { isRecord } from "../shared/is-record.ts";
import type { JsonSchema } from "./tool-descriptor.ts";

/**
 * Converts a schema object of some library into JSON Schema, such as
 * `toJsonSchema` from `@valibot/to-json-schema` or Zod's `z.toJSONSchema`.
 */
export type JsonSchemaConverter = (schema: never) => unknown;

/** Options of {@link toToolJsonSchema}. */
export interface ToToolJsonSchemaOptions {
  /** The converter for Standard Schemas that cannot give their JSON Schema themselves. */
  toJsonSchema?: JsonSchemaConverter;
  /**
   * Which side of a Standard JSON Schema to take: what it accepts (`input`, for arguments) or what its
   * validation returns (`output`, for results).
   *
   * @defaultValue `"input"`
   */
  side?: "input" | "output";
  /**
   * What the schema belongs to, at the start of messages (`Tool "search" input`).
   *
   * @defaultValue `"A tool schema"`
   */
  what?: string;
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
    throw new PlankitError(
      "invalid-catalog",
      `${what} is a promise; await the JSON Schema before registering the tool`,
    );
  }
  if (!isRecord(value)) throw new PlankitError("invalid-catalog", `${what} did not produce a JSON Schema object`);
  return value;
}

/**
 * Asks a Standard JSON Schema for its JSON Schema in draft 2020-12, else in draft-07
 * (a library may know only one of them).
 *
 * @param convert - `~standard.jsonSchema.input` or `.output`.
 * @param what - what is converted, for messages.
 * @returns the JSON Schema.
 */
function askStandardJsonSchema(convert: (options: { target: string }) => unknown, what: string): JsonSchema {
  const reasons = new Set<unknown>();
  for (const target of ["draft-2020-12", "draft-07"]) {
    try {
      return expectSchema(convert({ target }), `${what}'s JSON Schema (${target})`);
    } catch (error) {
      if (PlankitError.isInstance(error)) throw error;
      reasons.add(error instanceof Error ? error.message : error);
    }
  }
  const advice = "give the tool a plain JSON Schema, or a schema JSON Schema can express";
  throw new PlankitError(
    "invalid-catalog",
    `${what} could not give its JSON Schema (${[...reasons].join("; ")}); ${advice}`,
  );
}

/**
 * Returns the JSON Schema of a tool's input (or output) schema, whatever
 * form it comes in:
 *
 * - a plain JSON Schema object: as it is;
 * - an AI SDK `jsonSchema()` (or `zodSchema()`, `valibotSchema()`) wrapper:
 *   its `.jsonSchema`;
 * - a Standard JSON Schema (`schema["~standard"].jsonSchema`: zod >= 4.2,
 *   ArkType >= 2.1.28, valibot through `toStandardJsonSchema` of
 *   `@valibot/to-json-schema`): its `input` (or `output`) in draft 2020-12, else draft-07;
 * - any other Standard Schema: converted with `options.toJsonSchema`, and refused
 *   without one, with a message that says how to give it a JSON Schema.
 *
 * @param schema - the schema in any of those forms.
 * @param options - the converter for other Standard Schemas, the side, and the subject of messages.
 * @returns the JSON Schema.
 * @throws PlankitError `invalid-catalog` when the schema cannot be converted.
 *
 * @example
 * ```ts
 * import { toStandardJsonSchema } from "@valibot/to-json-schema";
 * toToolJsonSchema(toStandardJsonSchema(v.object({ city: v.string() })));
 * // { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 * ```
 */
export function toToolJsonSchema(schema: unknown, options: ToToolJsonSchemaOptions = {}): JsonSchema {
  const what = options.what ?? "A tool schema";
  if (!isRecord(schema) && typeof schema !== "function") {
    throw new PlankitError(
      "invalid-catalog",
      `${what} must be a JSON Schema object, a Standard Schema or an AI SDK schema, got ${typeof schema}`,
    );
  }
  const record = schema as Record<string, unknown>;
  if (Object.hasOwn(record, "jsonSchema") || (!("~standard" in record) && "jsonSchema" in record)) {
    return expectSchema(record["jsonSchema"], `${what}: the AI SDK schema's jsonSchema`);
  }
  const standard = record["~standard"];
  if (!isRecord(standard)) return record;
  const subject = `${what}: the ${String(standard["vendor"])} schema`;
  const converter = standard["jsonSchema"];
  const convert = isRecord(converter) ? converter[options.side ?? "input"] : undefined;
  if (typeof convert === "function")
    return askStandardJsonSchema(convert as (options: { target: string }) => unknown, subject);
  if (options.toJsonSchema !== undefined)
    return expectSchema(options.toJsonSchema(schema as never), `${what}: the toJsonSchema converter's result`);
  const wrap =
    standard["vendor"] === "valibot" ? "wrap it with toStandardJsonSchema from @valibot/to-json-schema, " : "";
  const advice = `${wrap}pass a converter as new ToolRegistry({ toJsonSchema }), or give a plain JSON Schema`;
  throw new PlankitError(
    "invalid-catalog",
    `${subject} validates but cannot give its JSON Schema (no ~standard.jsonSchema); ${advice}`,
  );
}
