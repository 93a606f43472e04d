/**
 * A calculator expression as a person would write it.
 *
 * @module
 */

const number = String.raw`-?\d+(?:\.\d+)?`;

/**
 * Writes a number with thousands separators and a minus sign: "2340" →
 * "2,340", "-3" → "−3".
 *
 * @param written - the number as the expression writes it.
 * @returns the number for a reader.
 */
function show(written: string): string {
  const [whole = "", fraction] = written.replace(/^-/u, "").split(".");
  const grouped = whole.replace(/\B(?=(?:\d{3})+$)/gu, ",");
  return `${written.startsWith("-") ? "−" : ""}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
}

/**
 * Removes parentheses that wrap the whole expression.
 *
 * @param expr - the expression.
 * @returns it without them.
 */
function unwrap(expr: string): string {
  let text = expr.trim();
  while (text.startsWith("(") && text.endsWith(")")) {
    let depth = 0;
    let wraps = true;
    for (const [index, sign] of [...text].entries()) {
      depth += sign === "(" ? 1 : sign === ")" ? -1 : 0;
      if (depth === 0 && index < text.length - 1) wraps = false;
    }
    if (!wraps) break;
    text = text.slice(1, -1).trim();
  }
  return text;
}

/** The shapes the request reader writes for percentages, differences and averages, and how to say them. */
const shapes: readonly [RegExp, (...numbers: string[]) => string][] = [
  [new RegExp(`^(${number}) / 100 \\* (${number})$`, "u"), (rate = "", base = "") => `${show(rate)}% of ${show(base)}`],
  [
    new RegExp(`^(${number}) / (${number}) \\* 100$`, "u"),
    (part = "", whole = "") => `${show(part)} as a percentage of ${show(whole)}`,
  ],
  [
    new RegExp(`^(${number}) \\* \\(1 ([+-]) (${number}) / 100\\)$`, "u"),
    (base = "", sign = "", rate = "") => `${show(base)} ${sign === "+" ? "plus" : "minus"} ${show(rate)}%`,
  ],
  [
    new RegExp(`^abs\\((${number}) - (${number})\\)$`, "u"),
    (first = "", second = "") => `the difference between ${show(first)} and ${show(second)}`,
  ],
  [
    new RegExp(`^\\((${number}(?: \\+ ${number})+)\\) / \\d+$`, "u"),
    (list = "") => {
      const all = list.split(" + ").map(show);
      return `the average of ${all.slice(0, -1).join(", ")} and ${all.at(-1) ?? ""}`;
    },
  ],
];

/**
 * Writes a calculator expression as a person would: the percentages,
 * differences and averages the request reader writes in the calculator's
 * syntax in words again ("(15 / 100 * 240)" → "15% of 240"), numbers with
 * thousands separators, "×", "÷" and "−" for the operators, a negative
 * number after an operator in parentheses ("5 - -3" → "5 − (−3)"), and
 * roots as "√" and "∛".
 *
 * @param expr - the expression, in the calculator's syntax.
 * @returns the expression for a reader.
 *
 * @example
 * ```ts
 * describeExpression("(15 / 100 * 2340)"); // "15% of 2,340"
 * describeExpression("5 - -3"); // "5 − (−3)"
 * ```
 */
export function describeExpression(expr: string): string {
  const text = unwrap(expr);
  for (const [shape, say] of shapes) {
    const match = shape.exec(text);
    if (match !== null) return say(...match.slice(1));
  }
  return text
    .replace(/\bsqrt\(([^()]+)\)/gu, "√($1)")
    .replace(/\bcbrt\(([^()]+)\)/gu, "∛($1)")
    .replace(/√\((\d+(?:\.\d+)?)\)/gu, "√$1")
    .replace(/∛\((\d+(?:\.\d+)?)\)/gu, "∛$1")
    .replace(/\s*\*\s*/gu, " × ")
    .replace(/\s*\/\s*/gu, " ÷ ")
    .replace(/(\d|\))\s*-\s*/gu, "$1 − ")
    .replace(/\s*\+\s*/gu, " + ")
    .replace(/\s*\^\s*/gu, "^")
    .replace(/([−+×÷^(]\s*)-(\d+(?:\.\d+)?)/gu, "$1(−$2)")
    .replace(/^-(?=\d)/u, "−")
    .replace(/\d+(?:\.\d+)?/gu, (written) => show(written));
}
