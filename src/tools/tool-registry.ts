/**
 * A registry of runnable tools with MCP descriptors.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { closestName } from "../shared/closest-name.ts";
import { describeValue } from "../shared/describe-value.ts";
import { checkStandardSchema, type StandardSchemaCheck } from "./check-standard-schema.ts";
import { checkToolSchemas } from "./check-tool-schemas.ts";
import { type CompiledCatalog, compileCatalog } from "./compile-catalog.ts";
import type { ArgumentProblem } from "./explain-schema-errors.ts";
import type { CheckJsonSchema } from "./json-schema-definition.ts";
import { readJsonSchema } from "./read-json-schema.ts";
import type { StandardSchemaV1 } from "./standard-schema.ts";
import { type JsonSchemaConverter, toToolJsonSchema } from "./to-tool-json-schema.ts";
import type { JsonSchema, RecordTool, ToolAnnotations, ToolDescriptor } from "./tool-descriptor.ts";
import type { InferToolArguments, InferToolResult, ToolSchema } from "./tool-schema.ts";

/** What a tool's `execute` receives besides its arguments. */
export interface ToolExecuteOptions {
  /** Fires when the call should stop; pass it on to `fetch` and friends. */
  signal?: AbortSignal | undefined;
  /** An id for this call (the runtime passes the step id). */
  callId: string;
}

/** What a tool's `execute` may return: the result, a promise of it, or an async iterable whose last value is the result. */
export type ToolExecuteResult<Result> = unknown extends Result
  ? unknown
  : Result | PromiseLike<Result> | AsyncIterable<Result>;

/**
 * A tool to register: its MCP descriptor fields and an `execute` function.
 * `inputSchema` (and `outputSchema`) is a Standard Schema (valibot, zod,
 * ArkType, Effect Schema), a Standard JSON Schema, or a plain JSON Schema
 * (see {@link ToolSchema}); `execute`'s arguments are typed from it, and from
 * a JSON Schema when it is written as a literal (`as const`, or inline in
 * `register` and `defineTool`).
 *
 * @typeParam Input - the input schema's type; without it `execute` takes `Record<string, unknown>`.
 * @typeParam Output - the output schema's type; without it `execute` may return anything.
 * @typeParam Args - what `execute` receives, inferred from `Input`.
 * @typeParam Result - what `execute` returns, inferred from `Output`.
 */
export interface ToolDefinition<
  Input extends ToolSchema = ToolSchema,
  Output extends ToolSchema = ToolSchema,
  Args = InferToolArguments<Input>,
  Result = InferToolResult<Output>,
> {
  /** The unique tool name. */
  name: string;
  /** A human-readable title. */
  title?: string;
  /** What the tool does; the planner and `selectTools` read it. */
  description?: string;
  /** The arguments' schema; defaults to any object. */
  inputSchema?: Input;
  /** The structured result's schema, if the tool declares one. */
  outputSchema?: Output;
  /** MCP hints; the runtime's safety policy reads `readOnlyHint` and `idempotentHint`. */
  annotations?: ToolAnnotations;
  /**
   * Runs the tool.
   *
   * @param args - the validated arguments (for a Standard Schema, the value its validation returned).
   * @param options - the abort signal and call id.
   * @returns the result.
   */
  execute(args: Args, options: ToolExecuteOptions): ToolExecuteResult<Result>;
}

/** Options of the {@link ToolRegistry} constructor. */
export interface ToolRegistryOptions {
  /**
   * Gives the JSON Schema of a Standard Schema that cannot give it itself (one with no
   * `~standard.jsonSchema`), e.g. `toJsonSchema` from `@valibot/to-json-schema`.
   */
  toJsonSchema?: JsonSchemaConverter;
  /**
   * Check results against a declared `outputSchema` and throw `invalid-output` when they do not match.
   *
   * @defaultValue `true`
   */
  validateOutput?: boolean;
}

/** Options of {@link ToolRegistry.call}. */
export interface ToolCallOptions {
  /** Cancels the call; reaches the tool's `execute`. */
  signal?: AbortSignal;
  /** An id for this call, passed to `execute`; defaults to `<name>-<counter>`. */
  callId?: string;
}

/**
 * The error for arguments or a result that did not pass their schema: every problem, joined.
 *
 * @param code - `invalid-argument` or `invalid-output`.
 * @param subject - e.g. `Tool "search"`.
 * @param problems - the problems.
 * @param cause - what the error carries.
 * @returns the error.
 */
function refusal(
  code: "invalid-argument" | "invalid-output",
  subject: string,
  problems: readonly ArgumentProblem[],
  cause: object,
): PlankitError {
  const message = problems.map(({ text, pointer }) => `${subject}: ${text} (${pointer || "/"})`).join("; ");
  return new PlankitError(code, message, { cause });
}

/**
 * A JSON Schema check in the shape of a Standard Schema one.
 *
 * @param problems - what the compiled JSON Schema found.
 * @param value - the value checked, passed on as it is.
 * @returns the check.
 */
function checked(problems: ArgumentProblem[], value: unknown): StandardSchemaCheck {
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

/**
 * Whether a value is an async iterable (an AI SDK tool may stream its result).
 *
 * @param value - anything.
 * @returns the check.
 */
function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === "function"
  );
}

/** A registered tool: its descriptor, its function, and the Standard Schemas that validate its calls. */
interface RegisteredTool {
  descriptor: ToolDescriptor;
  execute: ToolDefinition["execute"];
  input: StandardSchemaV1 | undefined;
  output: StandardSchemaV1 | undefined;
}

/**
 * The Standard Schema of a tool schema that validates by itself.
 *
 * @param schema - the tool's input or output schema.
 * @returns the schema when it has `~standard.validate`.
 */
function validatorOf(schema: unknown): StandardSchemaV1 | undefined {
  if ((typeof schema !== "object" && typeof schema !== "function") || schema === null) return undefined;
  const standard = (schema as { "~standard"?: { validate?: unknown } })["~standard"];
  return typeof standard?.validate === "function" ? (schema as StandardSchemaV1) : undefined;
}

/** The tool names MCP allows (letters, digits, `_`, `-`, `.`, `/`; 1 to 128): what no provider can take is refused. */
const toolNamePattern = /^[A-Za-z0-9_./-]{1,128}$/u;

/**
 * Tools the runtime can call, with the descriptors the planner sees.
 * `register` takes tools with a JSON Schema, a Standard Schema (valibot, zod,
 * ArkType) or an AI SDK schema, and types `execute` from it (see also
 * `defineTool`, `fromMcpTools` and `fromAiSdkTools`); `list()`
 * gives the MCP `tools/list` shape, `describe()` the record shape
 * (`{ [name]: { description, input_schema } }`),
 * and `call()` validates the arguments against the compiled schema before
 * running the tool. A registry can be passed anywhere a catalog is taken
 * (`validatePlan`, `selectTools`, …).
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register({
 *   name: "calculator",
 *   description: "Evaluate an arithmetic expression",
 *   inputSchema: { type: "object", properties: { expr: { type: "string" } }, required: ["expr"] },
 *   annotations: { readOnlyHint: true },
 *   execute: ({ expr }) => ({ value: evaluate(expr) }),
 * });
 * await registry.call("calculator", { expr: "21*2+5" }); // { value: 47 }
 * ```
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #options: ToolRegistryOptions;
  #compiled: CompiledCatalog | undefined;
  #calls = 0;

  /**
   * @param options - the Standard Schema converter and output validation.
   */
  constructor(options: ToolRegistryOptions = {}) {
    this.#options = options;
  }

  /**
   * Adds tools. A tool's `inputSchema` and `outputSchema` are turned into JSON
   * Schema once, here (see `toToolJsonSchema`); a Standard Schema also
   * validates every call's arguments and result with its own `~standard.validate`.
   * Each tool of a list keeps its own argument type.
   *
   * @param tools - several definitions.
   * @returns the registry, for chaining.
   * @throws PlankitError `invalid-catalog` for a repeated name, a missing `execute`, or a schema that cannot be converted or is malformed; then none of the list is added.
   */
  register<
    const Inputs extends readonly ToolSchema[] & { readonly [Index in keyof Inputs]: CheckJsonSchema<Inputs[Index]> },
  >(
    tools: {
      // A list mixes output schemas, so their result types are not compared.
      readonly [Index in keyof Inputs]: ToolDefinition<Inputs[Index], any>;
    },
  ): this;
  /**
   * Adds a tool, with `execute` typed from its schemas (see {@link ToolDefinition}).
   *
   * @param tool - one definition.
   * @returns the registry, for chaining.
   * @throws PlankitError `invalid-catalog` for a repeated name, a missing `execute`, or a schema that cannot be converted or is malformed.
   */
  register<
    const Input extends ToolSchema & CheckJsonSchema<Input> = ToolSchema,
    const Output extends ToolSchema & CheckJsonSchema<Output> = ToolSchema,
  >(tool: ToolDefinition<Input, Output>): this;
  register(tools: unknown): this {
    const list: unknown[] = Array.isArray(tools) ? tools : [tools];
    // All or nothing: a refused tool leaves the registry (and its compiled catalog) as it was.
    const added = new Map<string, RegisteredTool>();
    for (const [index, tool] of (list as ToolDefinition[]).entries()) {
      if (typeof tool?.name !== "string" || tool.name === "")
        throw new PlankitError(
          "invalid-catalog",
          `${Array.isArray(tools) ? `Tool [${index}]` : "A tool"} must be an object with a name (a non-empty string) and an execute function, got ${describeValue(tool)}`,
        );
      if (!toolNamePattern.test(tool.name)) {
        throw new PlankitError(
          "invalid-catalog",
          `Tool name ${JSON.stringify(tool.name)} does not match MCP's ${String(toolNamePattern)}, so providers refuse it (OpenAI and Anthropic take only letters, digits, _ and -, 64 at most)`,
        );
      }
      if (this.#tools.has(tool.name) || added.has(tool.name))
        throw new PlankitError("invalid-catalog", `Tool "${tool.name}" is already registered`);
      if (typeof tool.execute !== "function")
        throw new PlankitError("invalid-catalog", `Tool "${tool.name}" has no execute function`);
      const convert = (schema: unknown, side: "input" | "output"): JsonSchema => {
        const what = `Tool "${tool.name}" ${side}`;
        // The registry's toJsonSchema converter goes along; its other options are not read there.
        return readJsonSchema(toToolJsonSchema(schema, { ...this.#options, side, what }), what);
      };
      const descriptor: ToolDescriptor = {
        name: tool.name,
        description: tool.description ?? "",
        inputSchema: tool.inputSchema === undefined ? { type: "object" } : convert(tool.inputSchema, "input"),
      };
      if (tool.title !== undefined) descriptor.title = tool.title;
      if (tool.outputSchema !== undefined) descriptor.outputSchema = convert(tool.outputSchema, "output");
      if (tool.annotations !== undefined) descriptor.annotations = { ...tool.annotations };
      checkToolSchemas(descriptor);
      const rootType = descriptor.inputSchema.type;
      if (rootType !== undefined && rootType !== "object")
        throw new PlankitError(
          "invalid-catalog",
          `Tool "${tool.name}" input schema has type ${describeValue(rootType)}; MCP and the providers take only type "object" (named arguments): wrap it as { type: "object", properties: { value: <this schema> } }`,
        );
      added.set(tool.name, {
        descriptor,
        execute: tool.execute,
        input: validatorOf(tool.inputSchema),
        output: validatorOf(tool.outputSchema),
      });
    }
    for (const [name, entry] of added) this.#tools.set(name, entry);
    this.#compiled = undefined;
    return this;
  }

  /**
   * Whether a tool is registered.
   *
   * @param name - the tool name.
   * @returns the check.
   */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /**
   * The descriptor of one tool.
   *
   * @param name - the tool name.
   * @returns the MCP descriptor, or `undefined`.
   */
  get(name: string): ToolDescriptor | undefined {
    return this.#tools.get(name)?.descriptor;
  }

  /**
   * The tools in MCP `tools/list` shape, in registration order.
   *
   * @returns the descriptors.
   */
  list(): ToolDescriptor[] {
    return [...this.#tools.values()].map(({ descriptor }) => descriptor);
  }

  /**
   * The tools in the record shape, for prompts that use it.
   *
   * @returns `{ [name]: { description, input_schema } }`.
   */
  describe(): Record<string, RecordTool> {
    // fromEntries makes every name an own property, `__proto__` included.
    return Object.fromEntries(
      this.list().map((descriptor) => {
        const entry: RecordTool = { description: descriptor.description, input_schema: descriptor.inputSchema };
        if (descriptor.outputSchema !== undefined) entry.output_schema = descriptor.outputSchema;
        if (descriptor.annotations !== undefined) entry.annotations = descriptor.annotations;
        return [descriptor.name, entry];
      }),
    );
  }

  /**
   * The compiled catalog of the registered tools, rebuilt only after `register`.
   *
   * @returns the compiled catalog.
   */
  catalog(): CompiledCatalog {
    this.#compiled ??= compileCatalog(this.list());
    return this.#compiled;
  }

  /**
   * Validates the arguments against the tool's input schema, runs the tool
   * and (by default) checks a structured result against its output schema. A
   * Standard Schema validates with its own `~standard.validate`, and the value
   * it returns is what `execute` receives (and what `call` returns for an output schema).
   *
   * @param name - the tool name.
   * @param args - the arguments (references already resolved).
   * @param options - the abort signal and call id.
   * @returns the tool's result (the last value when `execute` returns an async iterable).
   * @throws PlankitError `unknown-tool`, `invalid-argument` (every problem in the message, `cause: { problems }`), `aborted`, `invalid-output`; errors thrown by the tool pass through.
   */
  async call(name: string, args: unknown, options: ToolCallOptions = {}): Promise<unknown> {
    const tool = this.#tools.get(name);
    if (tool === undefined) {
      const suggestion = closestName(name, [...this.#tools.keys()]);
      throw new PlankitError(
        "unknown-tool",
        `Tool "${name}" is not registered${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`}`,
      );
    }
    const catalog = this.catalog();
    const input =
      tool.input === undefined
        ? checked(catalog.checkArguments(name, args), args)
        : await checkStandardSchema(tool.input, args, "argument");
    if (!input.ok) throw refusal("invalid-argument", `Tool "${name}"`, input.problems, { problems: input.problems });
    if (options.signal?.aborted === true) {
      throw new PlankitError("aborted", `Call of tool "${name}" was aborted before it started`, {
        cause: options.signal.reason,
      });
    }
    this.#calls++;
    const callId = options.callId ?? `${name}-${this.#calls}`;
    let result: unknown = await tool.execute(input.value as Record<string, unknown>, {
      signal: options.signal,
      callId,
    });
    if (isAsyncIterable(result)) {
      let last: unknown;
      for await (const part of result) last = part;
      result = last;
    }
    if (this.#options.validateOutput === false || tool.descriptor.outputSchema === undefined) return result;
    const output =
      tool.output === undefined
        ? checked(catalog.checkOutput(name, result), result)
        : await checkStandardSchema(tool.output, result, "field");
    if (!output.ok)
      throw refusal("invalid-output", `Tool "${name}" output`, output.problems, { problems: output.problems, result });
    return output.value;
  }
}
