/**
 * The schemas a tool may be written with, and the types they give its
 * `execute`. Types only: nothing here reaches a bundle.
 *
 * @module
 */
import type { InferJsonSchema } from "./infer-json-schema.ts";
import type { JsonSchemaObject } from "./json-schema-definition.ts";
import type { StandardJsonSchemaV1, StandardSchemaTypes, StandardSchemaV1 } from "./standard-schema.ts";

/**
 * A tool's `inputSchema` or `outputSchema`: a Standard Schema (valibot, zod,
 * ArkType, Effect Schema), a Standard JSON Schema, or a plain JSON Schema.
 * A JSON Schema held in a variable may have its type names widened to
 * `string`; written as a literal in `register` or `defineTool`, a name JSON
 * Schema does not know (`"objekt"`) fails to compile (see `CheckJsonSchema`).
 * A Standard Schema validates the values with its own `~standard.validate`;
 * the JSON Schema the model and the plan validator read comes from its
 * `~standard.jsonSchema`, or from the registry's `toJsonSchema` option.
 */
export type ToolSchema = StandardSchemaV1 | StandardJsonSchemaV1 | JsonSchemaObject;

/**
 * The type of the values a schema describes: a Standard Schema's `input` or
 * `output` type, an AI SDK `jsonSchema<T>()` wrapper's `T`, a JSON Schema
 * literal's {@link InferJsonSchema}.
 */
type InferSchemaValue<S, Side extends "input" | "output"> = S extends {
  readonly "~standard": { readonly types?: infer Types };
}
  ? NonNullable<Types> extends StandardSchemaTypes<infer Input, infer Output>
    ? Side extends "input"
      ? Input
      : Output
    : unknown
  : S extends { readonly _type: infer Value; readonly jsonSchema: unknown }
    ? Value
    : S extends () => { readonly _type: infer Value; readonly jsonSchema: unknown }
      ? Value
      : InferJsonSchema<S>;

/**
 * What a tool's `execute` receives for an input schema: the Standard
 * Schema's output type (the value its validation returns), or the type of a
 * JSON Schema literal; `Record<string, unknown>` when nothing more is known
 * (no schema, a JSON Schema not written `as const`).
 *
 * @typeParam S - the tool's `inputSchema`.
 *
 * @example
 * ```ts
 * type Args = InferToolArguments<typeof schema>; // schema = v.object({ a: v.number() }) → { a: number }
 * ```
 */
export type InferToolArguments<S> = ToolSchema extends S
  ? Record<string, unknown>
  : InferSchemaValue<S, "output"> extends infer Value
    ? unknown extends Value
      ? Record<string, unknown>
      : Value
    : never;

/**
 * What a tool's `execute` returns for an output schema: the Standard Schema's
 * input type (validation turns it into the output type), or the type of a
 * JSON Schema literal; `unknown` without one.
 *
 * @typeParam S - the tool's `outputSchema`.
 *
 * @example
 * ```ts
 * type Result = InferToolResult<{ type: "object"; properties: { sum: { type: "number" } }; required: ["sum"] }>; // { sum: number }
 * ```
 */
export type InferToolResult<S> = [S] extends [undefined]
  ? unknown
  : ToolSchema extends S
    ? unknown
    : InferSchemaValue<S, "input">;
