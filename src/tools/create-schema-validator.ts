/**
 * A compact JSON Schema validator that reports every violation.
 *
 * @module
 */
import { escapePointerSegment } from "../plan/find-references.ts";
import { describeValue } from "../shared/describe-value.ts";
import { remember } from "../shared/remember.ts";
import { indexSchemaDocument } from "./index-schema-document.ts";
import { isMultipleOf } from "./is-multiple-of.ts";
import { jsonEqual } from "./json-equal.ts";
import { matchesStringFormat } from "./matches-string-format.ts";
import { isSchemaObject, schemaDraft } from "./schema-navigation.ts";
import type { JsonSchema } from "./tool-descriptor.ts";

/** One violated keyword. */
export interface SchemaError {
  /** The keyword that failed (`type`, `required`, …), or `false` for a `false` schema. */
  keyword: string;
  /** A JSON Pointer to the keyword in the schema; a `$ref` followed shows as a `$ref` segment. */
  keywordLocation: string;
  /** A JSON Pointer to the failing value in the instance (`""` is the instance itself). */
  instanceLocation: string;
  /** What is wrong, e.g. `fails minimum 3`. */
  error: string;
  /** The property a `required`, `dependentRequired` or `dependencies` keyword misses, or a `false` `additionalProperties` or `unevaluatedProperties` refuses. */
  property?: string;
  /** For `anyOf` and `oneOf`: how many alternatives matched. */
  matches?: number;
}

/** One validation: the errors so far, the references being followed, and the compiled document. */
interface Run {
  errors: SchemaError[];
  /** The targets of the references being followed, with the instance location each applies to: one seen again is a cycle. */
  active: [unknown, string][];
  references: Map<JsonSchema, [string, unknown][]>;
  regex: (pattern: string) => RegExp;
  /** Before 2019-09, a `$ref`'s siblings are ignored. */
  legacy: boolean;
  /** Whether the document uses `unevaluatedProperties` or `unevaluatedItems`: only then is what each schema evaluates collected. */
  tracking: boolean;
}

/** The applicators over alternatives, in the order they are checked. */
const alternatives = ["anyOf", "allOf", "oneOf"] as const;

/** The keywords that make properties depend on another's presence. */
const dependents = ["dependentRequired", "dependentSchemas", "dependencies"] as const;

/** The keywords for the properties that the other keywords leave. */
const leftovers = ["additionalProperties", "unevaluatedProperties"] as const;

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
 * Records that a keyword of a schema failed.
 *
 * @param run - the validation.
 * @param node - the schema.
 * @param keyword - the keyword.
 * @param path - the schema's keyword location.
 * @param at - the value's instance location.
 * @param extra - a sentence of its own, a property, a count.
 */
function fail(
  run: Run,
  node: JsonSchema,
  keyword: string,
  path: string,
  at: string,
  extra?: Partial<SchemaError>,
): void {
  run.errors.push({
    keyword,
    keywordLocation: `${path}/${keyword}`,
    instanceLocation: at,
    error: `fails ${keyword} ${describeValue(node[keyword])}`,
    ...extra,
  });
}

/**
 * Applies a subschema to the same value: what it evaluates counts only when it passes.
 *
 * @param run - the validation.
 * @param sub - the subschema.
 * @param value - the value.
 * @param at - the value's instance location.
 * @param path - the subschema's keyword location.
 * @param seen - the evaluated properties or items of the schema applying it.
 * @returns whether the value passes.
 */
function inPlace(run: Run, sub: unknown, value: unknown, at: string, path: string, seen?: Set<unknown>): boolean {
  const own = seen && new Set<unknown>();
  const valid = check(run, sub, value, at, path, own);
  if (valid && own) for (const key of own) seen?.add(key);
  return valid;
}

/**
 * Applies a subschema and forgets its errors (for `not`, `if` and `contains`).
 *
 * @param run - the validation.
 * @param sub - the subschema.
 * @param value - the value.
 * @param at - the value's instance location.
 * @param path - the subschema's keyword location.
 * @param seen - the evaluated properties or items of the schema applying it.
 * @returns whether the value passes.
 */
function passes(run: Run, sub: unknown, value: unknown, at: string, path: string, seen?: Set<unknown>): boolean {
  const mark = run.errors.length;
  const valid = inPlace(run, sub, value, at, path, seen);
  run.errors.length = mark;
  return valid;
}

/**
 * Applies a subschema to a property or item.
 *
 * @param run - the validation.
 * @param sub - the subschema.
 * @param parent - the object or array.
 * @param key - the property or index.
 * @param at - the parent's instance location.
 * @param path - the subschema's keyword location.
 * @param seen - records the key as evaluated by the parent's schema.
 * @param local - records it as evaluated by properties or patternProperties.
 */
function child(
  run: Run,
  sub: unknown,
  parent: unknown,
  key: string | number,
  at: string,
  path: string,
  seen?: Set<unknown>,
  local?: Set<unknown>,
): void {
  seen?.add(key);
  local?.add(key);
  const item = (parent as Record<string, unknown>)[key];
  const itemAt = `${at}/${typeof key === "number" ? key : escapePointerSegment(key)}`;
  check(run, sub, item, itemAt, path, run.tracking ? new Set() : undefined);
}

/** The size keywords of each type; a lower bound's name starts `min` or `exclusiveMin`. */
const limits: Readonly<Record<string, readonly string[]>> = {
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  string: ["minLength", "maxLength"],
  array: ["minItems", "maxItems"],
  object: ["minProperties", "maxProperties"],
};

/**
 * Checks the size keywords of a value's type: `minimum` / `maximum` (strict
 * with draft-04's boolean `exclusiveMinimum` / `exclusiveMaximum`) and the
 * numeric `exclusiveMinimum` / `exclusiveMaximum` for numbers; `minLength` /
 * `maxLength`, `minItems` / `maxItems`, `minProperties` / `maxProperties`.
 *
 * @param run - the validation.
 * @param node - the schema.
 * @param type - the value's type.
 * @param size - the number, or the length or count.
 * @param at - the value's instance location.
 * @param path - the schema's keyword location.
 */
function checkLimits(run: Run, node: JsonSchema, type: string, size: number, at: string, path: string): void {
  for (const keyword of limits[type] ?? []) {
    const limit = node[keyword];
    if (typeof limit !== "number") continue;
    const excess = /^(?:exclusiveM|m)in/u.test(keyword) ? limit - size : size - limit;
    // `exclusiveM` + `inimum` or `aximum`: draft-04's boolean that makes minimum or maximum strict.
    const strict =
      keyword.startsWith("exclusive") || (type === "number" && node[`exclusiveM${keyword.slice(1)}`] === true);
    if (excess > 0 || (excess === 0 && strict)) fail(run, node, keyword, path, at);
  }
}

/**
 * Checks the keywords of an object instance.
 *
 * @param run - the validation.
 * @param node - the schema.
 * @param object - the object.
 * @param at - its instance location.
 * @param path - the schema's keyword location.
 * @param seen - collects the properties this schema evaluates.
 */
function checkObject(
  run: Run,
  node: JsonSchema,
  object: Record<string, unknown>,
  at: string,
  path: string,
  seen?: Set<unknown>,
): void {
  const keys = Object.keys(object);
  const missing = (keyword: string, property: unknown): void => {
    if (typeof property === "string" && !Object.hasOwn(object, property))
      fail(run, node, keyword, path, at, { property });
  };
  if (Array.isArray(node["required"])) for (const key of node["required"]) missing("required", key);
  checkLimits(run, node, "object", keys.length, at, path);
  if (node["propertyNames"] !== undefined)
    for (const key of keys)
      check(run, node["propertyNames"], key, `${at}/${escapePointerSegment(key)}`, `${path}/propertyNames`);
  for (const keyword of dependents) {
    const map = node[keyword];
    if (isSchemaObject(map))
      for (const key in map) {
        if (!Object.hasOwn(object, key)) continue;
        const dependency = map[key];
        if (Array.isArray(dependency)) for (const other of dependency) missing(keyword, other);
        else inPlace(run, dependency, object, at, `${path}/${keyword}/${escapePointerSegment(key)}`, seen);
      }
  }
  const local = new Set<unknown>();
  const properties = node["properties"];
  if (isSchemaObject(properties))
    for (const key in properties)
      if (Object.hasOwn(object, key))
        child(run, properties[key], object, key, at, `${path}/properties/${escapePointerSegment(key)}`, seen, local);
  const patterns = node["patternProperties"];
  if (isSchemaObject(patterns))
    for (const pattern in patterns)
      for (const key of keys)
        if (run.regex(pattern).test(key))
          child(
            run,
            patterns[pattern],
            object,
            key,
            at,
            `${path}/patternProperties/${escapePointerSegment(pattern)}`,
            seen,
            local,
          );
  for (const keyword of leftovers) {
    const sub = node[keyword];
    // Tracking is on whenever the document has unevaluatedProperties, so seen is then a set.
    const done = keyword === "additionalProperties" ? local : (seen ?? local);
    if (sub !== undefined)
      for (const key of keys)
        if (!done.has(key)) {
          if (sub === false) fail(run, node, keyword, path, at, { property: key });
          child(run, sub === false || sub, object, key, at, `${path}/${keyword}`, seen, local);
        }
  }
}

/**
 * Checks the keywords of an array instance.
 *
 * @param run - the validation.
 * @param node - the schema.
 * @param array - the array.
 * @param at - its instance location.
 * @param path - the schema's keyword location.
 * @param seen - collects the items this schema evaluates.
 */
function checkArray(run: Run, node: JsonSchema, array: unknown[], at: string, path: string, seen?: Set<unknown>): void {
  checkLimits(run, node, "array", array.length, at, path);
  // 2020-12 writes a tuple as prefixItems then items; earlier drafts as an items list then additionalItems.
  const tuple = Array.isArray(node["prefixItems"]) ? "prefixItems" : Array.isArray(node["items"]) ? "items" : "";
  const prefix = tuple === "" ? [] : (node[tuple] as unknown[]);
  const rest = tuple === "items" ? "additionalItems" : "items";
  array.forEach((_, position) => {
    if (position < prefix.length)
      child(run, prefix[position], array, position, at, `${path}/${tuple}/${position}`, seen);
    else if (node[rest] !== undefined) child(run, node[rest], array, position, at, `${path}/${rest}`, seen);
  });
  if (node["contains"] !== undefined) {
    let count = 0;
    array.forEach((item, position) => {
      if (passes(run, node["contains"], item, `${at}/${position}`, `${path}/contains`)) {
        count++;
        seen?.add(position);
      }
    });
    const { minContains, maxContains } = node;
    const least = typeof minContains === "number" ? minContains : 1;
    const most = typeof maxContains === "number" ? maxContains : Number.POSITIVE_INFINITY;
    if (count < least || count > most) {
      const keyword = count > most ? "maxContains" : minContains === undefined ? "contains" : "minContains";
      const error = `Array has ${count} matching items. Expected ${count > most ? `at most ${most}` : `at least ${least}`}.`;
      fail(run, node, keyword, path, at, { error });
    }
  }
  if (node["unevaluatedItems"] !== undefined)
    array.forEach((_, position) => {
      if (!seen?.has(position))
        child(run, node["unevaluatedItems"], array, position, at, `${path}/unevaluatedItems`, seen);
    });
  if (
    node["uniqueItems"] === true &&
    array.some((item, position) => array.findIndex((other) => jsonEqual(item, other)) < position)
  )
    fail(run, node, "uniqueItems", path, at);
}

/**
 * Checks a value against a schema, adding the errors to the run.
 *
 * @param run - the validation.
 * @param node - the schema.
 * @param value - the value.
 * @param at - the value's instance location.
 * @param path - the schema's keyword location.
 * @param seen - collects the properties or items this schema evaluates, for `unevaluated…`.
 * @returns whether the value is valid.
 */
function check(run: Run, node: unknown, value: unknown, at: string, path: string, seen?: Set<unknown>): boolean {
  const start = run.errors.length;
  if (node === false) {
    run.errors.push({ keyword: "false", keywordLocation: path, instanceLocation: at, error: "fails false" });
    return false;
  }
  if (!isSchemaObject(node)) return true;
  const references = run.references.get(node);
  if (references !== undefined && references.length > 0)
    for (const [keyword, target] of references) {
      if (run.active.some(([schema, location]) => schema === target && location === at)) continue;
      run.active.push([target, at]);
      inPlace(run, target, value, at, `${path}/${keyword}`, seen);
      run.active.pop();
    }
  if (run.legacy && typeof node["$ref"] === "string") return run.errors.length === start;

  const type = typeOf(value);
  const expected = node["type"];
  const isType = (name: unknown): boolean => name === type || (name === "integer" && Number.isInteger(value));
  if (expected !== undefined && !(Array.isArray(expected) ? expected.some(isType) : isType(expected)))
    fail(run, node, "type", path, at, {
      error: `Instance type "${type}" is invalid. Expected "${[expected].flat().join('", "')}".`,
    });
  if (node["const"] !== undefined && !jsonEqual(value, node["const"])) fail(run, node, "const", path, at);
  if (Array.isArray(node["enum"]) && !node["enum"].some((member) => jsonEqual(value, member)))
    fail(run, node, "enum", path, at);
  if (node["not"] !== undefined && passes(run, node["not"], value, at, `${path}/not`)) fail(run, node, "not", path, at);
  for (const keyword of alternatives) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    const mark = run.errors.length;
    let matches = 0;
    list.forEach((sub, position) => {
      if (inPlace(run, sub, value, at, `${path}/${keyword}/${position}`, seen)) matches++;
    });
    // allOf passes its alternatives' errors on; anyOf and oneOf replace them when they pass, and lead them when not.
    if (keyword === "allOf") continue;
    if (keyword === "anyOf" ? matches > 0 : matches === 1) run.errors.length = mark;
    else
      run.errors.splice(mark, 0, {
        keyword,
        keywordLocation: `${path}/${keyword}`,
        instanceLocation: at,
        error: `matches ${matches} of its alternatives`,
        matches,
      });
  }
  if (node["if"] !== undefined) {
    const branch = passes(run, node["if"], value, at, `${path}/if`, seen) ? "then" : "else";
    if (node[branch] !== undefined) inPlace(run, node[branch], value, at, `${path}/${branch}`, seen);
  }

  if (type === "object") checkObject(run, node, value as Record<string, unknown>, at, path, seen);
  else if (type === "array") checkArray(run, node, value as unknown[], at, path, seen);
  else if (type === "number") {
    checkLimits(run, node, type, value as number, at, path);
    const divisor = node["multipleOf"];
    if (typeof divisor === "number" && !isMultipleOf(value as number, divisor)) fail(run, node, "multipleOf", path, at);
  } else if (type === "string") {
    const string = value as string;
    // Lengths count code points: an emoji is one character, not two UTF-16 units.
    let length = 0;
    if (node["minLength"] !== undefined || node["maxLength"] !== undefined) for (const _ of string) length++;
    checkLimits(run, node, type, length, at, path);
    if (typeof node["pattern"] === "string" && !run.regex(node["pattern"]).test(string))
      fail(run, node, "pattern", path, at);
    if (typeof node["format"] === "string" && !matchesStringFormat(node["format"], string))
      fail(run, node, "format", path, at);
  }
  return run.errors.length === start;
}

/**
 * Compiles a JSON Schema (draft 04, 06, 07, 2019-09 or 2020-12, picked by
 * `$schema`) into a function that returns every violation of a value, not
 * only the first. Checked: `type`, `enum`, `const`, the object, array,
 * number and string keywords, `allOf` / `anyOf` / `oneOf` / `not` /
 * `if`-`then`-`else`, `unevaluatedProperties` / `unevaluatedItems`, `$ref`
 * (see `indexSchemaDocument`) and the formats `matchesStringFormat` knows.
 * Unknown keywords and formats are ignored. Subschemas that only pass errors
 * on (`properties`, `allOf`, `$ref`, …) add no error of their own: the errors
 * beneath them say more.
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
  const references = indexSchemaDocument(schema);
  const expressions = new Map<string, RegExp>();
  const regex = (pattern: string): RegExp =>
    remember(expressions, pattern, () => {
      try {
        return new RegExp(pattern, "u");
      } catch {
        // Patterns written for other engines (`[\w-]`) may be valid only without the Unicode flag.
        try {
          return new RegExp(pattern);
        } catch {
          throw new Error(`pattern ${JSON.stringify(pattern)} is not a valid regular expression`);
        }
      }
    });
  for (const node of references.keys()) {
    if (typeof node["pattern"] === "string") regex(node["pattern"]);
    if (isSchemaObject(node["patternProperties"])) for (const pattern in node["patternProperties"]) regex(pattern);
  }
  const draft = schemaDraft(schema);
  const legacy = draft === "4" || draft === "7";
  const tracking = [...references.keys()].some(
    (node) => node["unevaluatedProperties"] !== undefined || node["unevaluatedItems"] !== undefined,
  );
  return (instance) => {
    const run: Run = { errors: [], active: [], references, regex, legacy, tracking };
    check(run, schema, instance, "", "", tracking ? new Set() : undefined);
    return run.errors;
  };
}
