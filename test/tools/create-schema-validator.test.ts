/**
 * The schema validator: each keyword accepts what the JSON Schema
 * specification allows and reports what it forbids, with the keyword and
 * where it sits in the schema and in the value; references resolve within
 * the document; a schema that cannot be compiled says why.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validatePlan } from "../../src/plan.ts";
import { createSchemaValidator, type SchemaError } from "../../src/tools/create-schema-validator.ts";
import { compileCatalog } from "../../src/tools.ts";

type Schema = Record<string, unknown>;

const draft04 = "http://json-schema.org/draft-04/schema#";
const draft07 = "http://json-schema.org/draft-07/schema#";
const draft2019 = "https://json-schema.org/draft/2019-09/schema";

/** The errors of a value. */
function errorsOf(schema: Schema, value: unknown): SchemaError[] {
  return createSchemaValidator(schema)(value);
}

/** Each error as `keyword keywordLocation @instanceLocation`, with its property when it names one. */
function summary(schema: Schema, value: unknown): string[] {
  return errorsOf(schema, value).map(
    (error) =>
      `${error.keyword} ${error.keywordLocation} @${error.instanceLocation}` +
      (error.property === undefined ? "" : ` (${error.property})`),
  );
}

/** Whether a value is valid. */
function accepts(schema: Schema, value: unknown): boolean {
  return errorsOf(schema, value).length === 0;
}

/** [what, schema, values it accepts, a value it refuses, the errors of that value] */
type KeywordCase = [string, Schema, unknown[], unknown, string[]];

function runCases(cases: KeywordCase[]): void {
  for (const [name, schema, good, bad, expected] of cases) {
    it(name, () => {
      for (const value of good) expect(summary(schema, value), JSON.stringify(value)).toEqual([]);
      expect(summary(schema, bad)).toEqual(expected);
    });
  }
}

describe("createSchemaValidator: type, enum, const", () => {
  runCases([
    ["integer accepts whole numbers, 1.0 among them", { type: "integer" }, [1, 1.0, -3, 0], 1.5, ["type /type @"]],
    ["number accepts integers too", { type: "number" }, [2, 2.5], "2", ["type /type @"]],
    ["a list of types accepts any of them", { type: ["string", "null"] }, ["a", null], 0, ["type /type @"]],
    ["object is not array", { type: "object" }, [{}], [], ["type /type @"]],
    ["array is not object", { type: "array" }, [[]], {}, ["type /type @"]],
    ["null is not zero", { type: "null" }, [null], 0, ["type /type @"]],
    ["boolean is not a string", { type: "boolean" }, [true, false], "true", ["type /type @"]],
    ["enum compares deeply", { enum: [1, "a", { x: [1] }] }, [1, "a", { x: [1] }], { x: [2] }, ["enum /enum @"]],
    [
      "const compares deeply, in any key order",
      { const: { a: [1, { b: 2, c: null }] } },
      [{ a: [1, { c: null, b: 2 }] }],
      { a: [1, { b: 2, c: 0 }] },
      ["const /const @"],
    ],
    ["const null refuses a missing value's stand-in", { const: null }, [null], false, ["const /const @"]],
  ]);

  it("says in the type error which type the value has and which were expected", () => {
    expect(errorsOf({ type: ["string", "null"] }, 1)[0]?.error).toBe(
      'Instance type "number" is invalid. Expected "string", "null".',
    );
  });
});

describe("createSchemaValidator: objects", () => {
  runCases([
    [
      "properties apply to present keys only",
      { properties: { a: { type: "string" } } },
      [{}, { a: "x" }, { b: 1 }, "not an object"],
      { a: 1 },
      ["type /properties/a/type @/a"],
    ],
    [
      "required names each missing property",
      { required: ["a", "b"] },
      [{ a: 1, b: null }, ["a"]],
      { a: 1 },
      ["required /required @ (b)"],
    ],
    [
      "additionalProperties false refuses each key nothing else matched",
      { properties: { a: {} }, patternProperties: { "^x-": {} }, additionalProperties: false },
      [{ a: 1, "x-y": 2 }],
      { a: 1, b: 2, c: 3 },
      ["additionalProperties /additionalProperties @ (b)", "additionalProperties /additionalProperties @ (c)"],
    ],
    [
      "additionalProperties as a schema checks the other values",
      { properties: { a: {} }, additionalProperties: { type: "number" } },
      [{ a: "s", b: 1 }],
      { a: "s", b: "t" },
      ["type /additionalProperties/type @/b"],
    ],
    [
      "patternProperties check the keys a pattern finds anywhere in them",
      { patternProperties: { "^n_": { type: "number" }, id: { type: "string" } } },
      [{ n_a: 1, uuid: "x", other: true }],
      { n_a: "1", my_id: 2 },
      ["type /patternProperties/^n_/type @/n_a", "type /patternProperties/id/type @/my_id"],
    ],
    [
      "propertyNames check each key as a string",
      { propertyNames: { maxLength: 3 } },
      [{ abc: 1 }, {}],
      { abcd: 1 },
      ["maxLength /propertyNames/maxLength @/abcd"],
    ],
    ["minProperties", { minProperties: 2 }, [{ a: 1, b: 2 }, [1]], { a: 1 }, ["minProperties /minProperties @"]],
    ["maxProperties", { maxProperties: 1 }, [{ a: 1 }, {}], { a: 1, b: 2 }, ["maxProperties /maxProperties @"]],
    [
      "dependentRequired asks for properties only when its key is present",
      { dependentRequired: { card: ["cvv", "expiry"] } },
      [{}, { cvv: 1 }, { card: 1, cvv: 2, expiry: 3 }],
      { card: 1, cvv: 2 },
      ["dependentRequired /dependentRequired @ (expiry)"],
    ],
    [
      "dependentSchemas apply a schema only when their key is present",
      { dependentSchemas: { card: { required: ["cvv"] } } },
      [{}, { card: 1, cvv: 1 }],
      { card: 1 },
      ["required /dependentSchemas/card/required @ (cvv)"],
    ],
    [
      "draft-07 dependencies as a list of names",
      { $schema: draft07, dependencies: { a: ["b"] } },
      [{ b: 1 }, { a: 1, b: 1 }],
      { a: 1 },
      ["dependencies /dependencies @ (b)"],
    ],
    [
      "draft-07 dependencies as a schema",
      { $schema: draft07, dependencies: { a: { properties: { b: { type: "string" } } } } },
      [{ b: 1 }, { a: 1, b: "x" }],
      { a: 1, b: 1 },
      ["type /dependencies/a/properties/b/type @/b"],
    ],
  ]);

  it("writes keys with / and ~ into pointers escaped, and % as it is", () => {
    expect(summary({ properties: { "a/b%c~d": { type: "string" } } }, { "a/b%c~d": 1 })).toEqual([
      "type /properties/a~1b%c~0d/type @/a~1b%c~0d",
    ]);
  });

  it("checks keys written __proto__ and constructor like any other", () => {
    const value = JSON.parse('{"__proto__": 1, "constructor": 2}') as unknown;
    expect(summary({ properties: { ["__proto__"]: { type: "string" } }, required: ["constructor"] }, value)).toEqual([
      "type /properties/__proto__/type @/__proto__",
    ]);
    expect(summary({ required: ["toString"] }, {})).toEqual(["required /required @ (toString)"]);
  });
});

describe("createSchemaValidator: arrays", () => {
  runCases([
    [
      "items as a schema applies to every item",
      { items: { type: "string" } },
      [[], ["a", "b"]],
      ["a", 1],
      ["type /items/type @/1"],
    ],
    [
      "prefixItems apply by position, items to the rest",
      { prefixItems: [{ type: "string" }, { type: "number" }], items: { type: "boolean" } },
      [["a"], ["a", 1, true, false]],
      [1, 1, 2],
      ["type /prefixItems/0/type @/0", "type /items/type @/2"],
    ],
    [
      "items false after prefixItems closes the tuple",
      { prefixItems: [{}], items: false },
      [[], [1]],
      [1, 2],
      ["false /items @/1"],
    ],
    [
      "an items list and additionalItems before 2020-12",
      { $schema: draft2019, items: [{ type: "string" }], additionalItems: { type: "number" } },
      [["a"], ["a", 1, 2]],
      [1, "b"],
      ["type /items/0/type @/0", "type /additionalItems/type @/1"],
    ],
    [
      "contains needs one matching item",
      { contains: { type: "string" } },
      [["a"], [1, "a"]],
      [1, 2],
      ["contains /contains @"],
    ],
    ["contains refuses an empty array", { contains: {} }, [[0]], [], ["contains /contains @"]],
    [
      "minContains counts the matching items",
      { contains: { type: "string" }, minContains: 2 },
      [
        ["a", "b"],
        ["a", 1, "b"],
      ],
      ["a", 1],
      ["minContains /minContains @"],
    ],
    [
      "maxContains caps them",
      { contains: { type: "string" }, maxContains: 2 },
      [["a"], ["a", "b", 1]],
      ["a", "b", "c"],
      ["maxContains /maxContains @"],
    ],
    ["minContains 0 accepts no match at all", { contains: { type: "string" }, minContains: 0 }, [[], [1]], "x", []],
    ["minItems", { minItems: 2 }, [[1, 2], "ab"], [1], ["minItems /minItems @"]],
    ["maxItems", { maxItems: 1 }, [[], [1]], [1, 2], ["maxItems /maxItems @"]],
    [
      "uniqueItems compares deeply, keys in any order",
      { uniqueItems: true },
      [[1, "1", [1], { a: 1 }, { a: 2 }], []],
      [
        { a: 1, b: [2] },
        { b: [2], a: 1 },
      ],
      ["uniqueItems /uniqueItems @"],
    ],
    ["uniqueItems false allows duplicates", { uniqueItems: false }, [[1, 1]], "x", []],
  ]);
});

describe("createSchemaValidator: numbers and strings", () => {
  runCases([
    ["minimum is inclusive", { minimum: 3 }, [3, 4, "2"], 2.9, ["minimum /minimum @"]],
    ["maximum is inclusive", { maximum: 3 }, [3, -1], 3.1, ["maximum /maximum @"]],
    ["exclusiveMinimum", { exclusiveMinimum: 3 }, [3.01], 3, ["exclusiveMinimum /exclusiveMinimum @"]],
    ["exclusiveMaximum", { exclusiveMaximum: 3 }, [2.99], 3, ["exclusiveMaximum /exclusiveMaximum @"]],
    [
      "draft-04's boolean exclusiveMinimum makes minimum strict",
      { $schema: draft04, minimum: 3, exclusiveMinimum: true },
      [3.5],
      3,
      ["minimum /minimum @"],
    ],
    [
      "draft-04's boolean exclusiveMaximum makes maximum strict",
      { $schema: draft04, maximum: 3, exclusiveMaximum: true },
      [2.5],
      3,
      ["maximum /maximum @"],
    ],
    [
      "draft-04's exclusiveMinimum false leaves minimum inclusive",
      { $schema: draft04, minimum: 3, exclusiveMinimum: false },
      [3],
      2,
      ["minimum /minimum @"],
    ],
    ["multipleOf an integer", { multipleOf: 3 }, [0, 9, -6], 10, ["multipleOf /multipleOf @"]],
    [
      "multipleOf a decimal fraction despite binary rounding",
      { multipleOf: 0.1 },
      [0.3, 0.7, 1.1, 19.9, 0],
      0.35,
      ["multipleOf /multipleOf @"],
    ],
    ["multipleOf 0.01 for prices", { multipleOf: 0.01 }, [19.99, 0.07, 1234.56], 1.005, ["multipleOf /multipleOf @"]],
    ["minLength counts code points", { minLength: 2 }, ["ab", "😀😀"], "😀", ["minLength /minLength @"]],
    ["maxLength counts code points", { maxLength: 2 }, ["😀😀", "é"], "abc", ["maxLength /maxLength @"]],
    ["pattern is not anchored", { pattern: "b+" }, ["abc", 5], "ac", ["pattern /pattern @"]],
    ["pattern understands Unicode classes", { pattern: "^\\p{L}+$" }, ["héllo", "日本"], "h3", ["pattern /pattern @"]],
    [
      "a pattern valid only without the Unicode flag still works",
      { pattern: "^[\\w-]+$" },
      ["a-b_c"],
      "a b",
      ["pattern /pattern @"],
    ],
    [
      "format applies to strings only",
      { format: "date" },
      ["2024-02-29", 20240229],
      "2023-02-29",
      ["format /format @"],
    ],
    ["an unknown format is an annotation", { format: "color" }, ["anything"], 1, []],
  ]);
});

describe("createSchemaValidator: applicators", () => {
  runCases([
    [
      "allOf reports the errors of each failing subschema",
      { allOf: [{ minimum: 2 }, { maximum: 5 }, { type: "integer" }] },
      [2, 5],
      6.5,
      ["maximum /allOf/1/maximum @", "type /allOf/2/type @"],
    ],
    [
      "anyOf leads its alternatives' errors",
      { anyOf: [{ type: "string" }, { minimum: 3 }] },
      ["a", 3],
      1,
      ["anyOf /anyOf @", "type /anyOf/0/type @", "minimum /anyOf/1/minimum @"],
    ],
    [
      "oneOf refuses a value that two alternatives match",
      { oneOf: [{ type: "number" }, { type: "integer" }] },
      [1.5],
      1,
      ["oneOf /oneOf @"],
    ],
    ["not inverts", { not: { type: "string" } }, [1, null], "a", ["not /not @"]],
    [
      "then applies when if passes",
      { if: { properties: { kind: { const: "a" } } }, then: { required: ["x"] }, else: { required: ["y"] } },
      [
        { kind: "a", x: 1 },
        { kind: "b", y: 1 },
      ],
      { kind: "a", y: 1 },
      ["required /then/required @ (x)"],
    ],
    [
      "else applies when if fails",
      { if: { properties: { kind: { const: "a" } } }, then: { required: ["x"] }, else: { required: ["y"] } },
      [{ kind: "b", y: 1 }],
      { kind: "b", x: 1 },
      ["required /else/required @ (y)"],
    ],
    ["if alone never fails", { if: { type: "string" } }, ["a", 1], null, []],
    ["a false subschema refuses", { properties: { a: false } }, [{}], { a: 1 }, ["false /properties/a @/a"]],
    ["true and {} accept anything", { properties: { a: true, b: {} } }, [{ a: 1, b: [null] }], { a: null }, []],
  ]);

  it("counts the matches of a failing oneOf and of a failing anyOf", () => {
    expect(errorsOf({ oneOf: [{ type: "number" }, { type: "integer" }] }, 1)[0]?.matches).toBe(2);
    expect(errorsOf({ oneOf: [{ type: "number" }, { type: "integer" }] }, "x")[0]?.matches).toBe(0);
    expect(errorsOf({ anyOf: [{ type: "number" }] }, "x")[0]?.matches).toBe(0);
  });
});

describe("createSchemaValidator: unevaluatedProperties and unevaluatedItems", () => {
  runCases([
    [
      "properties of passing allOf branches count as evaluated",
      { allOf: [{ properties: { a: {} } }], properties: { b: {} }, unevaluatedProperties: false },
      [{ a: 1, b: 2 }],
      { a: 1, b: 2, c: 3 },
      ["unevaluatedProperties /unevaluatedProperties @ (c)"],
    ],
    [
      "properties of a failing anyOf branch do not",
      {
        anyOf: [
          { properties: { a: { type: "string" } }, required: ["a"] },
          { properties: { b: {} }, required: ["b"] },
        ],
        unevaluatedProperties: false,
      },
      [{ a: "x" }, { b: 1 }, { a: "x", b: 1 }],
      { a: 1, b: 1 },
      ["unevaluatedProperties /unevaluatedProperties @ (a)"],
    ],
    [
      "then's properties count when if passes; if's required evaluates nothing",
      { if: { required: ["a"] }, then: { properties: { b: {} } }, unevaluatedProperties: false },
      [{}],
      { a: 1, b: 1 },
      ["unevaluatedProperties /unevaluatedProperties @ (a)"],
    ],
    [
      "properties reached through $ref count",
      {
        $defs: { base: { properties: { a: {} } } },
        $ref: "#/$defs/base",
        properties: { b: {} },
        unevaluatedProperties: false,
      },
      [{ a: 1, b: 2 }],
      { a: 1, c: 3 },
      ["unevaluatedProperties /unevaluatedProperties @ (c)"],
    ],
    [
      "patternProperties and additionalProperties count",
      { patternProperties: { "^x": {} }, unevaluatedProperties: false },
      [{ xa: 1 }],
      { xa: 1, y: 2 },
      ["unevaluatedProperties /unevaluatedProperties @ (y)"],
    ],
    [
      "unevaluatedProperties as a schema",
      { properties: { a: {} }, unevaluatedProperties: { type: "number" } },
      [{ a: "s", b: 1 }],
      { a: "s", b: "t" },
      ["type /unevaluatedProperties/type @/b"],
    ],
    [
      "unevaluatedItems after prefixItems",
      { prefixItems: [{}], unevaluatedItems: false },
      [[], [1]],
      [1, 2],
      ["false /unevaluatedItems @/1"],
    ],
    [
      "items matched by contains count as evaluated",
      { contains: { type: "string" }, unevaluatedItems: { type: "number" } },
      [["a", 1, "b"]],
      ["a", 1, true],
      ["type /unevaluatedItems/type @/2"],
    ],
    [
      "items evaluated in a passing allOf branch count",
      { allOf: [{ prefixItems: [{}, {}] }], unevaluatedItems: false },
      [[1, 2]],
      [1, 2, 3],
      ["false /unevaluatedItems @/2"],
    ],
  ]);
});

describe("createSchemaValidator: then's properties when if fails", () => {
  it("leaves them unevaluated", () => {
    const schema = { if: { required: ["a"] }, then: { properties: { b: {} } }, unevaluatedProperties: false };
    expect(summary(schema, { b: 1 })).toEqual(["unevaluatedProperties /unevaluatedProperties @ (b)"]);
  });
});

describe("createSchemaValidator: boolean subschemas and adjacent keywords", () => {
  it("treats true and false as passing and failing inside applicators", () => {
    expect(accepts({ not: false }, 1)).toBe(true);
    expect(accepts({ not: true }, 1)).toBe(false);
    expect(accepts({ anyOf: [false, { type: "string" }] }, "a")).toBe(true);
    expect(accepts({ anyOf: [false, true] }, 1)).toBe(true);
    expect(accepts({ oneOf: [false, true] }, 1)).toBe(true);
    expect(accepts({ oneOf: [true, true] }, 1)).toBe(false);
    expect(accepts({ contains: true }, [0])).toBe(true);
    expect(accepts({ contains: false }, [0])).toBe(false);
    expect(accepts({ if: false, then: false, else: { type: "string" } }, "a")).toBe(true);
  });

  it("lets additionalProperties see only properties and patternProperties beside it, not allOf's", () => {
    const schema = {
      allOf: [{ properties: { a: {} } }],
      properties: { b: {} },
      additionalProperties: false,
      unevaluatedProperties: false,
    };
    expect(summary(schema, { a: 1, b: 2 })).toEqual(["additionalProperties /additionalProperties @ (a)"]);
  });

  it("counts what if evaluates when it passes, and only then", () => {
    const schema = { if: { properties: { a: { const: 1 } } }, unevaluatedProperties: false };
    expect(summary(schema, { a: 1 })).toEqual([]);
    expect(summary(schema, { a: 2 })).toEqual(["unevaluatedProperties /unevaluatedProperties @ (a)"]);
  });

  it("follows the same reference again beside itself", () => {
    const schema = { allOf: [{ $ref: "#/$defs/s" }, { $ref: "#/$defs/s" }], $defs: { s: { type: "string" } } };
    expect(summary(schema, 1)).toEqual(["type /allOf/0/$ref/type @", "type /allOf/1/$ref/type @"]);
  });

  it("passes or fails a draft-07 $ref with its target inside applicators", () => {
    const schema = (second: Schema): Schema => ({
      $schema: draft07,
      definitions: { s: { type: "string" } },
      anyOf: [{ $ref: "#/definitions/s" }, second],
    });
    expect(summary(schema({ type: "number" }), true)).toEqual([
      "anyOf /anyOf @",
      "type /anyOf/0/$ref/type @",
      "type /anyOf/1/type @",
    ]);
    expect(
      accepts({ ...schema({ type: "string" }), oneOf: [{ $ref: "#/definitions/s" }, { type: "string" }] }, "x"),
    ).toBe(false);
  });

  it("says what failed in the error text", () => {
    const errorOf = (schema: Schema, value: unknown): string | undefined => errorsOf(schema, value)[0]?.error;
    expect(errorOf({ minimum: 3 }, 1)).toBe("fails minimum 3");
    expect(errorOf({ enum: ["a", "b"] }, 1)).toBe('fails enum ["a","b"]');
    expect(errorOf({ properties: { a: false } }, { a: 1 })).toBe("fails false");
    expect(errorOf({ anyOf: [{ type: "string" }] }, 1)).toBe("matches 0 of its alternatives");
    expect(errorOf({ contains: { type: "string" }, minContains: 2 }, ["a"])).toBe(
      "Array has 1 matching items. Expected at least 2.",
    );
    expect(errorOf({ contains: { type: "string" }, maxContains: 1 }, ["a", "b"])).toBe(
      "Array has 2 matching items. Expected at most 1.",
    );
  });
});

describe("createSchemaValidator: references", () => {
  it("follows JSON Pointers into $defs and definitions, with ~0 ~1 and %25 escapes", () => {
    const schema = {
      $defs: { "a/b": { type: "string" }, "c~d": { type: "number" } },
      definitions: { "e%f": { type: "boolean" } },
      properties: {
        x: { $ref: "#/$defs/a~1b" },
        y: { $ref: "#/$defs/c~0d" },
        z: { $ref: "#/definitions/e%25f" },
      },
    };
    expect(summary(schema, { x: "s", y: 1, z: true })).toEqual([]);
    expect(summary(schema, { x: 1, y: "s", z: 1 })).toEqual([
      "type /properties/x/$ref/type @/x",
      "type /properties/y/$ref/type @/y",
      "type /properties/z/$ref/type @/z",
    ]);
  });

  it("follows # to the root, recursively, and stops at a cycle over the same value", () => {
    const tree = {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, kids: { type: "array", items: { $ref: "#" } } },
    };
    expect(summary(tree, { name: "a", kids: [{ name: "b", kids: [{ name: "c" }] }] })).toEqual([]);
    expect(summary(tree, { name: "a", kids: [{ name: "b", kids: [{ name: "c" }, { kids: [] }] }] })).toEqual([
      "required /properties/kids/items/$ref/properties/kids/items/$ref/required @/kids/0/kids/1 (name)",
    ]);
    expect(summary({ $ref: "#" }, 1)).toEqual([]);
    const loop = {
      $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }], type: "string" } },
      $ref: "#/$defs/a",
    };
    expect(summary(loop, 1)).toEqual(["type /$ref/$ref/type @"]);
  });

  it("resolves $anchor, draft-07 #name $ids, and $ids relative to the document's $id", () => {
    expect(
      summary({ $defs: { n: { $anchor: "num", type: "number" } }, properties: { a: { $ref: "#num" } } }, { a: "x" }),
    ).toEqual(["type /properties/a/$ref/type @/a"]);
    expect(
      summary(
        { $schema: draft07, definitions: { n: { $id: "#num", type: "number" } }, properties: { a: { $ref: "#num" } } },
        { a: "x" },
      ),
    ).toEqual(["type /properties/a/$ref/type @/a"]);
    const document = {
      $id: "https://example.com/schemas/root.json",
      $defs: {
        point: {
          $id: "point.json",
          required: ["x"],
          properties: { y: { $ref: "#/$defs/n" } },
          $defs: { n: { type: "number" } },
        },
      },
      properties: { p: { $ref: "point.json" }, q: { $ref: "https://example.com/schemas/point.json" } },
    };
    expect(summary(document, { p: { x: 1, y: 2 }, q: { x: 1 } })).toEqual([]);
    // Inside point.json, #/$defs/n is point.json's own $defs.
    expect(summary(document, { p: { y: "s" }, q: {} })).toEqual([
      "required /properties/p/$ref/required @/p (x)",
      "type /properties/p/$ref/properties/y/$ref/type @/p/y",
      "required /properties/q/$ref/required @/q (x)",
    ]);
  });

  it("reads $dynamicRef and $recursiveRef as plain references", () => {
    const dynamic = {
      $dynamicAnchor: "node",
      type: "object",
      properties: { kids: { type: "array", items: { $dynamicRef: "#node" } } },
    };
    expect(summary(dynamic, { kids: [{ kids: [] }, 1] })).toEqual([
      "type /properties/kids/items/$dynamicRef/type @/kids/1",
    ]);
    const recursive = {
      $schema: draft2019,
      $recursiveAnchor: true,
      type: "object",
      properties: { kids: { type: "array", items: { $recursiveRef: "#" } } },
    };
    expect(summary(recursive, { kids: [{ kids: "no" }] })).toEqual([
      "type /properties/kids/items/$recursiveRef/properties/kids/type @/kids/0/kids",
    ]);
  });

  it("ignores a $ref's siblings before 2019-09 and applies them from 2019-09 on", () => {
    const of = (draft: string): Schema => ({
      $schema: draft,
      definitions: { s: { type: "string" } },
      $ref: "#/definitions/s",
      maxLength: 1,
    });
    expect(summary(of(draft07), "abc")).toEqual([]);
    expect(summary(of(draft04), "abc")).toEqual([]);
    expect(summary(of(draft2019), "abc")).toEqual(["maxLength /maxLength @"]);
    expect(summary(of(draft07), 1)).toEqual(["type /$ref/type @"]);
  });

  it("does not read data as schemas: enum, const, default and examples hold values", () => {
    const schema = {
      enum: [{ $ref: "#/nowhere" }],
      default: { $ref: "#/nowhere", pattern: "(" },
      examples: [{ $ref: "#/nowhere" }],
    };
    expect(summary(schema, { $ref: "#/nowhere" })).toEqual([]);
    // A property named like a data keyword holds a schema like any other.
    const named = { properties: { enum: { $ref: "#/$defs/s" } }, $defs: { s: { type: "string" } } };
    expect(summary(named, { enum: 1 })).toEqual(["type /properties/enum/$ref/type @/enum"]);
  });
});

describe("createSchemaValidator: schemas that cannot be compiled", () => {
  it("throws naming a reference that resolves nowhere in the document", () => {
    expect(() => createSchemaValidator({ properties: { a: { $ref: "#/$defs/nope" } } })).toThrow(
      '$ref "#/$defs/nope" resolves to no schema in the document',
    );
    expect(() => createSchemaValidator({ $ref: "https://other.example/schema.json" })).toThrow(
      '$ref "https://other.example/schema.json" resolves to no schema',
    );
    expect(() => createSchemaValidator({ $ref: "#missing-anchor" })).toThrow('"#missing-anchor"');
    expect(() => createSchemaValidator({ $defs: { a: 1 }, $ref: "#/$defs/a" })).toThrow('"#/$defs/a"');
  });

  it("throws naming a pattern that is no regular expression", () => {
    expect(() => createSchemaValidator({ pattern: "(" })).toThrow('pattern "(" is not a valid regular expression');
    expect(() => createSchemaValidator({ items: { patternProperties: { "[": {} } } })).toThrow('pattern "["');
  });

  it("reaches compileCatalog's checks as invalid-catalog naming the tool", () => {
    const catalog = compileCatalog([
      {
        name: "t",
        description: "test tool",
        inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/gone" } } },
      },
    ]);
    let caught: unknown;
    try {
      catalog.checkArguments("t", {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "invalid-catalog" });
    expect(String((caught as Error).message)).toMatch(
      /^Tool "t" has a schema that cannot be compiled: .*"#\/\$defs\/gone"/u,
    );
  });

  it("reports a value that nests deeper than the stack lets it check as a problem, and validatePlan does not throw", () => {
    const node = {
      anyOf: [{ type: "object", properties: { c: { $ref: "#/$defs/node" } } }, { type: "null" }],
    };
    const tools = [
      { name: "t", description: "", inputSchema: { type: "object", properties: { c: node }, $defs: { node } } },
    ];
    const nested = (depth: number): unknown => {
      let value: unknown = { c: null };
      for (let level = 0; level < depth; level++) value = { c: value };
      return value;
    };
    expect(compileCatalog(tools).checkArguments("t", nested(50))).toEqual([]);
    expect(compileCatalog(tools).checkArguments("t", nested(100_000))).toEqual([
      {
        code: "invalid-argument",
        pointer: "",
        argument: "",
        expected: "",
        text: "the value nests too deeply to be checked against the schema",
      },
    ]);
    // Within the plan's nesting limit, whatever the runtime's stack: an issue or a valid step, never a throw.
    const plan = [
      { id: "s1", tool: "t", args: nested(500) },
      { id: "s2", reply: "ok" },
    ];
    expect(() => validatePlan(plan, tools)).not.toThrow();
  });

  it("passes over keyword values of the wrong kind instead of failing on them", () => {
    const schema = {
      required: [1, "a"],
      properties: ["x"],
      patternProperties: "^x",
      dependentRequired: "a",
      propertyNames: undefined,
      minLength: "2",
      pattern: 5,
      format: 5,
      enum: "a",
      allOf: {},
    };
    expect(summary(schema, { x: 1 })).toEqual(["required /required @ (a)"]);
    expect(summary(schema, "x")).toEqual([]);
  });

  it("ignores keywords it does not know", () => {
    expect(summary({ type: "string", "x-vendor": { anything: true }, deprecated: true }, "a")).toEqual([]);
  });
});

/** A schema that a JSON value satisfies, built from the value: its type, its constant, its exact shape. */
function schemaFor(value: unknown, withConst: boolean): Schema {
  if (value === null) return { type: "null" };
  if (Array.isArray(value))
    return {
      type: "array",
      prefixItems: value.map((item) => schemaFor(item, withConst)),
      items: false,
      minItems: value.length,
    };
  if (typeof value === "object")
    return {
      type: "object",
      properties: Object.fromEntries(Object.entries(value).map(([key, item]) => [key, schemaFor(item, withConst)])),
      required: Object.keys(value),
      additionalProperties: false,
    };
  const type = typeof value === "number" ? "number" : typeof value;
  return withConst ? { type, const: value } : { type };
}

/** The JSON Pointers of every node of a value, with the node. */
function nodesOf(value: unknown, pointer = ""): [string, unknown][] {
  const here: [string, unknown][] = [[pointer, value]];
  if (typeof value !== "object" || value === null) return here;
  for (const [key, item] of Object.entries(value))
    here.push(...nodesOf(item, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`));
  return here;
}

/** A copy of a value with the node at a pointer replaced. */
function replaceAt(value: unknown, pointer: string, replacement: unknown): unknown {
  if (pointer === "") return replacement;
  const [head = "", ...rest] = pointer.slice(1).split("/");
  const key = head.replaceAll("~1", "/").replaceAll("~0", "~");
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>;
  const tail = rest.length === 0 ? "" : `/${rest.join("/")}`;
  Object.defineProperty(copy, key, {
    value: replaceAt(copy[key], tail, replacement),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** Small schemas over one value: a type, a bound, a length, a constant, a list. */
const smallSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.record({ type: fc.constantFrom("string", "number", "integer", "boolean", "null", "array", "object") }),
  fc.record({ minimum: fc.integer({ min: -5, max: 5 }) }),
  fc.record({ maxLength: fc.nat(4) }),
  fc.record({ const: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }) }),
  fc.record({ required: fc.array(fc.constantFrom("a", "b"), { maxLength: 2 }) }),
  fc.record({ minItems: fc.nat(3) }),
  fc.record({ uniqueItems: fc.constant(true) }),
  fc.record({ multipleOf: fc.constantFrom(0.5, 2, 3) }),
);

const smallValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(0, 1, 2.5, -4, "", "ab", "abcde", [], [1, 1], { a: 1 }, { a: 1, b: 2 }),
);

describe("createSchemaValidator: invariants", () => {
  it("a schema built from a value's types, constants and shape accepts that value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(summary(schemaFor(value, true), value)).toEqual([]);
      }),
    );
  });

  it("changing the type of one node of a value fails exactly that node, with type", () => {
    fc.assert(
      fc.property(
        fc
          .jsonValue({ maxDepth: 3 })
          .chain((value) => fc.tuple(fc.constant(value), fc.constantFrom(...nodesOf(value)))),
        ([value, [pointer, node]]) => {
          const changed = replaceAt(value, pointer, typeof node === "string" ? 0 : "changed");
          // The schema of the node sits under prefixItems for an array's items and properties for an object's.
          let location = "";
          let parent: unknown = value;
          for (const segment of pointer.split("/").slice(1)) {
            location += Array.isArray(parent) ? `/prefixItems/${segment}` : `/properties/${segment}`;
            parent = (parent as Record<string, unknown>)[segment.replaceAll("~1", "/").replaceAll("~0", "~")];
          }
          expect(summary(schemaFor(value, false), changed)).toEqual([`type ${location}/type @${pointer}`]);
        },
      ),
    );
  });

  it("not inverts a schema, and anyOf or allOf of one schema is that schema", () => {
    fc.assert(
      fc.property(smallSchema, smallValue, (schema, value) => {
        const valid = accepts(schema, value);
        expect(accepts({ not: schema }, value)).toBe(!valid);
        expect(accepts({ anyOf: [schema] }, value)).toBe(valid);
        expect(accepts({ oneOf: [schema] }, value)).toBe(valid);
        expect(summary({ allOf: [schema] }, value)).toEqual(
          summary(schema, value).map((line) => line.replace(/^(\S+) /u, "$1 /allOf/0")),
        );
      }),
    );
  });

  it("a value passes allOf of two schemas exactly when it passes both, and anyOf when it passes either", () => {
    fc.assert(
      fc.property(smallSchema, smallSchema, smallValue, (first, second, value) => {
        const [a, b] = [accepts(first, value), accepts(second, value)];
        expect(accepts({ allOf: [first, second] }, value)).toBe(a && b);
        expect(accepts({ anyOf: [first, second] }, value)).toBe(a || b);
        expect(accepts({ oneOf: [first, second] }, value)).toBe(a !== b);
      }),
    );
  });
});

describe("createSchemaValidator: numbers compare as JSON writes them", () => {
  runCases([
    [
      "const and enum take a nested -0 for 0, as JSON equality does",
      { enum: [{ a: [0] }], const: { a: [0] } },
      [{ a: [-0] }, { a: [0] }],
      { a: [-1] },
      ["const /const @", "enum /enum @"],
    ],
    [
      "uniqueItems takes a nested -0 for 0",
      { uniqueItems: true },
      [[{ a: 0 }, { a: 1 }]],
      [{ a: 0 }, { a: -0 }],
      ["uniqueItems /uniqueItems @"],
    ],
    [
      "multipleOf refuses a decimal one digit past the divisor, however close",
      { multipleOf: 0.01 },
      [0.3, 4.35, 1e-2],
      0.30000000000000004,
      ["multipleOf /multipleOf @"],
    ],
    [
      "multipleOf refuses a small divisor's near miss",
      { multipleOf: 0.0001 },
      [415.3499, 0.0006, 705.054],
      415.34990000000005,
      ["multipleOf /multipleOf @"],
    ],
    [
      "multipleOf of a fraction accepts integers too large for the quotient",
      { multipleOf: 0.5 },
      [1e308, 1.5, -2],
      1e-308,
      ["multipleOf /multipleOf @"],
    ],
  ]);
});
