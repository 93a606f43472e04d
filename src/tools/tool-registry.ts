/**
 * A registry of runnable tools with MCP descriptors.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { closestName } from "../shared/closest-name.ts";
import { compileCatalog, type CompiledCatalog } from "./compile-catalog.ts";
import type { ArgumentProblem } from "./explain-schema-errors.ts";
import { toToolJsonSchema, type JsonSchemaConverter } from "./to-tool-json-schema.ts";
import { checkToolSchemas } from "./check-tool-schemas.ts";
import { readJsonSchema } from "./read-json-schema.ts";
import type { JsonSchema, RecordTool, ToolAnnotations, ToolDescriptor } from "./tool-descriptor.ts";

/** What a tool's `execute` receives besides its arguments. */
export interface ToolExecuteOptions {
  /** Fires when the call should stop; pass it on to `fetch` and friends. */
  signal?: AbortSignal | undefined;
  /** An id for this call (the runtime passes the step id). */
  callId: string;
}

/**
 * A tool to register: its MCP descriptor fields and an `execute` function.
 * `inputSchema` (and `outputSchema`) may be a JSON Schema, an AI SDK schema
 * wrapper or a Standard Schema such as a valibot schema (see `toToolJsonSchema`).
 */
export interface ToolDefinition {
  /** The unique tool name. */
  name: string;
  /** A human-readable title. */
  title?: string;
  /** What the tool does; the planner and `selectTools` read it. */
  description?: string;
  /** The arguments' schema; defaults to any object. */
  inputSchema?: unknown;
  /** The structured result's schema, if the tool declares one. */
  outputSchema?: unknown;
  /** MCP hints; the runtime's safety policy reads `readOnlyHint` and `idempotentHint`. */
  annotations?: ToolAnnotations;
  /**
   * Runs the tool.
   *
   * @param args - the validated arguments.
   * @param options - the abort signal and call id.
   * @returns the result.
   */
  execute(args: Record<string, unknown>, options: ToolExecuteOptions): unknown;
}

/** Options of the {@link ToolRegistry} constructor. */
export interface ToolRegistryOptions {
  /** Converts Standard Schemas that cannot convert themselves, e.g. `toJsonSchema` from `@valibot/to-json-schema`. */
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
 * Joins problems into one message.
 *
 * @param subject - e.g. `Tool "search"`.
 * @param problems - the problems.
 * @returns the message.
 */
function describeProblems(subject: string, problems: readonly ArgumentProblem[]): string {
  return problems.map((problem) => `${subject}: ${problem.text} (${problem.pointer === "" ? "/" : problem.pointer})`).join("; ");
}

/**
 * Whether a value is an async iterable (an AI SDK tool may stream its result).
 *
 * @param value - anything.
 * @returns the check.
 */
function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === "function";
}

/**
 * Tools the runtime can call, with the descriptors the planner sees.
 * `register` takes tools with a JSON Schema, an AI SDK schema or a valibot /
 * Standard Schema (see also `fromMcpTools` and `fromAiSdkTools`); `list()`
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
 *   execute: ({ expr }) => ({ value: evaluate(String(expr)) }),
 * });
 * await registry.call("calculator", { expr: "21*2+5" }); // { value: 47 }
 * ```
 */
export class ToolRegistry {
  readonly #tools = new Map<string, { descriptor: ToolDescriptor; execute: ToolDefinition["execute"] }>();
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
   * Adds tools.
   *
   * @param tools - one definition or several.
   * @returns the registry, for chaining.
   * @throws PlankitError `invalid-catalog` for a repeated name, a missing `execute`, or a schema that cannot be converted or is malformed.
   */
  register(tools: ToolDefinition | readonly ToolDefinition[]): this {
    for (const tool of Array.isArray(tools) ? (tools as readonly ToolDefinition[]) : [tools as ToolDefinition]) {
      if (typeof tool.name !== "string" || tool.name === "") throw new PlankitError("invalid-catalog", "A tool needs a non-empty name");
      if (this.#tools.has(tool.name)) throw new PlankitError("invalid-catalog", `Tool "${tool.name}" is already registered`);
      if (typeof tool.execute !== "function") throw new PlankitError("invalid-catalog", `Tool "${tool.name}" has no execute function`);
      const convert = (schema: unknown, what: string): JsonSchema =>
        readJsonSchema(toToolJsonSchema(schema, this.#options.toJsonSchema === undefined ? {} : { toJsonSchema: this.#options.toJsonSchema }), `Tool "${tool.name}" ${what}`);
      const descriptor: ToolDescriptor = {
        name: tool.name,
        description: tool.description ?? "",
        inputSchema: tool.inputSchema === undefined ? { type: "object" } : convert(tool.inputSchema, "input"),
      };
      if (tool.title !== undefined) descriptor.title = tool.title;
      if (tool.outputSchema !== undefined) descriptor.outputSchema = convert(tool.outputSchema, "output");
      if (tool.annotations !== undefined) descriptor.annotations = { ...tool.annotations };
      checkToolSchemas(descriptor);
      this.#tools.set(tool.name, { descriptor, execute: tool.execute });
    }
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
    const record: Record<string, RecordTool> = {};
    for (const { descriptor } of this.#tools.values()) {
      const entry: RecordTool = { description: descriptor.description, input_schema: descriptor.inputSchema };
      if (descriptor.outputSchema !== undefined) entry.output_schema = descriptor.outputSchema;
      if (descriptor.annotations !== undefined) entry.annotations = descriptor.annotations;
      Object.defineProperty(record, descriptor.name, { value: entry, enumerable: true, writable: true, configurable: true });
    }
    return record;
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
   * and (by default) checks a structured result against its output schema.
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
      throw new PlankitError("unknown-tool", `Tool "${name}" is not registered${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`}`);
    }
    const catalog = this.catalog();
    const problems = catalog.checkArguments(name, args);
    if (problems.length > 0) {
      throw new PlankitError("invalid-argument", describeProblems(`Tool "${name}"`, problems), { cause: { problems } });
    }
    if (options.signal?.aborted === true) {
      throw new PlankitError("aborted", `Call of tool "${name}" was aborted before it started`, { cause: options.signal.reason });
    }
    this.#calls++;
    let result = await tool.execute(args as Record<string, unknown>, { signal: options.signal, callId: options.callId ?? `${name}-${this.#calls}` });
    if (isAsyncIterable(result)) {
      let last: unknown;
      for await (const part of result) last = part;
      result = last;
    }
    if (this.#options.validateOutput !== false && tool.descriptor.outputSchema !== undefined) {
      const outputProblems = catalog.checkOutput(name, result);
      if (outputProblems.length > 0) {
        throw new PlankitError("invalid-output", describeProblems(`Tool "${name}" output`, outputProblems), { cause: { problems: outputProblems, result } });
      }
    }
    return result;
  }
}
