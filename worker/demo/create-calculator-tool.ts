/**
 * The demo calculator tool.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { evaluateArithmetic } from "./evaluate-arithmetic.ts";

/**
 * Writes a result as the other demo tools do: thousands separators, at most
 * six decimals ("5,072.86"); a value too large or too small for that keeps
 * its exponent ("1e+21", "2e-9").
 *
 * @param value - the result.
 * @returns the value for a reader.
 */
function formatValue(value: number): string {
  const size = Math.abs(value);
  if (!Number.isFinite(value) || size >= 1e21 || (size !== 0 && size < 1e-6)) return String(value);
  return value.toLocaleString("en-US", { maximumFractionDigits: 6 });
}

/**
 * Creates the `calculator` tool: evaluates an arithmetic expression with
 * {@link evaluateArithmetic} (a parser, never `eval`), and gives the value
 * as a number and as text with thousands separators. Read-only and idempotent,
 * so the runtime may start it while the plan still streams.
 *
 * @returns the tool definition.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register(createCalculatorTool());
 * await registry.call("calculator", { expr: "round(10 / 3, 2)" }); // { expr: "round(10 / 3, 2)", value: 3.33, text: "3.33" }
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
      properties: { expr: { type: "string" }, value: { type: "number" }, text: { type: "string" } },
      required: ["expr", "value", "text"],
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
      const value = evaluateArithmetic(expression);
      return { expr: expression, value, text: formatValue(value) };
    },
  };
}
