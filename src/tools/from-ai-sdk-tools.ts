/**
 * Registering AI SDK `tool()` objects.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { CheckJsonSchema } from "./json-schema-definition.ts";
import type { ToolAnnotations } from "./tool-descriptor.ts";
import type { ToolDefinition } from "./tool-registry.ts";
import type { InferToolArguments, ToolSchema } from "./tool-schema.ts";

/** What an AI SDK tool's `execute` receives besides its input, as plankit calls it. */
export interface AiSdkToolExecuteOptions {
  /** The call id (the runtime passes the step id). */
  toolCallId: string;
  /** Always empty: a plan step has no conversation of its own. */
  messages: unknown[];
  /** Fires when the call should stop. */
  abortSignal?: AbortSignal;
}

/**
 * The parts of an AI SDK `tool()` object plankit uses. Described
 * structurally so that the core never imports `ai`; a plain object with the
 * same fields works too, and its `execute` is typed from its `inputSchema`
 * like a registry tool's.
 *
 * @typeParam Input - the input schema's type.
 */
export interface AiSdkToolLike<Input = unknown> {
  /** What the tool does: a string, or a function of the call context (called with no context). */
  description?: unknown;
  /** A title, when given. */
  title?: unknown;
  /** A Standard Schema (valibot, zod, ArkType), a JSON Schema, or a `jsonSchema()` / `zodSchema()` wrapper. */
  inputSchema?: Input;
  /** The output schema, when given. */
  outputSchema?: unknown;
  /**
   * Runs the tool.
   *
   * @param input - the validated input.
   * @param options - `{ toolCallId, messages: [], abortSignal }`.
   * @returns the result.
   */
  execute?(input: InferToolArguments<Input>, options: AiSdkToolExecuteOptions): unknown;
}

/** Options of {@link fromAiSdkTools}. */
export interface FromAiSdkToolsOptions {
  /** MCP annotations by tool name (AI SDK tools carry none); the runtime's safety policy reads them. */
  annotations?: Readonly<Record<string, ToolAnnotations>>;
}

/**
 * Reads a description given as a string or as a function of the call context.
 *
 * @param description - the tool's description.
 * @returns the text, or `undefined`.
 */
function describe(description: unknown): string | undefined {
  if (typeof description === "string") return description;
  if (typeof description !== "function") return undefined;
  try {
    const text: unknown = (description as (options: { context: undefined }) => unknown)({ context: undefined });
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns an AI SDK tool set (`{ [name]: tool({ description, inputSchema,
 * execute }) }`) into tool definitions for `ToolRegistry.register`. The
 * schemas are converted when registered (a `jsonSchema()` wrapper directly, a
 * Standard JSON Schema by itself, another Standard Schema through the
 * registry's `toJsonSchema` option), and a Standard Schema validates the
 * calls. `execute` receives `{ toolCallId, messages: [], abortSignal }`; in a
 * plain object (not built with `tool()`) its input is typed from `inputSchema`.
 *
 * @param tools - the tool set.
 * @param options - annotations by tool name.
 * @returns the definitions.
 * @throws PlankitError `invalid-catalog` for a tool without `execute` (a client- or provider-side tool), or with AI SDK 4's `parameters` and no `inputSchema`.
 *
 * @example
 * ```ts
 * import { jsonSchema, tool } from "ai";
 * const weather = tool({ description: "Current weather", inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" } } }), execute: async ({ city }) => ({ city, celsius: 21 }) });
 * new ToolRegistry().register(fromAiSdkTools({ weather }, { annotations: { weather: { readOnlyHint: true } } }));
 * ```
 */
export function fromAiSdkTools<
  const Inputs extends Readonly<Record<string, unknown>> & {
    readonly [Name in keyof Inputs]: unknown extends Inputs[Name] ? unknown : CheckJsonSchema<Inputs[Name]>;
  },
>(
  tools: { readonly [Name in keyof Inputs]: AiSdkToolLike<Inputs[Name]> },
  options: FromAiSdkToolsOptions = {},
): ToolDefinition[] {
  return Object.entries(tools as Readonly<Record<string, AiSdkToolLike>>).map(([name, tool]): ToolDefinition => {
    const execute = tool.execute;
    if (typeof execute !== "function") {
      throw new PlankitError(
        "invalid-catalog",
        `AI SDK tool "${name}" has no execute function; plankit can only register tools it can run`,
      );
    }
    // Without this the tool would be offered as taking no arguments.
    if (tool.inputSchema === undefined && (tool as { parameters?: unknown }).parameters !== undefined) {
      throw new PlankitError(
        "invalid-catalog",
        `AI SDK tool "${name}" has parameters but no inputSchema; AI SDK 5 renamed parameters to inputSchema`,
      );
    }
    const run = execute as (
      input: unknown,
      options: { toolCallId: string; messages: unknown[]; abortSignal?: AbortSignal },
    ) => unknown;
    const definition: ToolDefinition = {
      name,
      inputSchema: tool.inputSchema as ToolSchema,
      execute: (args, { signal, callId }) =>
        run(
          args,
          signal === undefined
            ? { toolCallId: callId, messages: [] }
            : { toolCallId: callId, messages: [], abortSignal: signal },
        ),
    };
    const description = describe(tool.description);
    if (description !== undefined) definition.description = description;
    if (typeof tool.title === "string") definition.title = tool.title;
    if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema as ToolSchema;
    const annotations = options.annotations?.[name];
    if (annotations !== undefined) definition.annotations = annotations;
    return definition;
  });
}
