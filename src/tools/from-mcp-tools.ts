/**
 * Registering the tools of an MCP server.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { isRecord } from "../shared/is-record.ts";
import { readCatalog } from "./read-catalog.ts";
import type { ToolDefinition } from "./tool-registry.ts";

/**
 * Calls a tool on an MCP server (`tools/call`), e.g.
 * `(name, args, { signal }) => client.callTool({ name, arguments: args }, undefined, { signal })`.
 */
export type McpToolCaller = (
  name: string,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal | undefined },
) => unknown;

/** Options of {@link fromMcpTools}. */
export interface FromMcpToolsOptions {
  /**
   * Return the `tools/call` result as it is instead of unwrapping it.
   *
   * @defaultValue `false`
   */
  raw?: boolean;
}

/**
 * Unwraps an MCP `tools/call` result: `structuredContent` when present;
 * otherwise the text of an all-text `content` (parsed when it is a JSON
 * object or array, so references can reach into it); otherwise the result as
 * it is. A result with `isError: true` throws.
 *
 * @param name - the tool name, for messages.
 * @param result - the `tools/call` result.
 * @returns the unwrapped value.
 */
function unwrap(name: string, result: unknown): unknown {
  if (!isRecord(result)) return result;
  const content = Array.isArray(result["content"]) ? (result["content"] as unknown[]) : undefined;
  const texts = content?.every((item) => isRecord(item) && item["type"] === "text" && typeof item["text"] === "string")
    ? content.map((item) => (item as { text: string }).text)
    : undefined;
  if (result["isError"] === true) {
    const detail = texts?.join("\n") ?? JSON.stringify(result["content"]) ?? "";
    throw new PlankitError(
      "tool-error",
      `Tool "${name}" reported an error${detail === "" ? " without a message" : `: ${detail}`}`,
      { cause: result },
    );
  }
  if (result["structuredContent"] !== undefined) return result["structuredContent"];
  if (texts === undefined) return result;
  const text = texts.join("\n");
  if (/^\s*[[{]/u.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Turns an MCP `tools/list` result (or its `tools` array) and a function that
 * performs `tools/call` into tool definitions for `ToolRegistry.register`.
 * Descriptors, output schemas and annotations are kept as the server sent them.
 *
 * @param list - the `tools/list` result or its `tools` array.
 * @param caller - performs `tools/call`.
 * @param options - `raw` to skip unwrapping results.
 * @returns the definitions.
 * @throws PlankitError `invalid-catalog` for a malformed list.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register(
 *   fromMcpTools(await client.listTools(), (name, args, { signal }) => client.callTool({ name, arguments: args }, undefined, { signal })),
 * );
 * ```
 */
export function fromMcpTools(
  list: { tools: readonly unknown[] } | readonly unknown[],
  caller: McpToolCaller,
  options: FromMcpToolsOptions = {},
): ToolDefinition[] {
  return readCatalog(list).map(
    (descriptor): ToolDefinition => ({
      ...descriptor,
      async execute(args, { signal }) {
        const result = await caller(descriptor.name, args, { signal });
        return options.raw === true ? result : unwrap(descriptor.name, result);
      },
    }),
  );
}
