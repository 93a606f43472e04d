import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LLMPlanner, ToolRegistry } from "../../src/index.ts";
import { validatePlan } from "../../src/plan.ts";
import { createScriptedModel } from "../../src/test.ts";
import { readCatalog } from "../../src/tools/read-catalog.ts";
import { readJsonSchema } from "../../src/tools/read-json-schema.ts";
import { readToolSchema } from "../../src/tools/read-tool-schema.ts";
import type { JsonSchema } from "../../src/tools/tool-descriptor.ts";
import { compileCatalog, normalizeCatalog } from "../../src/tools.ts";
import { thrownBy as caught } from "../fixtures/catch-plankit-error.ts";

const hint =
  "read function-calling data sets' parameter lists and maps with normalizeCatalog or readToolSchema from plankit/tools";

/** Parameter names that no JSON Schema keyword (nor an `x-` extension) spells. */
const parameterName = fc
  .stringMatching(/^[a-z][a-z0-9_]{0,9}$/u)
  .filter(
    (name) =>
      ![
        "type",
        "items",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "const",
        "enum",
        "format",
        "pattern",
        "title",
        "description",
        "default",
        "examples",
        "required",
        "properties",
        "dependencies",
        "nullable",
        "deprecated",
      ].includes(name),
  );

describe("reading a catalog in a protocol's shape (the core every function that takes tools uses)", () => {
  it("takes JSON Schemas as they are, the same object", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    expect(readJsonSchema(schema, "input")).toBe(schema);
    expect(readJsonSchema({}, "input")).toStrictEqual({});
    expect(readJsonSchema({ $ref: "#/$defs/a", $defs: { a: { type: "object" } } }, "input")).toStrictEqual({
      $ref: "#/$defs/a",
      $defs: { a: { type: "object" } },
    });
    expect(readJsonSchema({ "x-vendor": 1 }, "input")).toStrictEqual({ "x-vendor": 1 });
  });

  it("refuses a data set's parameter map or list, naming the keys and where such shapes are read (property)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          parameterName,
          fc.record({ type: fc.constantFrom("str", "int", "string", "float"), required: fc.boolean() }),
          { minKeys: 1, maxKeys: 4 },
        ),
        (map) => {
          const error = caught(() => readJsonSchema(map, 'Tool "t" input'));
          expect(error.code).toBe("invalid-catalog");
          expect(error.message).toContain(`keys: ${Object.keys(map).join(", ")}`);
          expect(error.message).toContain(hint);
          // The data-set reader reads what the core refuses, and the core takes its result unchanged.
          const read = readToolSchema(map, 'Tool "t" input');
          expect(readJsonSchema(read, 'Tool "t" input')).toBe(read);
        },
      ),
      { numRuns: 100 },
    );
    expect(caught(() => readJsonSchema([{ name: "city" }], 'Tool "t" input')).message).toBe(
      `Tool "t" input schema must be a JSON Schema object, got a list of 1 item(s); ${hint}`,
    );
    expect(caught(() => readJsonSchema("object", 'Tool "t" input')).message).toBe(
      'Tool "t" input schema must be a JSON Schema object, got "object"',
    );
  });

  const dataSetFields: [string, Record<string, unknown>][] = [
    ["query_parameters", { query_parameters: { city: { type: "string", required: true } } }],
    ["input_parameters", { input_parameters: { city: "str" } }],
    ["args", { args: { expression: "str" } }],
    ["required_parameters", { required_parameters: [{ name: "q", type: "STRING" }] }],
    ["optional_parameters", { optional_parameters: [{ name: "q", type: "STRING" }] }],
    ["output_parameters", { inputSchema: { type: "object" }, output_parameters: { code: { type: "str" } } }],
  ];
  for (const [field, fields] of dataSetFields) {
    it(`refuses a tool with a data set's field ${field} instead of dropping its parameters unseen`, () => {
      const catalog = [{ name: "lookup", description: "Look up", ...fields }];
      expect(caught(() => compileCatalog(catalog as never)).message).toBe(
        `Tool "lookup" ([0]) has a data set's field ${field}; ${hint}`,
      );
      expect(caught(() => validatePlan([{ id: "s1", type: "reply", text: "hi" }], catalog as never)).code).toBe(
        "invalid-catalog",
      );
      expect(normalizeCatalog(catalog as never)[0]?.name).toBe("lookup");
    });
  }

  it("refuses a data set's tool list under nodes, functions, apis or api_list, pointing to normalizeCatalog", () => {
    for (const key of ["nodes", "functions", "apis", "api_list"]) {
      const catalog = { [key]: [{ name: "a", inputSchema: {} }] };
      expect(caught(() => readCatalog(catalog)).message).toBe(
        `Tool "${key}" must be an object, got [{"name":"a","inputSchema":{}}]; ${hint}`,
      );
      expect(normalizeCatalog(catalog as never).map((tool) => tool.name)).toEqual(["a"]);
    }
  });

  it("refuses a data set's type names in a registered schema, and takes them once read", async () => {
    const inputSchema = { type: "dict", properties: { city: { type: "str" } }, required: ["city"] };
    const define = (schema: JsonSchema) => ({
      name: "weather",
      inputSchema: schema,
      execute: (args: Record<string, unknown>) => args,
    });
    expect(caught(() => new ToolRegistry().register(define(inputSchema))).message).toContain(
      'Tool "weather" has a malformed input schema: /type must be one of',
    );
    expect(caught(() => new ToolRegistry().register(define({ city: { type: "str", required: true } }))).message).toBe(
      `Tool "weather" input schema has no JSON Schema keyword (keys: city); ${hint}`,
    );
    const registry = new ToolRegistry().register(define(readToolSchema(inputSchema, "weather input")));
    await expect(registry.call("weather", { city: 3 })).rejects.toMatchObject({ code: "invalid-argument" });
  });

  it("gives an LLMPlanner the same refusal, so a data set's catalog never plans without its parameters", async () => {
    const planner = new LLMPlanner({
      model: createScriptedModel({ responses: [JSON.stringify([{ id: "s1", type: "reply", text: "hi" }])] }),
    });
    const catalog = {
      lookup: { description: "Look up", query_parameters: { city: { type: "string", required: true } } },
    };
    const stream = planner.stream({ query: "weather in Paris", tools: catalog as never });
    await expect(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    ).rejects.toMatchObject({ code: "invalid-catalog" });
  });

  it("takes whatever normalizeCatalog reads from a data set unchanged (property)", () => {
    const parameter = fc.record(
      {
        type: fc.constantFrom("str", "int", "float", "bool", "list", "dict", "string", "DATE (YYYY-MM-DD)"),
        required: fc.boolean(),
        desc: fc.string({ maxLength: 8 }),
      },
      { requiredKeys: ["type"] },
    );
    const tool = fc.record({
      name: parameterName,
      desc: fc.string({ maxLength: 8 }),
      query_parameters: fc.dictionary(parameterName, parameter, { maxKeys: 4 }),
      output_parameters: fc.dictionary(parameterName, parameter, { maxKeys: 3 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(tool, { selector: (item) => item.name, minLength: 1, maxLength: 4 }), (tools) => {
        const descriptors = normalizeCatalog(tools);
        expect(readCatalog(descriptors)).toStrictEqual(descriptors);
      }),
      { numRuns: 100 },
    );
  });
});
