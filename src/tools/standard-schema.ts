/**
 * The Standard Schema and Standard JSON Schema interfaces
 * (https://standardschema.dev), written out as types so that the core needs
 * no package for them. valibot, zod, ArkType and Effect Schema implement the
 * first; zod >= 4.2, ArkType >= 2.1.28 and valibot through
 * `toStandardJsonSchema` of `@valibot/to-json-schema` the second.
 *
 * @module
 */

/** Where an issue is: a property key, or an object holding one. */
export type StandardPathSegment = PropertyKey | { readonly key: PropertyKey };

/** One problem a Standard Schema found. */
export interface StandardSchemaIssue {
  /** The library's message. */
  readonly message: string;
  /** The path to the offending value, from the root. */
  readonly path?: readonly StandardPathSegment[] | undefined;
}

/** What `~standard.validate` returns: the (possibly transformed) value, or the issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardSchemaIssue[] };

/** The input and output types a schema carries for inference only. */
export interface StandardSchemaTypes<Input = unknown, Output = Input> {
  /** The type the schema accepts. */
  readonly input: Input;
  /** The type validation returns. */
  readonly output: Output;
}

/**
 * A schema that validates through `~standard.validate`.
 *
 * @example
 * ```ts
 * import * as v from "valibot";
 * const schema: StandardSchemaV1<{ city: string }> = v.object({ city: v.string() });
 * ```
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The standard properties. */
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: StandardSchemaTypes<Input, Output> | undefined;
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined,
    ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  };
}

/** The JSON Schema dialect asked of a Standard JSON Schema; libraries may know more. */
export type StandardJsonSchemaTarget = "draft-2020-12" | "draft-07" | "openapi-3.0" | (string & {});

/** The options of a Standard JSON Schema conversion. */
export interface StandardJsonSchemaOptions {
  /** The dialect. */
  readonly target: StandardJsonSchemaTarget;
  /** Options only the library understands. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/**
 * A schema that gives its own JSON Schema through `~standard.jsonSchema`:
 * `input` for what it accepts, `output` for what validation returns.
 *
 * @example
 * ```ts
 * import { toStandardJsonSchema } from "@valibot/to-json-schema";
 * const schema: StandardJsonSchemaV1 = toStandardJsonSchema(v.object({ city: v.string() }));
 * schema["~standard"].jsonSchema.input({ target: "draft-2020-12" });
 * ```
 */
export interface StandardJsonSchemaV1<Input = unknown, Output = Input> {
  /** The standard properties. */
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: StandardSchemaTypes<Input, Output> | undefined;
    readonly jsonSchema: {
      readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
      readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    };
  };
}
