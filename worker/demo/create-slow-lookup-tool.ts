/**
 * The deliberately slow demo lookup tool.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { knowledgeFactJsonSchema } from "./knowledge-fact-json-schema.ts";
import { lookupFact } from "./lookup-fact.ts";
import { toFactResult } from "./to-fact-result.ts";
import { wait } from "./wait.ts";

/** Options of {@link createSlowLookupTool}. */
export interface SlowLookupToolOptions {
  /**
   * How long a lookup takes when the call does not say, in milliseconds.
   *
   * @defaultValue `1500`
   */
  delayMs?: number;
  /**
   * Waits `ms`, rejecting when the signal fires; inject one in tests.
   *
   * @defaultValue a `setTimeout` wait
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Creates the `slow_lookup` tool: the same lookup as `kb_lookup`, from a
 * slow "archive" that takes `delayMs` (at most 5 s) per call, to show
 * parallel steps, timings, timeouts and cancellation. The wait stops at once
 * when the call's signal fires. Read-only and idempotent.
 *
 * @param options - the default delay and the wait.
 * @returns the tool definition.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register(createSlowLookupTool({ delayMs: 200 }));
 * await registry.call("slow_lookup", { query: "height of Mount Everest" }); // { value: 8848.86, latencyMs: 200, … }
 * ```
 */
export function createSlowLookupTool(options: SlowLookupToolOptions = {}): ToolDefinition {
  const defaultDelay = options.delayMs ?? 1500;
  const sleep = options.sleep ?? wait;
  return {
    name: "slow_lookup",
    title: "Archive lookup (slow)",
    description:
      "Look up one fact in the slow archive (the same facts as kb_lookup, with a verified source), taking about 1.5 seconds. Use it when the request asks for a thorough, deep or archive lookup.",
    inputSchema: {
      type: "object",
      properties: {
        query: {
          type: "string",
          minLength: 1,
          maxLength: 200,
          description: "The attribute and the subject, e.g. height of Mount Everest",
        },
        delayMs: {
          type: "integer",
          minimum: 0,
          maximum: 5000,
          description: "How long the lookup takes, in milliseconds",
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    outputSchema: {
      ...knowledgeFactJsonSchema,
      properties: {
        ...(knowledgeFactJsonSchema["properties"] as Record<string, unknown>),
        latencyMs: { type: "number" },
      },
      required: [...(knowledgeFactJsonSchema["required"] as string[]), "latencyMs"],
    },
    annotations: {
      title: "Archive lookup (slow)",
      readOnlyHint: true,
      idempotentHint: true,
      destructiveHint: false,
      openWorldHint: false,
    },
    execute: async ({ query, delayMs }, { signal }) => {
      const latencyMs = typeof delayMs === "number" ? delayMs : defaultDelay;
      await sleep(latencyMs, signal);
      return { ...toFactResult(lookupFact(String(query))), latencyMs };
    },
  };
}
