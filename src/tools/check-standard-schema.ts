/**
 * Validating a tool's arguments or result with a Standard Schema's own
 * `~standard.validate`, with problems in the shape the JSON Schema checks use.
 *
 * @module
 */
import { escapePointerSegment } from "../plan/find-references.ts";
import { describeValue } from "../shared/describe-value.ts";
import type { ArgumentProblem } from "./explain-schema-errors.ts";
import type { StandardSchemaIssue, StandardSchemaV1 } from "./standard-schema.ts";

/** What {@link checkStandardSchema} found: the validated value, or the problems. */
export type StandardSchemaCheck = { ok: true; value: unknown } | { ok: false; problems: ArgumentProblem[] };

/**
 * Turns one issue into a problem: the JSON pointer and the readable name of
 * its path, the value found there, and the library's message.
 *
 * @param issue - the Standard Schema issue.
 * @param root - the validated value.
 * @param noun - `argument` or `field`.
 * @returns the problem.
 */
function toProblem(issue: StandardSchemaIssue, root: unknown, noun: string): ArgumentProblem {
  let node = root;
  let present = true;
  let pointer = "";
  let name = "";
  for (const segment of issue.path ?? []) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    // String names a symbol as its toString does: `Symbol(description)`.
    const text = String(key);
    pointer += `/${escapePointerSegment(text)}`;
    name += typeof key === "number" ? `[${text}]` : name === "" ? text : `.${text}`;
    const parent = node;
    present = typeof parent === "object" && parent !== null && Object.hasOwn(parent, key);
    node = present ? (parent as Record<PropertyKey, unknown>)[key] : undefined;
  }
  const label = name === "" ? `(${noun === "field" ? "result" : "arguments"})` : name;
  if (!present) {
    const text = `missing required ${noun} "${label}": ${issue.message}`;
    return { code: "missing-argument", pointer, argument: label, expected: "", text };
  }
  const text = `${noun} "${label}" is ${describeValue(node)}: ${issue.message}`;
  return { code: "invalid-argument", pointer, argument: label, expected: "", actual: node, text };
}

/**
 * Validates a value with a Standard Schema's own `validate` (sync or async).
 *
 * @param schema - the Standard Schema.
 * @param value - the arguments or the result.
 * @param noun - what the value's parts are called in messages.
 * @returns the validated (possibly transformed) value, or one problem per issue.
 *
 * @example
 * ```ts
 * await checkStandardSchema(v.object({ a: v.number() }), { a: "1" }, "argument");
 * // { ok: false, problems: [{ pointer: "/a", text: 'argument "a" is "1": Invalid type: Expected number but received "1"', … }] }
 * ```
 */
export async function checkStandardSchema(
  schema: StandardSchemaV1,
  value: unknown,
  noun: "argument" | "field",
): Promise<StandardSchemaCheck> {
  const result = await schema["~standard"].validate(value);
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, problems: result.issues.map((issue) => toProblem(issue, value, noun)) };
}
