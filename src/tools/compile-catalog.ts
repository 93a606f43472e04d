/**
 * A tool catalog with its JSON Schemas compiled once.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { remember } from "../shared/remember.ts";
import { createSchemaValidator, type SchemaError } from "./create-schema-validator.ts";
import {
  type ArgumentProblem,
  type ExplainSchemaErrorsOptions,
  explainSchemaErrors,
  type ReferenceLocations,
} from "./explain-schema-errors.ts";
import { readCatalog, type ToolCatalogInput } from "./read-catalog.ts";
import { parameterNames } from "./schema-navigation.ts";
import type { JsonSchema, ToolDescriptor } from "./tool-descriptor.ts";

const marker = Symbol.for("plankit.compiled-catalog");

/**
 * A catalog ready for repeated checks: descriptors by name, and each tool's
 * input and output schema compiled (lazily, once) into a validating
 * function. Create it with {@link compileCatalog}.
 */
export interface CompiledCatalog {
  /** The descriptors, in catalog order. */
  readonly tools: readonly ToolDescriptor[];
  /**
   * Looks a tool up.
   *
   * @param name - the tool name.
   * @returns the descriptor, or `undefined`.
   */
  get(name: string): ToolDescriptor | undefined;
  /**
   * The tool's top-level parameter names in declaration order.
   *
   * @param name - the tool name.
   * @returns the names (empty for unknown tools).
   */
  parameterNames(name: string): readonly string[];
  /**
   * Checks arguments against the tool's input schema.
   *
   * @param name - a tool in the catalog.
   * @param args - the arguments.
   * @param references - where references sit, so placeholders are not judged as values.
   * @returns the problems (empty when valid).
   * @throws PlankitError `unknown-tool` when the tool is not in the catalog.
   */
  checkArguments(name: string, args: unknown, references?: ReferenceLocations): ArgumentProblem[];
  /**
   * Checks a result against the tool's output schema (valid when it declares none).
   *
   * @param name - a tool in the catalog.
   * @param value - the structured result.
   * @returns the problems (empty when valid).
   * @throws PlankitError `unknown-tool` when the tool is not in the catalog.
   */
  checkOutput(name: string, value: unknown): ArgumentProblem[];
  /**
   * Compiles the input schemas of some tools now rather than on first use —
   * for idle time, such as while a model call waits for its first token.
   * Unknown names, and schemas that fail to compile (the first check
   * reports those), are passed over.
   *
   * @param names - the tools.
   */
  prepare(names: Iterable<string>): void;
}

/** Anything {@link compileCatalog} accepts: a catalog in a protocol's shape (or `normalizeCatalog`'s descriptors of a data set's), an already compiled one, or an object that compiles its own (`ToolRegistry`). */
export type CatalogSource = ToolCatalogInput | CompiledCatalog | { catalog(): CompiledCatalog };

const cache = new WeakMap<object, CompiledCatalog>();

/** A compiled schema: every violation of a value. */
type Validator = (value: unknown) => SchemaError[];

/**
 * Compiles one schema.
 *
 * @param tool - the tool name, for messages.
 * @param schema - the schema.
 * @returns the validator.
 */
function compile(tool: string, schema: JsonSchema): Validator {
  try {
    return createSchemaValidator(schema);
  } catch (error) {
    throw new PlankitError("invalid-catalog", `Tool "${tool}" has a schema that cannot be compiled: ${String(error)}`, {
      cause: error,
    });
  }
}

/**
 * Builds a compiled catalog from descriptors.
 *
 * @param tools - the descriptors.
 * @returns the compiled catalog.
 */
function build(tools: readonly ToolDescriptor[]): CompiledCatalog {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const inputValidators = new Map<string, Validator>();
  const outputValidators = new Map<string, Validator>();
  const names = new Map<string, readonly string[]>();
  const require = (name: string): ToolDescriptor => {
    const tool = byName.get(name);
    if (tool === undefined) throw new PlankitError("unknown-tool", `Tool "${name}" is not in the catalog`);
    return tool;
  };
  const validatorOf = (validators: Map<string, Validator>, tool: ToolDescriptor, schema: JsonSchema): Validator =>
    remember(validators, tool.name, () => compile(tool.name, schema));
  const run = (
    validators: Map<string, Validator>,
    tool: ToolDescriptor,
    schema: JsonSchema,
    value: unknown,
    options: ExplainSchemaErrorsOptions,
  ): ArgumentProblem[] => {
    let errors: SchemaError[];
    try {
      errors = validatorOf(validators, tool, schema)(value);
    } catch (error) {
      // A value nested as deep as a step may go, against a schema that recurses with it, can outrun the stack.
      if (!(error instanceof RangeError)) throw error;
      const text = "the value nests too deeply to be checked against the schema";
      return [{ code: "invalid-argument", pointer: "", argument: "", expected: "", text }];
    }
    return errors.length === 0 ? [] : explainSchemaErrors(schema, value, errors, options);
  };
  const catalog: CompiledCatalog & { [marker]: true } = {
    [marker]: true,
    tools,
    get: (name) => byName.get(name),
    parameterNames: (name) =>
      remember(names, name, () => {
        const tool = byName.get(name);
        return tool === undefined ? [] : parameterNames(tool.inputSchema);
      }),
    checkArguments(name, args, references) {
      const tool = require(name);
      return run(inputValidators, tool, tool.inputSchema, args, references === undefined ? {} : { references });
    },
    checkOutput(name, value) {
      const tool = require(name);
      return tool.outputSchema === undefined
        ? []
        : run(outputValidators, tool, tool.outputSchema, value, { noun: "field" });
    },
    prepare(toolNames) {
      for (const name of toolNames) {
        const tool = byName.get(name);
        if (tool === undefined) continue;
        try {
          validatorOf(inputValidators, tool, tool.inputSchema);
        } catch {
          // Reported by the first checkArguments.
        }
      }
    },
  };
  return catalog;
}

/**
 * Compiles a tool catalog given in a protocol's shape (see
 * `ToolCatalogInput`). The result is cached per input object, and each
 * schema is compiled at most once, on first use, so passing the same catalog
 * array (or record) to `validatePlan`, `validateStep` or `selectTools` again
 * costs a lookup. Treat a catalog as immutable once passed in; pass a new
 * object after changing it.
 *
 * @param source - the catalog, an already compiled catalog, or a `ToolRegistry`.
 * @returns the compiled catalog.
 * @throws PlankitError `invalid-catalog` for a malformed catalog.
 *
 * @example
 * ```ts
 * const catalog = compileCatalog(tools);
 * catalog.checkArguments("calculator", { expr: 42 });
 * // [{ code: "invalid-argument", argument: "expr", expected: "string", … }]
 * ```
 */
export function compileCatalog(source: CatalogSource): CompiledCatalog {
  const input: unknown = source;
  if (typeof input !== "object" || input === null) return build(readCatalog(source));
  if ((input as Record<symbol, unknown>)[marker] === true) return input as CompiledCatalog;
  if (typeof (input as { catalog?: unknown }).catalog === "function")
    return (input as { catalog(): CompiledCatalog }).catalog();
  return remember(cache, input, () => build(readCatalog(source)));
}
