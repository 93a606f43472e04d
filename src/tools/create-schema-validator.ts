/**
 * A compact JSON Schema validator that reports every violation.
 *
 * @module
 */
import { escapePointerSegment } from "../plan/find-references.ts";
import { matchesStringFormat } from "./matches-string-format.ts";
import { isSchemaObject, schemaDraft, splitPointer } from "./schema-navigation.ts";
import type { JsonSchema } from "./tool-descriptor.ts";

/** One violated keyword. */
export interface SchemaError {
  /** The keyword that failed (`type`, `required`, …), or `false` for a `false` schema. */
  keyword: string;
  /** A JSON Pointer (URI-encoded segments) to the keyword in the schema; a `$ref` followed shows as a `$ref` segment. */
  keywordLocation: string;
  /** A JSON Pointer to the failing value in the instance (`""` is the instance itself). */
  instanceLocation: string;
  /** A sentence saying what is wrong. */
  error: string;
  /** The property a `required`, `dependentRequired` or `dependencies` keyword misses, or a `false` `additionalProperties` or `unevaluatedProperties` refuses. */
  property?: string;
  /** For `oneOf`: how many alternatives matched. */
  matches?: number;
}

/** Keywords whose value maps names to schemas: their keys are not keywords. */
const schemaMaps = /^(?:properties|patternProperties|\$defs|definitions|dependentSchemas|dependencies)$/u;

/** Keywords whose value is data, not schemas. */
const dataKeywords = /^(?:enum|const|default|examples)$/u;

/** The reference keywords, all treated as a plain `$ref`. */
const referenceKeywords = ["$ref", "$dynamicRef", "$recursiveRef"] as const;

/**
 * The JSON type of a value.
 *
 * @param value - any value.
 * @returns `null`, `array`, `object`, `number`, `string`, `boolean` (or another `typeof`).
 */
function typeOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/**
 * JSON equality: same type and, for arrays and objects, equal members.
 *
 * @param a - a value.
 * @param b - another value.
 * @returns whether they are equal.
 */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeOf(a) !== typeOf(b) || typeof a !== "object" || a === null) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b as object).length &&
    keys.every(
      (key) =>
        Object.hasOwn(b as object, key) &&
        equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

/**
 * Whether a number is a multiple of another, tolerating binary rounding (0.3 is a multiple of 0.1).
 *
 * @param value - the number.
 * @param divisor - a positive number.
 * @returns the check.
 */
function isMultiple(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  return Number.isFinite(quotient) && Math.abs(quotient - Math.round(quotient)) <= Math.abs(quotient) * 4e-16;
}

/**
 * Compiles a JSON Schema (draft 04, 06, 07, 2019-09 or 2020-12, picked by
 * `$schema`) into a function that returns every violation of a value, not
 * only the first. Checked: `type`, `enum`, `const`, the object, array,
 * number and string keywords, the `allOf` / `anyOf` / `oneOf` / `not` /
 * `if` applicators, `unevaluatedProperties` / `unevaluatedItems`, `$ref`
 * (local pointers, `$anchor`s and `$id`s of the document; `$dynamicRef` and
 * `$recursiveRef` as plain references) and the formats
 * `matchesStringFormat` knows. Unknown keywords and formats are ignored.
 * Errors of subschemas that only pass them on (`properties`, `allOf`, `$ref`,
 * …) are left out: the errors beneath them say more.
 *
 * @param schema - the root schema.
 * @returns the validating function: the errors of a value, empty when it is valid.
 * @throws Error when a reference resolves to no schema or a `pattern` is no regular expression.
 *
 * @example
 * ```ts
 * const validate = createSchemaValidator({ type: "object", required: ["q"] });
 * validate({});
 * // [{ keyword: "required", keywordLocation: "/required", instanceLocation: "", property: "q", error: … }]
 * ```
 */
export function createSchemaValidator(schema: JsonSchema): (instance: unknown) => SchemaError[] {
  const draft = schemaDraft(schema);
  const legacy = draft === "4" || draft === "7";
  const resources = new Map<string, unknown>();
  const bases = new Map<object, string>();
  const references = new Map<object, [string, unknown][]>();
  const expressions = new Map<string, RegExp>();
  const regex = (pattern: string): RegExp => {
    let expression = expressions.get(pattern);
    if (expression === undefined) {
      try {
        expression = new RegExp(pattern, "u");
      } catch {
        // Patterns written for other engines (`[\w-]`) are valid without the Unicode flag.
        try {
          expression = new RegExp(pattern);
        } catch {
          throw new Error(`pattern ${JSON.stringify(pattern)} is not a valid regular expression`);
        }
      }
      expressions.set(pattern, expression);
    }
    return expression;
  };
  const index = (node: unknown, base: string, map: boolean): void => {
    if (typeof node !== "object" || node === null) return;
    if (Array.isArray(node) || map) {
      for (const child of Object.values(node)) index(child, base, false);
      return;
    }
    const record = node as JsonSchema;
    const id = record["$id"] ?? (draft === "4" ? record["id"] : undefined);
    if (typeof id === "string") {
      if (id.startsWith("#")) resources.set(base + id, node);
      else {
        base = new URL(id, base).href.replace(/#.*/su, "");
        resources.set(base, node);
      }
    }
    for (const anchor of [record["$anchor"], record["$dynamicAnchor"]])
      if (typeof anchor === "string") resources.set(`${base}#${anchor}`, node);
    bases.set(node, base);
    for (const [key, child] of Object.entries(record))
      if (!dataKeywords.test(key)) index(child, base, schemaMaps.test(key));
  };
  const root = "https://schema.invalid/";
  resources.set(root, schema);
  index(schema, root, false);
  for (const [node, base] of bases) {
    const record = node as JsonSchema;
    const found: [string, unknown][] = [];
    for (const keyword of referenceKeywords) {
      const ref = record[keyword];
      if (typeof ref !== "string") continue;
      let target: unknown;
      try {
        const url = new URL(ref, base);
        const fragment = url.hash;
        url.hash = "";
        target = resources.get(url.href + (fragment.startsWith("#/") ? "" : fragment));
        if (fragment.startsWith("#/"))
          for (const segment of splitPointer(fragment))
            target = typeof target === "object" && target !== null ? (target as JsonSchema)[segment] : undefined;
      } catch {
        target = undefined;
      }
      if (typeof target !== "boolean" && !isSchemaObject(target))
        throw new Error(`${keyword} ${JSON.stringify(ref)} resolves to no schema of the document`);
      found.push([keyword, target]);
    }
    if (found.length > 0) references.set(node, found);
    if (typeof record["pattern"] === "string") regex(record["pattern"]);
    if (isSchemaObject(record["patternProperties"])) for (const pattern in record["patternProperties"]) regex(pattern);
  }

  let errors: SchemaError[] = [];
  // The references being followed, with the instance location each applies to: one seen again is a cycle.
  const active: [unknown, string][] = [];
  const segment = (key: string): string => encodeURIComponent(escapePointerSegment(key));

  /**
   * Checks a value against a schema, adding the errors.
   *
   * @param node - the schema.
   * @param value - the value.
   * @param at - the value's instance location.
   * @param path - the schema's keyword location.
   * @param seen - collects the properties or items this schema evaluates, for `unevaluated*`.
   * @returns whether the value is valid.
   */
  const check = (node: unknown, value: unknown, at: string, path: string, seen: Set<unknown>): boolean => {
    const start = errors.length;
    if (node === false) {
      errors.push({
        keyword: "false",
        keywordLocation: path,
        instanceLocation: at,
        error: "No value is allowed here.",
      });
      return false;
    }
    if (!isSchemaObject(node)) return true;
    const fail = (keyword: string, error: string, extra?: Partial<SchemaError>): void => {
      errors.push({ keyword, keywordLocation: `${path}/${keyword}`, instanceLocation: at, error, ...extra });
    };
    // A subschema applied to the same value: what it evaluates counts only when it passes.
    const inPlace = (sub: unknown, subPath: string): boolean => {
      const own = new Set<unknown>();
      const valid = check(sub, value, at, subPath, own);
      if (valid) for (const key of own) seen.add(key);
      return valid;
    };
    // A subschema whose errors and evaluations are thrown away: not, if, contains.
    const test = (sub: unknown, item: unknown, itemAt: string, subPath: string, into?: Set<unknown>): boolean => {
      const mark = errors.length;
      const valid = check(sub, item, itemAt, subPath, into ?? new Set());
      errors.length = mark;
      return valid;
    };
    const child = (sub: unknown, key: string | number, subPath: string): void => {
      seen.add(key);
      check(
        sub,
        (value as Record<string, unknown>)[key],
        `${at}/${escapePointerSegment(String(key))}`,
        subPath,
        new Set(),
      );
    };

    for (const [keyword, target] of references.get(node) ?? []) {
      if (active.some(([schema, location]) => schema === target && location === at)) continue;
      active.push([target, at]);
      inPlace(target, `${path}/${keyword}`);
      active.pop();
    }
    // Before 2019-09, a $ref's siblings are ignored.
    if (legacy && typeof node["$ref"] === "string") return errors.length === start;

    const type = typeOf(value);
    if (node["type"] !== undefined) {
      const types = [node["type"]].flat();
      if (!types.some((name) => name === type || (name === "integer" && Number.isInteger(value))))
        fail("type", `Instance type "${type}" is invalid. Expected "${types.join('", "')}".`);
    }
    if (node["const"] !== undefined && !equal(value, node["const"]))
      fail("const", `Value is not ${JSON.stringify(node["const"])}.`);
    if (Array.isArray(node["enum"]) && !node["enum"].some((member) => equal(value, member)))
      fail("enum", `Value is none of ${JSON.stringify(node["enum"])}.`);
    if (node["not"] !== undefined && test(node["not"], value, at, `${path}/not`))
      fail("not", "Value matches the excluded schema.");
    for (const keyword of ["anyOf", "allOf", "oneOf"]) {
      const list = node[keyword];
      if (!Array.isArray(list)) continue;
      const mark = errors.length;
      let matches = 0;
      list.forEach((sub, position) => {
        if (inPlace(sub, `${path}/${keyword}/${position}`)) matches++;
      });
      if (keyword === "allOf" || (keyword === "anyOf" ? matches > 0 : matches === 1)) {
        if (keyword !== "allOf") errors.length = mark;
      } else {
        const error = `Value matches ${matches} of the alternatives, expected ${keyword === "anyOf" ? "one or more" : "exactly one"}.`;
        errors.splice(mark, 0, {
          keyword,
          keywordLocation: `${path}/${keyword}`,
          instanceLocation: at,
          error,
          matches,
        });
      }
    }
    if (node["if"] !== undefined) {
      const own = new Set<unknown>();
      const condition = test(node["if"], value, at, `${path}/if`, own);
      if (condition) for (const key of own) seen.add(key);
      const branch = condition ? "then" : "else";
      if (node[branch] !== undefined) inPlace(node[branch], `${path}/${branch}`);
    }

    if (type === "object") {
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object);
      const has = (key: unknown): boolean => typeof key === "string" && Object.hasOwn(object, key);
      const missing = (keyword: string, property: unknown, error: string): void => {
        if (!has(property)) fail(keyword, error, { property: String(property) });
      };
      if (Array.isArray(node["required"]))
        for (const key of node["required"]) missing("required", key, `Required property "${String(key)}" is missing.`);
      const { minProperties, maxProperties } = node;
      if (typeof minProperties === "number" && keys.length < minProperties)
        fail("minProperties", `Object has ${keys.length} properties, fewer than ${minProperties}.`);
      if (typeof maxProperties === "number" && keys.length > maxProperties)
        fail("maxProperties", `Object has ${keys.length} properties, more than ${maxProperties}.`);
      if (node["propertyNames"] !== undefined)
        for (const key of keys)
          check(node["propertyNames"], key, `${at}/${escapePointerSegment(key)}`, `${path}/propertyNames`, new Set());
      for (const keyword of ["dependentRequired", "dependentSchemas", "dependencies"]) {
        const map = node[keyword];
        if (!isSchemaObject(map)) continue;
        for (const [key, dependency] of Object.entries(map)) {
          if (!has(key)) continue;
          if (Array.isArray(dependency))
            for (const other of dependency)
              missing(keyword, other, `Property "${key}" requires property "${String(other)}", which is missing.`);
          else if (keyword !== "dependentRequired") inPlace(dependency, `${path}/${keyword}/${segment(key)}`);
        }
      }
      const local = new Set<unknown>();
      const properties = node["properties"];
      if (isSchemaObject(properties))
        for (const key in properties)
          if (has(key)) child(properties[key], key, `${path}/properties/${segment(key)}`), local.add(key);
      const patterns = node["patternProperties"];
      if (isSchemaObject(patterns))
        for (const pattern in patterns)
          for (const key of keys)
            if (regex(pattern).test(key))
              child(patterns[pattern], key, `${path}/patternProperties/${segment(pattern)}`), local.add(key);
      const rest = (keyword: string, done: Set<unknown>): void => {
        const sub = node[keyword];
        if (sub === undefined) return;
        for (const key of keys) {
          if (done.has(key)) continue;
          if (sub === false) fail(keyword, `Property "${key}" is not allowed.`, { property: key });
          child(sub === false ? true : sub, key, `${path}/${keyword}`);
        }
      };
      rest("additionalProperties", local);
      rest("unevaluatedProperties", seen);
    } else if (type === "array") {
      const array = value as unknown[];
      const { minItems, maxItems } = node;
      if (typeof maxItems === "number" && array.length > maxItems)
        fail("maxItems", `Array has ${array.length} items, more than ${maxItems}.`);
      if (typeof minItems === "number" && array.length < minItems)
        fail("minItems", `Array has ${array.length} items, fewer than ${minItems}.`);
      const tuple = Array.isArray(node["prefixItems"]) ? "prefixItems" : Array.isArray(node["items"]) ? "items" : "";
      const prefix = tuple === "" ? [] : (node[tuple] as unknown[]);
      const restKeyword = tuple === "items" ? "additionalItems" : "items";
      array.forEach((_, position) => {
        if (position < prefix.length) child(prefix[position], position, `${path}/${tuple}/${position}`);
        else if (node[restKeyword] !== undefined) child(node[restKeyword], position, `${path}/${restKeyword}`);
      });
      if (node["contains"] !== undefined) {
        let count = 0;
        array.forEach((item, position) => {
          if (test(node["contains"], item, `${at}/${position}`, `${path}/contains`)) count++, seen.add(position);
        });
        const { minContains, maxContains } = node;
        if (count < (typeof minContains === "number" ? minContains : 1))
          fail(
            minContains === undefined ? "contains" : "minContains",
            `Array has ${count} matching items. Expected at least ${String(minContains ?? 1)}.`,
          );
        else if (typeof maxContains === "number" && count > maxContains)
          fail("maxContains", `Array has ${count} matching items. Expected at most ${maxContains}.`);
      }
      if (node["unevaluatedItems"] !== undefined)
        array.forEach((_, position) => {
          if (!seen.has(position)) child(node["unevaluatedItems"], position, `${path}/unevaluatedItems`);
        });
      if (
        node["uniqueItems"] === true &&
        array.some((item, position) => array.findIndex((other) => equal(item, other)) < position)
      )
        fail("uniqueItems", "Array has duplicate items.");
    } else if (type === "number") {
      const number = value as number;
      const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = node;
      // Draft-04 writes a strict bound as a boolean beside minimum or maximum.
      if (typeof minimum === "number" && (number < minimum || (exclusiveMinimum === true && number === minimum)))
        fail("minimum", `${number} is below the minimum ${minimum}.`);
      if (typeof maximum === "number" && (number > maximum || (exclusiveMaximum === true && number === maximum)))
        fail("maximum", `${number} is above the maximum ${maximum}.`);
      if (typeof exclusiveMinimum === "number" && number <= exclusiveMinimum)
        fail("exclusiveMinimum", `${number} is not above ${exclusiveMinimum}.`);
      if (typeof exclusiveMaximum === "number" && number >= exclusiveMaximum)
        fail("exclusiveMaximum", `${number} is not below ${exclusiveMaximum}.`);
      if (typeof multipleOf === "number" && !isMultiple(number, multipleOf))
        fail("multipleOf", `${number} is not a multiple of ${multipleOf}.`);
    } else if (type === "string") {
      const string = value as string;
      const { minLength, maxLength, pattern, format } = node;
      // Lengths count code points: an emoji is one character, not two UTF-16 units.
      let length = 0;
      if (minLength !== undefined || maxLength !== undefined) for (const _ of string) length++;
      if (typeof minLength === "number" && length < minLength)
        fail("minLength", `String has ${length} characters, fewer than ${minLength}.`);
      if (typeof maxLength === "number" && length > maxLength)
        fail("maxLength", `String has ${length} characters, more than ${maxLength}.`);
      if (typeof pattern === "string" && !regex(pattern).test(string))
        fail("pattern", "String does not match the pattern.");
      if (typeof format === "string" && !matchesStringFormat(format, string))
        fail("format", `String is not in format "${format}".`);
    }
    return errors.length === start;
  };

  return (instance) => {
    errors = [];
    check(schema, instance, "", "", new Set());
    return errors;
  };
}
