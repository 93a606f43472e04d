/**
 * Arithmetic written inside a request.
 *
 * @module
 */
import { evaluateArithmetic } from "./evaluate-arithmetic.ts";
import { findUnreadNumber } from "./find-unread-number.ts";
import { readNumbers } from "./read-numbers.ts";
import { writePlainNumbers } from "./write-plain-numbers.ts";

const number = String.raw`-?\d+(?:\.\d+)?`;
/** A list of numbers: "1200 and 3450.75", "2, 4 and 9". */
const list = String.raw`(${number}(?:\s*,\s*${number})*\s*,?\s*(?:and|&)\s*${number})`;

/**
 * Writes the operations people name over a list of numbers ("add up 2 and
 * 3", "the average of 2, 4 and 9", "subtract 5 from 12") in the
 * calculator's syntax.
 *
 * @param text - the request, its numbers read.
 * @returns the text with those operations rewritten.
 */
function rewriteLists(text: string): string {
  const numbers = (written: string): string[] => written.match(new RegExp(number, "gu")) ?? [];
  return (
    text
      .replace(
        new RegExp(String.raw`\b(?:add(?:\s+up)?|sum(?:\s+of)?|total\s+of)\s+${list}`, "giu"),
        (_, written: string) => `(${numbers(written).join(" + ")})`,
      )
      .replace(
        new RegExp(String.raw`\b(?:multiply|product\s+of)\s+${list}`, "giu"),
        (_, written: string) => `(${numbers(written).join(" * ")})`,
      )
      .replace(new RegExp(String.raw`\b(?:average|mean)\s+of\s+${list}`, "giu"), (_, written: string) => {
        const all = numbers(written);
        return `((${all.join(" + ")}) / ${all.length})`;
      })
      .replace(
        new RegExp(String.raw`\bdifference\s+between\s+(${number})\s+and\s+(${number})(?![\d.]|\s*\p{L})`, "giu"),
        "abs($1 - $2)",
      )
      .replace(new RegExp(String.raw`\bsubtract\s+(${number})\s+from\s+(${number})`, "giu"), "($2 - $1)")
      // Which percentage one number is of another: "what percent of 2340 is 351", "351 is what percent of 2340".
      .replace(
        new RegExp(String.raw`\bwhat\s+(?:percent|percentage|per cent)\s+of\s+(${number})\s+is\s+(${number})`, "giu"),
        "($2 / $1 * 100)",
      )
      .replace(
        new RegExp(String.raw`\bwhat\s+(?:percent|percentage|per cent)\s+is\s+(${number})\s+of\s+(${number})`, "giu"),
        "($1 / $2 * 100)",
      )
      .replace(
        new RegExp(
          String.raw`(${number})\s+(?:is\s+what|as\s+an?)\s+(?:percent|percentage|per cent)\s+of\s+(${number})`,
          "giu",
        ),
        "($1 / $2 * 100)",
      )
      .replace(
        new RegExp(String.raw`\b(?:increase|raise)\s+(${number})\s+by\s+(${number})\s*(?:%|percent|per cent)`, "giu"),
        "($1 * (1 + $2 / 100))",
      )
      .replace(
        new RegExp(
          String.raw`\b(?:decrease|reduce|lower|discount)\s+(${number})\s+by\s+(${number})\s*(?:%|percent|per cent)`,
          "giu",
        ),
        "($1 * (1 - $2 / 100))",
      )
      .replace(
        new RegExp(String.raw`(${number})\s*(\+|-|plus|minus)\s*(${number})\s*(?:%|percent|per cent)`, "giu"),
        (_, base: string, sign: string, rate: string) =>
          `(${base} * (1 ${sign === "+" || sign.toLowerCase() === "plus" ? "+" : "-"} ${rate} / 100))`,
      )
      .replace(
        new RegExp(String.raw`(${number})\s*(?:%|percent|per cent)\s+off\s+(${number})`, "giu"),
        "($2 * (1 - $1 / 100))",
      )
      .replace(
        new RegExp(
          String.raw`(${number})\s*(?:%|percent|per cent)\s+(?:(?:tip|tax|vat|service|commission|interest|discount)\s+)?(?:of|on)\s+(${number})`,
          "giu",
        ),
        "($1 / 100 * $2)",
      )
  );
}

const words: readonly [RegExp, string][] = [
  [/\bmultiplied by\b/giu, "*"],
  [/\bdivided by\b/giu, "/"],
  [/\btimes\b/giu, "*"],
  [/(\d)\s*[x×]\s*(?=\d)/giu, "$1 * "],
  [/\bplus\b/giu, "+"],
  [/\bminus\b/giu, "-"],
  [/\bsquare root of\s*(\d+(?:\.\d+)?)/giu, "sqrt($1)"],
  [/\bcube root of\s*(\d+(?:\.\d+)?)/giu, "cbrt($1)"],
  [
    /(\d+(?:\.\d+)?)\s*(?:to the power of|raised to(?: the power of)?|to the)\s*(\d+(?:\.\d+)?)(?:st|nd|rd|th)?(?: power)?/giu,
    "$1 ^ $2",
  ],
  [/(\d+(?:\.\d+)?)\s*squared\b/giu, "$1 ^ 2"],
  [/(\d+(?:\.\d+)?)\s*cubed\b/giu, "$1 ^ 3"],
  [/(\d+(?:\.\d+)?)\s*的\s*(\d+(?:\.\d+)?)\s*次方/gu, "$1 ^ $2"],
  [/(\d+(?:\.\d+)?)\s*的\s*平方根/gu, "sqrt($1)"],
  [/(\d+(?:\.\d+)?)\s*的\s*立方根/gu, "cbrt($1)"],
  [/(\d+(?:\.\d+)?)\s*的\s*(\d+(?:\.\d+)?)\s*(?:%|％)/gu, "($2 / 100 * $1)"],
  [/[乘×]以?/gu, " * "],
  [/除以/gu, " / "],
  [/加上?/gu, " + "],
  [/减去?/gu, " - "],
  [/(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)\s+of\s+(\d+(?:\.\d+)?)/giu, "($1 / 100 * $2)"],
];

const candidate =
  /(?:\b(?:sqrt|cbrt|abs|round|floor|ceil|min|max|pow|hypot|log2|log|ln|exp|sin|cos|tan|pi)\b|[\d.()+\-*/^%×÷,\s])+/giu;

/**
 * Finds an arithmetic expression written in a request ("What is 21*2+5?",
 * "12 times 7", "15% of 2,340", "square root of 2", "add up 1,200 and 3.5",
 * "the average of 2, 4 and 9") and returns it in the
 * calculator's syntax — only when the calculator can evaluate it and it has
 * at least one operator or function. Numbers are read whole or not at all:
 * "1.5e3" is 1500, and a request with a number it cannot read whole
 * ("1e309", "1 000") has no expression.
 *
 * @param text - the request.
 * @returns the expression, or `undefined` when the text holds none.
 *
 * @example
 * ```ts
 * extractExpression("What is 21*2+5?"); // "21*2+5"
 * extractExpression("what's 15% of 80"); // "(15 / 100 * 80)"
 * ```
 */
export function extractExpression(text: string): string | undefined {
  // A number read in part ("1.5e3" as "3") would give an answer about another number: none rather than that.
  const plain = writePlainNumbers(text);
  if (findUnreadNumber(plain, true) !== undefined) return undefined;
  let rewritten = rewriteLists(readNumbers(plain));
  for (const [pattern, replacement] of words) rewritten = rewritten.replace(pattern, replacement);
  let best: string | undefined;
  for (const match of rewritten.matchAll(candidate)) {
    const expression = match[0]
      .trim()
      .replace(/^[,)]+|[,(.]+$/gu, "")
      .trim();
    if (!/\d/u.test(expression) || !/[+\-*/^%×÷(]/u.test(expression.replace(/^-/u, ""))) continue;
    try {
      evaluateArithmetic(expression);
    } catch {
      continue;
    }
    if (best === undefined || expression.length > best.length) best = expression;
  }
  return best;
}
