/**
 * The MCP shape of a tool, as plankit passes it around.
 *
 * @module
 */

/** A JSON Schema object (draft 2020-12 unless its `$schema` says otherwise). */
export type JsonSchema = Record<string, unknown>;

/**
 * MCP tool annotations, read by the runtime's safety policy with MCP's
 * defaults when absent (`readOnlyHint` false, `destructiveHint` true,
 * `idempotentHint` false, `openWorldHint` true): only read-only tools start
 * while the plan still streams or are cached; idempotent ones may be retried.
 * Unknown keys are kept.
 */
export interface ToolAnnotations {
  /** A human-readable title. */
  title?: string;
  /** The tool does not change its environment. */
  readOnlyHint?: boolean;
  /** The tool may perform destructive updates. */
  destructiveHint?: boolean;
  /** Calling the tool again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool talks to an open world of external entities. */
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/**
 * A tool as listed by MCP `tools/list`: name, description, JSON Schemas of
 * its input (and optionally its structured output), annotations.
 *
 * @example
 * ```ts
 * const calculator: ToolDescriptor = {
 *   name: "calculator",
 *   description: "Evaluate an arithmetic expression",
 *   inputSchema: { type: "object", properties: { expr: { type: "string" } }, required: ["expr"] },
 *   annotations: { readOnlyHint: true },
 * };
 * ```
 */
export interface ToolDescriptor {
  /** The unique tool name. */
  name: string;
  /** A human-readable title. */
  title?: string;
  /** What the tool does (empty when none was given). */
  description: string;
  /** The JSON Schema of the arguments object. */
  inputSchema: JsonSchema;
  /** The JSON Schema of the structured result, when declared. */
  outputSchema?: JsonSchema;
  /** MCP behaviour hints. */
  annotations?: ToolAnnotations;
}

/** A tool in the record shape, keyed by name: `{ [name]: { description, input_schema } }`. */
export interface RecordTool {
  description?: string;
  input_schema?: JsonSchema;
  inputSchema?: JsonSchema;
  parameters?: JsonSchema;
  output_schema?: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  title?: string;
}
