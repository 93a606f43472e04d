/**
 * Turning JSON Schema validation errors into problems people (and models) can act on.
 *
 * @module
 */
import { escapePointerSegment } from "../plan/find-references.ts";
import { describeValue } from "../shared/describe-value.ts";
import type { SchemaError } from "./create-schema-validator.ts";
import { isSchemaObject, schemaHoldingKeyword, splitJsonPointer } from "./schema-navigation.ts";
import type { JsonSchema } from "./tool-descriptor.ts";

/** One argument that does not satisfy a tool's input schema. */
export interface ArgumentProblem {
  /** `missing-argument` for an absent required property (at any depth), `invalid-argument` otherwise. */
  code: "missing-argument" | "invalid-argument";
  /** A JSON Pointer into the arguments object (`""` is the object itself). */
  pointer: string;
  /** The argument as people write it: `query`, `filters.from`, `items[1].qty`. */
  argument: string;
  /** What the schema expects there: `integer`, `one of "a", "b"`, … (empty for missing and unexpected arguments). */
  expected: string;
  /** The offending value (absent for missing arguments). */
  actual?: unknown;
  /** A sentence fragment without subject or location, e.g. `argument "n" is "two", expected integer`. */
  text: string;
}

/** Options of {@link explainSchemaErrors}. */
export interface ExplainSchemaErrorsOptions {
  /** Where references sit in the instance. */
  references?: ReferenceLocations;
  /**
   * What the instance's parts are called in the text.
   *
   * @defaultValue `"argument"`
   */
  noun?: "argument" | "field";
}

/** Where references sit in the arguments, so their placeholders are not judged as values. */
export interface ReferenceLocations {
  /** Pointers of strings that are exactly one reference: any value may arrive there. */
  exact: ReadonlySet<string>;
  /** Pointers of strings with a reference inside text: a string arrives, its content is unknown. */
  embedded: ReadonlySet<string>;
}

/**
 * Whether a keyword judges a string's content, which a reference inside text makes unknowable.
 *
 * @param keyword - a failing keyword.
 * @returns whether a reference embedded in the string excuses its error.
 */
function isContentKeyword(keyword: string): boolean {
  // Stryker disable next-line Regex: no keyword the validator reports holds one of these with more before or after it.
  return /^(?:format|pattern|enum|const|m(?:in|ax)Length|anyOf|oneOf|not)$/u.test(keyword);
}

/**
 * Reads the value at a pointer, and renders the pointer the way people write
 * it: an array's index in brackets, an object's key (digits or not) after a dot.
 *
 * @param root - the arguments, which tell an index from a key of digits.
 * @param pointer - a JSON Pointer into the arguments.
 * @returns the value (or `undefined`), and `query`, `filters.from`, `items[1].qty`, or `(arguments)` for the root.
 */
function locate(root: unknown, pointer: string): [value: unknown, name: string] {
  let node = root;
  let name = "";
  for (const segment of splitJsonPointer(pointer)) {
    // Stryker disable next-line all: error locations lie inside the instance, so every node on the way is an object or an array.
    const container = typeof node === "object" && node !== null;
    // Where the value is not there to say, digits read as an index.
    const index = container ? Array.isArray(node) : /^\d+$/u.test(segment);
    name += index ? `[${segment}]` : name === "" ? segment : `.${segment}`;
    node = container ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return [node, pointer === "" ? "(arguments)" : name];
}

/**
 * Describes the value of a `type` keyword.
 *
 * @param value - a type name or a list of them.
 * @returns `integer`, `string or null`, …
 */
function describeTypes(value: unknown): string {
  return Array.isArray(value) ? value.join(" or ") : String(value);
}

/**
 * Describes what a keyword of a schema asks for.
 *
 * @param keyword - the failing keyword.
 * @param schema - the schema holding it.
 * @returns a phrase such as `integer` or `a string in format "date"`, or `undefined` when unknown.
 */
function expectation(keyword: string, schema: JsonSchema): string | undefined {
  const value = schema[keyword];
  // Stryker disable next-line Regex,ArrayDeclaration: no keyword the validator reports holds a bound's name with more before or after it; a keyword that is none leaves side undefined whatever the fallback holds.
  const [, strict, side, kind] = /^(exclusiveM|m)(in|ax)(imum|Length|Items|Properties)$/u.exec(keyword) ?? [];
  if (side !== undefined) {
    const bound = `at ${side === "in" ? "least" : "most"} ${String(value)}`;
    switch (kind) {
      case "Length":
        return `a string of ${bound} characters`;
      case "Items":
        return `an array of ${bound} items`;
      case "Properties":
        return `an object with ${bound} properties`;
    }
    // Draft-04's boolean exclusiveMinimum / exclusiveMaximum fail as minimum / maximum.
    const exclusive = strict !== "m" || schema[`exclusiveM${side}imum`] === true;
    return `a number ${side === "in" ? ">" : "<"}${exclusive ? "" : "="} ${String(value)}`;
  }
  switch (keyword) {
    case "type":
      return describeTypes(value);
    case "enum":
      // A long enum (time zones, currencies) would bury the message: the first 20 and the count.
      return Array.isArray(value)
        ? `one of ${value
            .slice(0, 20)
            .map((item) => describeValue(item, 40))
            .join(", ")}${value.length > 20 ? `, … (${value.length} in all)` : ""}`
        : undefined;
    case "const":
      return describeValue(value);
    case "format":
      return `a string in format "${String(value)}"`;
    case "pattern":
      return `a string matching /${String(value)}/`;
    case "multipleOf":
      return `a multiple of ${String(value)}`;
    case "uniqueItems":
      return "an array without duplicate items";
    case "contains":
      return "an array containing a matching item";
    case "not":
      return "a value not matching the excluded schema";
  }
  return undefined;
}

/**
 * Turns the errors of `createSchemaValidator` into one problem per actual
 * violation: `anyOf`/`oneOf` become one problem listing the alternatives; an
 * unexpected property under `additionalProperties: false` becomes one
 * problem naming the accepted ones. Errors caused by reference placeholders
 * (see {@link ReferenceLocations}) are left out.
 *
 * @param schema - the root schema that was validated against.
 * @param instance - the validated arguments.
 * @param errors - the validator's errors.
 * @param options - where references sit in `instance`; the noun for its parts.
 * @returns the problems, in the validator's order, without duplicates.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { n: { type: "integer" } } };
 * explainSchemaErrors(schema, { n: "two" }, createSchemaValidator(schema)({ n: "two" }));
 * // [{ code: "invalid-argument", pointer: "/n", argument: "n", expected: "integer", actual: "two", text: 'argument "n" is "two", expected integer' }]
 * ```
 */
export function explainSchemaErrors(
  schema: JsonSchema,
  instance: unknown,
  errors: readonly SchemaError[],
  options: ExplainSchemaErrorsOptions = {},
): ArgumentProblem[] {
  const references = options.references ?? { exact: new Set(), embedded: new Set() };
  const noun = options.noun ?? "argument";
  const name = (pointer: string): string =>
    pointer === "" && noun === "field" ? "(result)" : locate(instance, pointer)[1];
  const problems: (ArgumentProblem & { keyword?: string })[] = [];
  const seen = new Set<string>();
  const consumed = new Set<number>();
  const add = (problem: ArgumentProblem & { keyword?: string }): void => {
    const key = `${problem.code} ${problem.pointer} ${problem.text}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  };
  const excused = (pointer: string, keyword: string): boolean => {
    for (const at of references.exact) if (pointer === at || pointer.startsWith(`${at}/`)) return true;
    return references.embedded.has(pointer) && isContentKeyword(keyword);
  };
  const invalid = (pointer: string, expected: string, fallback: string, keyword: string): void => {
    const [actual] = locate(instance, pointer);
    const phrase = expected === "" ? fallback : `expected ${expected}`;
    add({
      code: "invalid-argument",
      pointer,
      argument: name(pointer),
      expected,
      actual,
      text: `${noun} "${name(pointer)}" is ${describeValue(actual)}, ${phrase}`,
      keyword,
    });
  };

  const unexpected = (pointer: string, list: string): void => {
    add({
      code: "invalid-argument",
      pointer,
      argument: name(pointer),
      expected: "",
      actual: locate(instance, pointer)[0],
      text: `unexpected ${noun} "${name(pointer)}"${list}`,
    });
  };

  errors.forEach((error, index) => {
    if (consumed.has(index)) return;
    const { keyword, property, instanceLocation: pointer } = error;
    const holder = schemaHoldingKeyword(schema, error.keywordLocation);
    if (keyword === "anyOf" || keyword === "oneOf") {
      const branches: string[] = [];
      errors.forEach((other, otherIndex) => {
        // The errors of the alternatives follow their anyOf / oneOf.
        if (other.keywordLocation.startsWith(`${error.keywordLocation}/`)) {
          consumed.add(otherIndex);
          if (other.keyword === "type" && other.instanceLocation === pointer) {
            const branch = schemaHoldingKeyword(schema, other.keywordLocation);
            if (branch !== undefined) branches.push(describeTypes(branch["type"]));
          }
        }
      });
      if (excused(pointer, keyword)) return;
      const alternatives = Array.isArray(holder?.[keyword]) ? (holder[keyword] as unknown[]).length : 0;
      const expected =
        // A oneOf that no alternative matches fails like an anyOf; one that several match needs telling apart.
        error.matches !== 0
          ? "exactly one matching alternative"
          : branches.length === alternatives && branches.length > 0
            ? [...new Set(branches)].join(" or ")
            : `a value matching one of ${alternatives || "the"} alternatives`;
      invalid(pointer, expected, error.error, keyword);
      return;
    }
    // A property that additionalProperties or unevaluatedProperties refuses, or that required,
    // dependentRequired or draft-07's dependencies miss.
    if (property !== undefined) {
      const at = `${pointer}/${escapePointerSegment(property)}`;
      if (keyword === "additionalProperties" || keyword === "unevaluatedProperties") {
        // A key the schema does not accept is unexpected whatever its value, a reference included.
        const accepted = isSchemaObject(holder?.["properties"]) ? Object.keys(holder["properties"]) : [];
        unexpected(at, accepted.length === 0 ? "" : ` (accepted: ${accepted.join(", ")})`);
      } else if (!excused(pointer, keyword)) {
        add({
          code: "missing-argument",
          pointer: at,
          argument: name(at),
          expected: "",
          text: `missing required ${noun} "${name(at)}"`,
        });
      }
      return;
    }
    if (excused(pointer, keyword)) return;
    if (keyword === "false") unexpected(pointer, "");
    else
      invalid(
        pointer,
        (holder === undefined ? undefined : expectation(keyword, holder)) ?? "",
        error.error.replace(/\.$/u, ""),
        keyword,
      );
  });
  // One complaint per value: an enum (or const) says the most, then the type,
  // which explains the rest (a number fails a string's pattern because it is not a string).
  const rank = (keyword: string | undefined): number =>
    keyword === "enum" || keyword === "const" ? 2 : keyword === "type" ? 1 : 0;
  const best = new Map<string, number>();
  // Problems without a keyword (missing or unexpected arguments) rank 0 and stand alone at their pointer.
  for (const problem of problems)
    best.set(problem.pointer, Math.max(best.get(problem.pointer) ?? 0, rank(problem.keyword)));
  return problems
    .filter((problem) => rank(problem.keyword) >= (best.get(problem.pointer) ?? 0))
    .map(({ keyword: _keyword, ...problem }) => problem);
}
