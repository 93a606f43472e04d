/**
 * The demo calculator tool.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { evaluateArithmetic } from "./evaluate-arithmetic.ts";

/**
 * Creates the `calculator` tool: evaluates an arithmetic expression with
 * {@link evaluateArithmetic} (a parser, never `eval`). Read-only and idempotent,
 * so the runtime may start it while the plan still streams.
 *
 * @returns the tool definition.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register(createCalculatorTool());
 * await registry.call("calculator", { expr: "round(10 / 3, 2)" }); // { expr: "round(10 / 3, 2)", value: 3.33 }
 * ```
 */
export function createCalculatorTool(): ToolDefinition {
  return {
    name: "calculator",
    title: "Calculator",
    description:
      "Evaluate an arithmetic expression: + - * / % ^, parentheses, pi, e, and sqrt abs round(x, digits) min max log ln exp sin cos tan. Use it for ratios, differences, sums and percentages.",
    inputSchema: {
      type: "object",
      properties: {
        expr: {
          type: "string",
          minLength: 1,
          maxLength: 500,
          description: "The expression, e.g. round(14040000 / 2133111, 2)",
        },
      },
      required: ["expr"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { expr: { type: "string" }, value: { type: "number" } },
      required: ["expr", "value"],
    },
    annotations: {
      title: "Calculator",
      readOnlyHint: true,
      idempotentHint: true,
      destructiveHint: false,
      openWorldHint: false,
    },
    execute: ({ expr }) => {
      const expression = String(expr);
      return { expr: expression, value: evaluateArithmetic(expression) };
    },
  };
}
