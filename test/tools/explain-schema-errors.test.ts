/**
 * Schema errors explained: one problem per violation, named the way people
 * write arguments, wrapper errors dropped, alternatives listed, and errors
 * that reference placeholders cause left out — and only those.
 */
import { describe, expect, it } from "vitest";
import { type ArgumentProblem, compileCatalog } from "../../src/tools.ts";

type Schema = Record<string, unknown>;

/** The problems of arguments against an input schema, with references at the given pointers. */
function problemsOf(
  schema: Schema,
  args: unknown,
  references?: { exact?: string[]; embedded?: string[] },
): ArgumentProblem[] {
  const catalog = compileCatalog([{ name: "t", description: "test tool", inputSchema: schema as never }]);
  return catalog.checkArguments(
    "t",
    args,
    references === undefined
      ? undefined
      : { exact: new Set(references.exact ?? []), embedded: new Set(references.embedded ?? []) },
  );
}

/** The problems of a tool result against an output schema. */
function outputProblemsOf(schema: Schema, value: unknown): ArgumentProblem[] {
  const catalog = compileCatalog([
    { name: "t", description: "test tool", inputSchema: { type: "object" }, outputSchema: schema as never },
  ]);
  return catalog.checkOutput("t", value);
}

/** Each problem as `pointer: text`. */
function texts(problems: readonly ArgumentProblem[]): string[] {
  return problems.map((problem) => `${problem.pointer}: ${problem.text}`);
}

/** One property `x` with the given schema. */
const withX = (schema: Schema): Schema => ({ type: "object", properties: { x: schema } });

const draft04 = "http://json-schema.org/draft-04/schema#";
const draft07 = "http://json-schema.org/draft-07/schema#";
const draft2019 = "https://json-schema.org/draft/2019-09/schema";

describe("explainSchemaErrors: what each keyword expects", () => {
  const cases: [string, Schema, unknown, string, string][] = [
    ["type", { type: "integer" }, "two", "integer", '"two"'],
    ["a list of types", { type: ["string", "null"] }, 1, "string or null", "1"],
    ["enum", { enum: ["a", "b", 1] }, "c", 'one of "a", "b", 1', '"c"'],
    ["const", { const: "a" }, "b", '"a"', '"b"'],
    ["format", { type: "string", format: "date" }, "soon", 'a string in format "date"', '"soon"'],
    ["pattern", { type: "string", pattern: "^a+$" }, "b", "a string matching /^a+$/", '"b"'],
    ["minimum", { minimum: 3 }, 2, "a number >= 3", "2"],
    ["maximum", { maximum: 3 }, 4, "a number <= 3", "4"],
    ["exclusiveMinimum", { exclusiveMinimum: 3 }, 3, "a number > 3", "3"],
    ["exclusiveMaximum", { exclusiveMaximum: 3 }, 3, "a number < 3", "3"],
    ["multipleOf", { multipleOf: 2 }, 3, "a multiple of 2", "3"],
    ["minLength", { minLength: 2 }, "a", "a string of at least 2 characters", '"a"'],
    ["maxLength", { maxLength: 2 }, "abc", "a string of at most 2 characters", '"abc"'],
    ["minItems", { minItems: 2 }, [1], "an array of at least 2 items", "[1]"],
    ["maxItems", { maxItems: 1 }, [1, 2], "an array of at most 1 items", "[1,2]"],
    ["uniqueItems", { uniqueItems: true }, [1, 1], "an array without duplicate items", "[1,1]"],
    ["minProperties", { minProperties: 1 }, {}, "an object with at least 1 properties", "{}"],
    ["maxProperties", { maxProperties: 1 }, { a: 1, b: 2 }, "an object with at most 1 properties", '{"a":1,"b":2}'],
    ["contains", { contains: { type: "string" } }, [1], "an array containing a matching item", "[1]"],
    ["not", { not: { type: "string" } }, "s", "a value not matching the excluded schema", '"s"'],
  ];

  for (const [keyword, schema, value, expected, shown] of cases) {
    it(`${keyword}: names the argument, the value and what was expected`, () => {
      expect(problemsOf(withX(schema), { x: value })).toEqual([
        {
          code: "invalid-argument",
          pointer: "/x",
          argument: "x",
          expected,
          actual: value,
          text: `argument "x" is ${shown}, expected ${expected}`,
        },
      ]);
    });
  }

  it("shortens long enum members", () => {
    const long = "a".repeat(50);
    const [problem] = problemsOf(withX({ enum: [long, "b"] }), { x: "c" });
    expect(problem?.expected).toBe(`one of "${"a".repeat(38)}…, "b"`);
  });

  it("reads draft-04's boolean exclusiveMinimum and exclusiveMaximum as strict bounds", () => {
    const schema = {
      $schema: draft04,
      type: "object",
      properties: {
        x: { minimum: 3, exclusiveMinimum: true },
        y: { maximum: 3, exclusiveMaximum: true },
        z: { minimum: 3, exclusiveMinimum: false },
      },
    };
    expect(texts(problemsOf(schema, { x: 3, y: 3, z: 2 }))).toEqual([
      '/x: argument "x" is 3, expected a number > 3',
      '/y: argument "y" is 3, expected a number < 3',
      '/z: argument "z" is 2, expected a number >= 3',
    ]);
  });

  it("falls back to the validator's sentence, without its final period, for a keyword it has no phrase for", () => {
    const [problem] = problemsOf(withX({ contains: { type: "string" }, maxContains: 1 }), { x: ["a", "b"] });
    expect(problem).toMatchObject({ code: "invalid-argument", pointer: "/x", expected: "", actual: ["a", "b"] });
    expect(problem?.text).toMatch(/^argument "x" is \["a","b"\], \S.*\. \S.*[^.]$/u);
    expect(problem?.text).toContain("at most 1");
  });
});

describe("explainSchemaErrors: names", () => {
  it("writes pointers as people write arguments: keys with dots, indexes in brackets, digits-and-letters as keys", () => {
    const schema = {
      type: "object",
      properties: {
        list: { type: "array", items: { type: "object", properties: { "1x": { type: "integer" } } } },
        x1: { type: "integer" },
        "a/b": { type: "integer" },
        "c~d": { type: "integer" },
      },
    };
    const list = [...Array.from({ length: 10 }, () => ({})), { "1x": "no" }];
    expect(
      problemsOf(schema, { list, x1: "no", "a/b": "no", "c~d": "no" }).map((problem) => [
        problem.pointer,
        problem.argument,
      ]),
    ).toEqual([
      ["/list/10/1x", "list[10].1x"],
      ["/x1", "x1"],
      ["/a~1b", "a/b"],
      ["/c~0d", "c~d"],
    ]);
    expect(problemsOf({ type: "array", items: { type: "integer" } }, ["a"]).map((problem) => problem.argument)).toEqual(
      ["[0]"],
    );
  });

  it("writes a key of digits as a key, not an index, when it names a property", () => {
    const schema = {
      type: "object",
      properties: {
        "2024": { type: "integer" },
        rows: { type: "array", items: { type: "object", properties: { "7": { type: "integer" } } } },
      },
    };
    expect(texts(problemsOf(schema, { "2024": "x", rows: [{ "7": "y" }] }))).toEqual([
      '/2024: argument "2024" is "x", expected integer',
      '/rows/0/7: argument "rows[0].7" is "y", expected integer',
    ]);
  });

  it("calls the whole instance (arguments) or (result), and result parts fields", () => {
    expect(texts(problemsOf({ type: "integer" }, "x"))).toEqual([': argument "(arguments)" is "x", expected integer']);
    expect(texts(outputProblemsOf({ type: "integer" }, "x"))).toEqual([': field "(result)" is "x", expected integer']);
    expect(
      texts(
        outputProblemsOf(
          { type: "object", properties: { a: { type: "integer" } }, required: ["b"], additionalProperties: false },
          { a: "x", c: 1 },
        ),
      ),
    ).toEqual([
      '/b: missing required field "b"',
      '/a: field "a" is "x", expected integer',
      '/c: unexpected field "c" (accepted: a)',
    ]);
  });
});

describe("explainSchemaErrors: wrapper errors give way to the errors beneath them", () => {
  const cases: [string, Schema, unknown, string[]][] = [
    ["properties", { properties: { a: { type: "string" } } }, { a: 1 }, ['/a: argument "a" is 1, expected string']],
    [
      "patternProperties",
      { patternProperties: { "^a": { type: "string" } } },
      { ab: 1 },
      ['/ab: argument "ab" is 1, expected string'],
    ],
    ["items", { items: { type: "string" } }, [1], ['/0: argument "[0]" is 1, expected string']],
    ["prefixItems", { prefixItems: [{ type: "string" }] }, [1], ['/0: argument "[0]" is 1, expected string']],
    [
      "additionalItems",
      { $schema: draft2019, items: [{ type: "string" }], additionalItems: { type: "string" } },
      ["a", 1],
      ['/1: argument "[1]" is 1, expected string'],
    ],
    [
      "$ref",
      { $ref: "#/$defs/s", $defs: { s: { type: "string" } } },
      1,
      [': argument "(arguments)" is 1, expected string'],
    ],
    ["allOf", { allOf: [{ type: "string" }] }, 1, [': argument "(arguments)" is 1, expected string']],
    [
      "allOf over a length",
      { allOf: [{ minLength: 3 }] },
      "a",
      [': argument "(arguments)" is "a", expected a string of at least 3 characters'],
    ],
    [
      "dependentSchemas",
      { dependentSchemas: { a: { required: ["b"] } } },
      { a: 1 },
      ['/b: missing required argument "b"'],
    ],
    [
      "dependencies with a schema",
      { $schema: draft07, dependencies: { a: { required: ["b"] } } },
      { a: 1 },
      ['/b: missing required argument "b"'],
    ],
    [
      "if/then",
      { if: { type: "string" }, then: { minLength: 2 }, else: { type: "integer" } },
      "a",
      [': argument "(arguments)" is "a", expected a string of at least 2 characters'],
    ],
    [
      "if/else",
      { if: { type: "string" }, then: { minLength: 2 }, else: { type: "integer" } },
      true,
      [': argument "(arguments)" is true, expected integer'],
    ],
    [
      "unevaluatedItems",
      { prefixItems: [{}], unevaluatedItems: { type: "string" } },
      [1, 2],
      ['/1: argument "[1]" is 2, expected string'],
    ],
    [
      "unevaluatedProperties with a schema",
      { properties: { a: {} }, unevaluatedProperties: { type: "string" } },
      { a: 1, b: 2 },
      ['/b: argument "b" is 2, expected string'],
    ],
    [
      "additionalProperties with a schema",
      { properties: { a: {} }, additionalProperties: { type: "string" } },
      { a: 1, b: 2 },
      ['/b: argument "b" is 2, expected string'],
    ],
    [
      "$recursiveRef",
      {
        $schema: draft2019,
        $id: "https://example.com/tree",
        $recursiveAnchor: true,
        type: "object",
        properties: { kids: { type: "array", items: { $recursiveRef: "#" } } },
      },
      { kids: [{ kids: [] }, 1] },
      ['/kids/1: argument "kids[1]" is 1, Instance type "number" is invalid. Expected "object"'],
    ],
    [
      "$recursiveRef over a missing property",
      {
        $schema: draft2019,
        $id: "https://example.com/tree",
        $recursiveAnchor: true,
        type: "object",
        required: ["kids"],
        properties: { kids: { type: "array", items: { $recursiveRef: "#" } } },
      },
      { kids: [{}] },
      ['/kids/0/kids: missing required argument "kids[0].kids"'],
    ],
    [
      "propertyNames",
      { propertyNames: { maxLength: 1 } },
      { ab: 1 },
      ['/ab: argument "ab" is 1, expected a string of at most 1 characters'],
    ],
  ];
  for (const [keyword, schema, value, expected] of cases) {
    it(`${keyword}`, () => {
      expect(texts(problemsOf(schema, value))).toEqual(expected);
    });
  }

  it("reports the same complaint once", () => {
    expect(texts(problemsOf({ allOf: [{ type: "string" }, { type: "string" }] }, 1))).toEqual([
      ': argument "(arguments)" is 1, expected string',
    ]);
  });
});

describe("explainSchemaErrors: alternatives", () => {
  it("lists the types of anyOf and oneOf alternatives that none matches", () => {
    expect(texts(problemsOf(withX({ anyOf: [{ type: "string" }, { type: "integer" }] }), { x: true }))).toEqual([
      '/x: argument "x" is true, expected string or integer',
    ]);
    expect(texts(problemsOf(withX({ oneOf: [{ type: "string" }, { type: "integer" }] }), { x: true }))).toEqual([
      '/x: argument "x" is true, expected string or integer',
    ]);
    expect(
      texts(problemsOf(withX({ anyOf: [{ type: "string" }, { type: "string", minLength: 1 }] }), { x: 1 })),
    ).toEqual(['/x: argument "x" is 1, expected string']);
  });

  it("counts the alternatives when one fails on more than its type", () => {
    expect(
      texts(problemsOf(withX({ anyOf: [{ type: "string", minLength: 3 }, { type: "integer" }] }), { x: "a" })),
    ).toEqual(['/x: argument "x" is "a", expected a value matching one of 2 alternatives']);
    // A type error deeper inside an alternative is not the alternative's type.
    expect(
      texts(
        problemsOf(withX({ anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "string" }] }), {
          x: { a: 1 },
        }),
      ),
    ).toEqual(['/x: argument "x" is {"a":1}, expected a value matching one of 2 alternatives']);
  });

  it("says a oneOf that several alternatives match needs exactly one", () => {
    expect(texts(problemsOf(withX({ oneOf: [{ type: "number" }, { type: "integer" }] }), { x: 1 }))).toEqual([
      '/x: argument "x" is 1, expected exactly one matching alternative',
    ]);
  });

  it("speaks of the alternatives without a count when they sit behind a $ref it cannot follow", () => {
    const schema = {
      type: "object",
      $defs: { s: { $id: "https://example.com/s", anyOf: [{ type: "string" }, { type: "integer" }] } },
      properties: { a: { $ref: "https://example.com/s" } },
    };
    expect(texts(problemsOf(schema, { a: true }))).toEqual([
      '/a: argument "a" is true, expected a value matching one of the alternatives',
    ]);
  });

  it("keeps the errors that follow an anyOf, outside its alternatives", () => {
    const schema = {
      type: "object",
      properties: { a: { anyOf: [{ type: "string" }, { type: "integer" }] }, b: { type: "integer" } },
    };
    expect(texts(problemsOf(schema, { a: true, b: "x" }))).toEqual([
      '/a: argument "a" is true, expected string or integer',
      '/b: argument "b" is "x", expected integer',
    ]);
  });
});

describe("explainSchemaErrors: unexpected and missing arguments", () => {
  it("names an unexpected argument once, with the accepted ones when there are any", () => {
    expect(
      problemsOf({ type: "object", properties: { a: {}, c: {} }, additionalProperties: false }, { a: 1, extra: 2 }),
    ).toEqual([
      {
        code: "invalid-argument",
        pointer: "/extra",
        argument: "extra",
        expected: "",
        actual: 2,
        text: 'unexpected argument "extra" (accepted: a, c)',
      },
    ]);
    expect(texts(problemsOf({ type: "object", additionalProperties: false }, { b: 2 }))).toEqual([
      '/b: unexpected argument "b"',
    ]);
    expect(
      texts(problemsOf({ type: "object", properties: { a: {} }, unevaluatedProperties: false }, { a: 1, b: 2 })),
    ).toEqual(['/b: unexpected argument "b" (accepted: a)']);
    expect(problemsOf({ type: "object", properties: { a: false } }, { a: 1 })).toEqual([
      {
        code: "invalid-argument",
        pointer: "/a",
        argument: "a",
        expected: "",
        actual: 1,
        text: 'unexpected argument "a"',
      },
    ]);
  });

  it("names an unexpected argument even when its value is a reference", () => {
    const schema = { type: "object", properties: { query: { type: "string" } }, additionalProperties: false };
    expect(texts(problemsOf(schema, { query: "{{s1}}", querry: "{{s1}}" }, { exact: ["/query", "/querry"] }))).toEqual([
      '/querry: unexpected argument "querry" (accepted: query)',
    ]);
  });

  it("names an unexpected argument of a schema behind a $ref it cannot follow, without the accepted ones", () => {
    const schema = {
      type: "object",
      $defs: {
        s: { $id: "https://example.com/closed", type: "object", properties: { k: {} }, additionalProperties: false },
      },
      properties: { a: { $ref: "https://example.com/closed" } },
    };
    expect(texts(problemsOf(schema, { a: { k: 1, extra: 2 } }))).toEqual(['/a/extra: unexpected argument "a.extra"']);
  });

  it("reports an unexpected argument in one place and a forbidden one in another", () => {
    const schema = {
      type: "object",
      properties: {
        x: { type: "object", properties: { k: {} }, additionalProperties: false },
        y: { type: "object", properties: { z: false } },
      },
    };
    expect(texts(problemsOf(schema, { x: { b: 1 }, y: { z: 1 } }))).toEqual([
      '/x/b: unexpected argument "x.b" (accepted: k)',
      '/y/z: unexpected argument "y.z"',
    ]);
  });

  it("names missing arguments at any depth, from required, dependentRequired and draft-07 dependencies", () => {
    expect(
      problemsOf(
        { type: "object", properties: { outer: { type: "object", required: ["inner name"] } } },
        { outer: {} },
      ),
    ).toEqual([
      {
        code: "missing-argument",
        pointer: "/outer/inner name",
        argument: "outer.inner name",
        expected: "",
        text: 'missing required argument "outer.inner name"',
      },
    ]);
    expect(texts(problemsOf({ type: "object", dependentRequired: { a: ["b/c"] } }, { a: 1 }))).toEqual([
      '/b~1c: missing required argument "b/c"',
    ]);
    expect(texts(problemsOf({ $schema: draft07, type: "object", dependencies: { a: ["bb"] } }, { a: 1 }))).toEqual([
      '/bb: missing required argument "bb"',
    ]);
  });
});

describe("explainSchemaErrors: long enums", () => {
  it("lists the first 20 members of a long enum and counts them all", () => {
    const zones = Array.from({ length: 600 }, (_, index) => `Zone/City_${index}`);
    const shown = zones.slice(0, 20).map((zone) => `"${zone}"`);
    expect(texts(problemsOf(withX({ enum: zones }), { x: "Mars/Olympus" }))).toEqual([
      `/x: argument "x" is "Mars/Olympus", expected one of ${shown.join(", ")}, … (600 in all)`,
    ]);
    expect(texts(problemsOf(withX({ enum: zones.slice(0, 20) }), { x: 1 }))).toEqual([
      `/x: argument "x" is 1, expected one of ${shown.join(", ")}`,
    ]);
  });
});

describe("explainSchemaErrors: one complaint per value", () => {
  it("keeps an enum or const complaint over a type complaint, and a type complaint over the rest", () => {
    expect(texts(problemsOf(withX({ type: "string", enum: ["a", "b"] }), { x: 5 }))).toEqual([
      '/x: argument "x" is 5, expected one of "a", "b"',
    ]);
    expect(texts(problemsOf(withX({ type: "string", const: "a" }), { x: 5 }))).toEqual([
      '/x: argument "x" is 5, expected "a"',
    ]);
    expect(
      texts(problemsOf(withX({ type: ["string", "null"], pattern: "^a", minLength: 3, format: "date" }), { x: 5 })),
    ).toEqual(['/x: argument "x" is 5, expected string or null']);
  });

  it("keeps a type complaint over a complaint any type can earn", () => {
    expect(texts(problemsOf(withX({ type: "string", not: { type: "integer" } }), { x: 5 }))).toEqual([
      '/x: argument "x" is 5, expected string',
    ]);
    expect(texts(problemsOf(withX({ not: { type: "integer" } }), { x: 5 }))).toEqual([
      '/x: argument "x" is 5, expected a value not matching the excluded schema',
    ]);
  });

  it("keeps every complaint of equal weight", () => {
    expect(texts(problemsOf(withX({ type: "string", pattern: "^a", minLength: 3 }), { x: "b" }))).toEqual([
      '/x: argument "x" is "b", expected a string of at least 3 characters',
      '/x: argument "x" is "b", expected a string matching /^a/',
    ]);
  });
});

describe("explainSchemaErrors: reference placeholders", () => {
  const pair = { type: "object", properties: { a: { type: "integer" }, ab: { type: "integer" } } };

  it("excuses everything at and beneath an exact reference, and nothing at a pointer that only starts with its text", () => {
    expect(texts(problemsOf(pair, { a: "{{s1}}", ab: "{{s1}}" }, { exact: ["/a"] }))).toEqual([
      '/ab: argument "ab" is "{{s1}}", expected integer',
    ]);
    const nested = {
      type: "object",
      properties: {
        a: { type: "object", properties: { b: { type: "integer" } }, required: ["c"] },
        ab: { type: "integer" },
      },
    };
    // Any value may arrive at /a, so what its placeholder lacks beneath it says nothing.
    expect(texts(problemsOf(nested, { a: { b: "x" }, ab: "y" }, { exact: ["/a"] }))).toEqual([
      '/ab: argument "ab" is "y", expected integer',
    ]);
    expect(
      texts(problemsOf(withX({ anyOf: [{ type: "integer" }, { type: "null" }] }), { x: "{{s1}}" }, { exact: ["/x"] })),
    ).toEqual([]);
  });

  it("excuses only content keywords at an embedded reference, and only at its own pointer", () => {
    const contents: Schema[] = [
      { format: "date" },
      { pattern: "^\\d+$" },
      { enum: ["a"] },
      { const: "a" },
      { minLength: 40 },
      { maxLength: 2 },
      { anyOf: [{ format: "date" }, { const: "x" }] },
      { oneOf: [{ format: "date" }, { const: "x" }] },
      { not: { pattern: "days" } },
    ];
    for (const content of contents) {
      expect(problemsOf(withX({ type: "string", ...content }), { x: "{{s1}} days" }, { embedded: ["/x"] })).toEqual([]);
      expect(problemsOf(withX({ type: "string", ...content }), { x: "{{s1}} days" })).not.toEqual([]);
    }
    expect(texts(problemsOf(withX({ type: "integer" }), { x: "{{s1}} days" }, { embedded: ["/x"] }))).toEqual([
      '/x: argument "x" is "{{s1}} days", expected integer',
    ]);
    const dates = {
      type: "object",
      properties: { a: { type: "string", format: "date" }, ab: { type: "string", format: "date" } },
    };
    expect(texts(problemsOf(dates, { a: "{{s1}} x", ab: "{{s1}} x" }, { embedded: ["/a"] }))).toEqual([
      '/ab: argument "ab" is "{{s1}} x", expected a string in format "date"',
    ]);
  });
});
