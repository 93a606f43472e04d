/**
 * A safe arithmetic evaluator for the demo calculator: a small
 * recursive-descent parser over a fixed grammar, never `eval`.
 *
 * @module
 */
import { PlankitError } from "../../src/index.ts";

type Token =
  | { kind: "number"; value: number; at: number }
  | { kind: "name"; value: string; at: number }
  | { kind: "operator"; value: string; at: number }
  | { kind: "end"; at: number };

/** The longest expression accepted, in characters. */
const maxLength = 500;
/** The deepest nesting of parentheses and unary signs accepted. */
const maxDepth = 64;

const constants: Readonly<Record<string, number>> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

/** Functions by name, with the number of arguments each accepts (`[min, max]`). */
const functions: Readonly<Record<string, { arity: readonly [number, number]; apply: (args: number[]) => number }>> = {
  sqrt: { arity: [1, 1], apply: ([x = 0]) => Math.sqrt(x) },
  cbrt: { arity: [1, 1], apply: ([x = 0]) => Math.cbrt(x) },
  abs: { arity: [1, 1], apply: ([x = 0]) => Math.abs(x) },
  floor: { arity: [1, 1], apply: ([x = 0]) => Math.floor(x) },
  ceil: { arity: [1, 1], apply: ([x = 0]) => Math.ceil(x) },
  round: { arity: [1, 2], apply: ([x = 0, digits = 0]) => roundTo(x, digits) },
  min: { arity: [1, 32], apply: (args) => Math.min(...args) },
  max: { arity: [1, 32], apply: (args) => Math.max(...args) },
  pow: { arity: [2, 2], apply: ([x = 0, y = 0]) => x ** y },
  hypot: { arity: [1, 32], apply: (args) => Math.hypot(...args) },
  log: { arity: [1, 1], apply: ([x = 0]) => Math.log10(x) },
  log2: { arity: [1, 1], apply: ([x = 0]) => Math.log2(x) },
  ln: { arity: [1, 1], apply: ([x = 0]) => Math.log(x) },
  exp: { arity: [1, 1], apply: ([x = 0]) => Math.exp(x) },
  sin: { arity: [1, 1], apply: ([x = 0]) => Math.sin(x) },
  cos: { arity: [1, 1], apply: ([x = 0]) => Math.cos(x) },
  tan: { arity: [1, 1], apply: ([x = 0]) => Math.tan(x) },
};

/**
 * Rounds to a number of decimal digits, half away from zero.
 *
 * @param value - the number.
 * @param digits - decimal digits, 0 to 12.
 * @returns the rounded number.
 */
function roundTo(value: number, digits: number): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 12) {
    throw new PlankitError("invalid-argument", `round() takes 0 to 12 decimal digits, got ${digits}`);
  }
  const scale = 10 ** digits;
  return (Math.sign(value) * Math.round(Math.abs(value) * scale)) / scale;
}

/**
 * Splits an expression into tokens.
 *
 * @param source - the expression.
 * @returns the tokens, ending with an `end` token.
 */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source[index] ?? "";
    if (/\s/u.test(char)) {
      index++;
      continue;
    }
    const number = /^(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/u.exec(source.slice(index));
    if (number !== null) {
      tokens.push({ kind: "number", value: Number(number[0].replaceAll("_", "")), at: index });
      index += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/u.exec(source.slice(index));
    if (name !== null) {
      tokens.push({ kind: "name", value: name[0].toLowerCase(), at: index });
      index += name[0].length;
      continue;
    }
    if (source.startsWith("**", index)) {
      tokens.push({ kind: "operator", value: "^", at: index });
      index += 2;
      continue;
    }
    const operator = ({ "×": "*", "·": "*", "÷": "/", "−": "-" } as Record<string, string>)[char] ?? char;
    if ("+-*/%^(),".includes(operator)) {
      tokens.push({ kind: "operator", value: operator, at: index });
      index++;
      continue;
    }
    throw new PlankitError(
      "invalid-argument",
      `Unexpected character "${char}" at position ${index + 1} of "${source}"`,
    );
  }
  tokens.push({ kind: "end", at: source.length });
  return tokens;
}

/**
 * Evaluates an arithmetic expression: numbers (`1_000`, `2.5e3`), `+ - * /`,
 * `%` (remainder), `^` or `**` (power, right-associative, binding tighter
 * than a leading minus: `-2^2` is `-4`), parentheses, the constants `pi`,
 * `e` and `tau`, and the functions `sqrt cbrt abs floor ceil round(x, digits)
 * min max pow hypot log (base 10) log2 ln exp sin cos tan`.
 *
 * It is a recursive-descent parser over that grammar and nothing else, so no
 * input can reach the host language; expressions longer than 500 characters
 * or nested deeper than 64 levels are refused.
 *
 * @param expression - the expression.
 * @returns its value, a finite number.
 * @throws PlankitError `invalid-argument` for a syntax error (with its position), an unknown name, a wrong argument count, or a result that is not finite (division by zero, overflow).
 *
 * @example
 * ```ts
 * evaluateArithmetic("21*2+5"); // 47
 * evaluateArithmetic("round(14040000 / 2133000, 2)"); // 6.58
 * ```
 */
export function evaluateArithmetic(expression: string): number {
  if (expression.length > maxLength) {
    throw new PlankitError(
      "invalid-argument",
      `The expression is ${expression.length} characters long; the limit is ${maxLength}`,
    );
  }
  const tokens = tokenize(expression);
  let position = 0;
  let depth = 0;

  const peek = (): Token => tokens[position] ?? { kind: "end", at: expression.length };
  const fail = (token: Token, expected: string): never => {
    const found = token.kind === "end" ? "the end" : `"${String(token.value)}"`;
    throw new PlankitError(
      "invalid-argument",
      `Expected ${expected} at position ${token.at + 1} of "${expression}", found ${found}`,
    );
  };
  const isOperator = (token: Token, ...values: string[]): boolean =>
    token.kind === "operator" && values.includes(token.value);
  const expect = (value: string): void => {
    const token = peek();
    if (!isOperator(token, value)) fail(token, `"${value}"`);
    position++;
  };
  const enter = (token: Token): void => {
    if (++depth > maxDepth)
      throw new PlankitError(
        "invalid-argument",
        `The expression nests deeper than ${maxDepth} levels (position ${token.at + 1})`,
      );
  };

  const parseAdditive = (): number => {
    let value = parseMultiplicative();
    for (let token = peek(); isOperator(token, "+", "-"); token = peek()) {
      position++;
      const right = parseMultiplicative();
      value = token.kind === "operator" && token.value === "+" ? value + right : value - right;
    }
    return value;
  };

  const parseMultiplicative = (): number => {
    let value = parseUnary();
    for (let token = peek(); isOperator(token, "*", "/", "%"); token = peek()) {
      position++;
      const right = parseUnary();
      const operator = token.kind === "operator" ? token.value : "";
      if ((operator === "/" || operator === "%") && right === 0) {
        throw new PlankitError("invalid-argument", `Division by zero at position ${token.at + 1} of "${expression}"`);
      }
      value = operator === "*" ? value * right : operator === "/" ? value / right : value % right;
    }
    return value;
  };

  const parseUnary = (): number => {
    const token = peek();
    if (isOperator(token, "+", "-")) {
      position++;
      enter(token);
      const value = parseUnary();
      depth--;
      return token.kind === "operator" && token.value === "-" ? -value : value;
    }
    return parsePower();
  };

  const parsePower = (): number => {
    const base = parsePrimary();
    const token = peek();
    if (!isOperator(token, "^")) return base;
    position++;
    enter(token);
    const exponent = parseUnary();
    depth--;
    return base ** exponent;
  };

  const parsePrimary = (): number => {
    const token = peek();
    if (token.kind === "number") {
      position++;
      return token.value;
    }
    if (isOperator(token, "(")) {
      position++;
      enter(token);
      const value = parseAdditive();
      depth--;
      expect(")");
      return value;
    }
    if (token.kind === "name") {
      position++;
      const fn = functions[token.value];
      if (fn !== undefined && Object.hasOwn(functions, token.value)) {
        expect("(");
        enter(token);
        const args: number[] = [];
        if (!isOperator(peek(), ")")) {
          args.push(parseAdditive());
          while (isOperator(peek(), ",")) {
            position++;
            args.push(parseAdditive());
          }
        }
        depth--;
        expect(")");
        const [least, most] = fn.arity;
        if (args.length < least || args.length > most) {
          const wanted = least === most ? `${least}` : `${least} to ${most}`;
          throw new PlankitError(
            "invalid-argument",
            `${token.value}() takes ${wanted} argument${most === 1 ? "" : "s"}, got ${args.length}`,
          );
        }
        return fn.apply(args);
      }
      if (Object.hasOwn(constants, token.value)) return constants[token.value] ?? Number.NaN;
      throw new PlankitError(
        "invalid-argument",
        `Unknown name "${token.value}" at position ${token.at + 1}; known: ${[...Object.keys(constants), ...Object.keys(functions)].join(", ")}`,
      );
    }
    return fail(token, 'a number, a name or "("');
  };

  const value = parseAdditive();
  const rest = peek();
  if (rest.kind !== "end") fail(rest, "an operator or the end");
  if (!Number.isFinite(value)) {
    throw new PlankitError(
      "invalid-argument",
      `"${expression}" does not evaluate to a finite number (${String(value)})`,
    );
  }
  return Object.is(value, -0) ? 0 : value;
}
