/**
 * JSON Schema objects as tools are written with: the typed form, the form a
 * schema takes when TypeScript widened it, and the check that catches a
 * misspelt type name in a literal. Types only: nothing here reaches a bundle.
 *
 * @module
 */

/** The names JSON Schema's `type` keyword accepts. */
export type JsonSchemaTypeName = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/**
 * A JSON Schema object as a tool's `inputSchema` or `outputSchema`: the
 * keywords that shape a value are typed (so `type: "objekt"` or a `required`
 * that is not a list of names fails to compile), every other keyword is
 * accepted as it is.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const satisfies JsonSchemaDefinition;
 * ```
 */
export interface JsonSchemaDefinition {
  readonly type?: JsonSchemaTypeName | readonly JsonSchemaTypeName[];
  readonly properties?: { readonly [name: string]: JsonSchemaDefinition | boolean };
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchemaDefinition | boolean;
  readonly items?: JsonSchemaDefinition | boolean | readonly (JsonSchemaDefinition | boolean)[];
  readonly prefixItems?: readonly (JsonSchemaDefinition | boolean)[];
  readonly enum?: readonly unknown[];
  readonly anyOf?: readonly (JsonSchemaDefinition | boolean)[];
  readonly oneOf?: readonly (JsonSchemaDefinition | boolean)[];
  readonly allOf?: readonly (JsonSchemaDefinition | boolean)[];
  readonly not?: JsonSchemaDefinition | boolean;
  readonly [keyword: string]: unknown;
}

/**
 * A JSON Schema object as TypeScript may see it once a schema is held in a
 * variable: type names widened to `string`, or a plain
 * `Record<string, unknown>`. Its `type` is left open here so that a
 * misspelt name in a literal is reported by {@link CheckJsonSchema} as
 * "not assignable to JsonSchemaTypeName"; the registry checks every schema
 * when it compiles it.
 */
export interface JsonSchemaObject {
  readonly type?: unknown;
  readonly properties?: { readonly [name: string]: JsonSchemaObject | boolean };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/** A `type` keyword's accepted form: any string once widened, else JSON Schema's names. */
type CheckTypeKeyword<T> = T extends readonly (infer Name)[]
  ? string extends Name
    ? T
    : readonly JsonSchemaTypeName[]
  : string extends T
    ? T
    : JsonSchemaTypeName;

/** The keywords whose value is a schema, a list of schemas, or a map of schemas. */
type SubschemaKeyword = "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas";
type SubschemaListKeyword =
  | "items"
  | "prefixItems"
  | "anyOf"
  | "oneOf"
  | "allOf"
  | "additionalProperties"
  | "not"
  | "contains";

/**
 * What a schema literal `S` must be assignable to: itself, with every `type`
 * keyword (at any depth) one of JSON Schema's names unless it was widened to
 * `string`. A Standard Schema passes as it is. Used as a constraint
 * (`S extends CheckJsonSchema<S>`), so a misspelt name is reported where it is written.
 *
 * @typeParam S - the schema.
 *
 * @example
 * ```ts
 * function takeSchema<const S extends CheckJsonSchema<S>>(schema: S): S {
 *   return schema;
 * }
 * takeSchema({ type: "object", properties: { a: { type: "numbr" } } }); // error: "numbr" is not a JsonSchemaTypeName
 * ```
 */
export type CheckJsonSchema<S> = {
  readonly [K in keyof S]: S extends { readonly "~standard": unknown }
    ? S[K]
    : K extends "type"
      ? CheckTypeKeyword<S[K]>
      : K extends SubschemaKeyword
        ? { readonly [Name in keyof S[K]]: CheckJsonSchema<S[K][Name]> }
        : K extends SubschemaListKeyword
          ? S[K] extends readonly unknown[]
            ? { readonly [Index in keyof S[K]]: CheckJsonSchema<S[K][Index]> }
            : CheckJsonSchema<S[K]>
          : S[K];
};
