/**
 * The TypeScript type a JSON Schema literal describes, so that a tool
 * written with a plain JSON Schema `as const` gets typed arguments.
 * Types only: nothing here reaches a bundle.
 *
 * @module
 */

/** Shows an intersection of object types as one object type. */
type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** The names in a schema's `required` list. */
type RequiredNames<S> = S extends { readonly required: readonly (infer Name)[] } ? Name : never;

/** An object schema's value: its properties, required or optional; a map when it only has `additionalProperties`. */
type InferObject<S> = S extends { readonly properties: infer Properties extends { readonly [name: string]: unknown } }
  ? Flatten<
      {
        -readonly [K in keyof Properties as K extends RequiredNames<S> ? K : never]: InferJsonSchema<Properties[K]>;
      } & {
        -readonly [K in keyof Properties as K extends RequiredNames<S> ? never : K]?: InferJsonSchema<Properties[K]>;
      }
    >
  : S extends { readonly additionalProperties: infer Values extends object }
    ? Record<string, InferJsonSchema<Values>>
    : Record<string, unknown>;

/** An array schema's value: a list of its `items` (a tuple form stays `unknown[]`). */
type InferArray<S> = S extends { readonly items: infer Items }
  ? Items extends readonly unknown[]
    ? unknown[]
    : InferJsonSchema<Items>[]
  : unknown[];

/** The value of one type name. */
type InferTypeName<S, Name> = Name extends "string"
  ? string
  : Name extends "number" | "integer"
    ? number
    : Name extends "boolean"
      ? boolean
      : Name extends "null"
        ? null
        : Name extends "array"
          ? InferArray<S>
          : Name extends "object"
            ? InferObject<S>
            : unknown;

/**
 * The type of the values a JSON Schema literal accepts: `type` (one name or a
 * list), object `properties` with `required`, `additionalProperties`, array
 * `items`, `enum`, `const`, and `anyOf` / `oneOf` when there is no `type`.
 * Anything else is `unknown`, and extra properties of an object are not part of its type.
 *
 * @typeParam S - the schema, written `as const` (or passed where a `const` type parameter keeps it literal).
 *
 * @example
 * ```ts
 * type Point = InferJsonSchema<{ type: "object"; properties: { x: { type: "number" }; label: { type: "string" } }; required: ["x"] }>;
 * // { x: number; label?: string }
 * ```
 */
export type InferJsonSchema<S> = S extends boolean
  ? S extends false
    ? never
    : unknown
  : S extends { readonly const: infer Value }
    ? Value
    : S extends { readonly enum: readonly (infer Value)[] }
      ? Value
      : S extends { readonly type: infer Name }
        ? Name extends readonly (infer Names)[]
          ? InferTypeName<S, Names>
          : InferTypeName<S, Name>
        : S extends { readonly properties: object }
          ? InferObject<S>
          : S extends { readonly anyOf: readonly (infer Member)[] }
            ? InferJsonSchema<Member>
            : S extends { readonly oneOf: readonly (infer Member)[] }
              ? InferJsonSchema<Member>
              : unknown;
