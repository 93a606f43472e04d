import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import { findSchemaProblem } from "../../src/tools/find-schema-problem.ts";
import { normalizeCatalog } from "../../src/tools/normalize-catalog.ts";
import type { JsonSchema } from "../../src/tools/tool-descriptor.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";

const types = '"array", "boolean", "integer", "null", "number", "object", "string" (or a list of them)';

describe("findSchemaProblem", () => {
  it("accepts sound draft-07 and 2020-12 schemas, booleans and unknown keywords", () => {
    const schemas: unknown[] = [
      true,
      {},
      { type: ["string", "null"], format: "email", nullable: true, "x-vendor": 1 },
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { list: { type: "array", prefixItems: [{ type: "integer" }], items: false, minItems: 1 } },
        required: ["list"],
        $defs: { id: { type: "string", pattern: "^[a-z]+\\d*$" } },
        oneOf: [{ required: ["list"] }, { not: { type: "null" } }],
      },
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "array",
        items: [{ type: "string" }, { enum: [1, 2] }],
        additionalItems: false,
      },
      { type: "object", properties: { legacy: { type: "string", required: true } } },
    ];
    for (const schema of schemas) expect(findSchemaProblem(schema)).toBeUndefined();
  });

  it("accepts a pattern valid only without the Unicode flag, as the validator reads it", () => {
    const phone = { type: "object", properties: { phone: { type: "string", pattern: "^\\d{3}\\-\\d{4}$" } } };
    expect(findSchemaProblem(phone)).toBeUndefined();
    const registry = new ToolRegistry().register({
      name: "dial",
      description: "",
      inputSchema: phone,
      execute: () => 0,
    });
    return expect(registry.call("dial", { phone: "555-12" })).rejects.toThrow(
      'Tool "dial": argument "phone" is "555-12", expected a string matching /^\\d{3}\\-\\d{4}$/ (/phone)',
    );
  });

  it("names the pointer, the expectation and the value of the first problem", () => {
    const cases: [unknown, string][] = [
      [{ type: 5 }, `/type must be one of ${types}, got 5`],
      [
        { type: "object", properties: { "a/b": { type: "strin" } } },
        `/properties/a~1b/type must be one of ${types}, got "strin"`,
      ],
      [{ type: "object", required: "x" }, '/required must be a list of property names, got "x"'],
      [{ items: { minLength: -1 } }, "/items/minLength must be an integer >= 0, got -1"],
      [{ anyOf: [] }, "/anyOf must be a non-empty list of schemas, got []"],
      [{ allOf: [{}, { pattern: "(" }] }, '/allOf/1/pattern is not a valid regular expression: "("'],
      [{ properties: [] }, "/properties must be an object of schemas, got []"],
      [{ multipleOf: 0 }, "/multipleOf must be a number > 0, got 0"],
      [{ enum: "a" }, '/enum must be a list of values, got "a"'],
      [{ additionalProperties: "no" }, '/additionalProperties must be a schema object or a boolean, got "no"'],
    ];
    for (const [schema, message] of cases) expect(findSchemaProblem(schema)).toBe(message);
  });
});

describe("malformed tool schemas", () => {
  it("are refused by ToolRegistry.register with invalid-catalog naming the tool", () => {
    const registry = new ToolRegistry();
    let error: unknown;
    try {
      // A schema typed as a plain record: written as a literal, "numbr" would not compile.
      const inputSchema: JsonSchema = { type: "object", properties: { a: { type: "numbr" } } };
      registry.register({ name: "add", description: "Add", inputSchema, execute: () => 0 });
    } catch (caught) {
      error = caught;
    }
    expect(PlankitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "invalid-catalog",
      message: `Tool "add" has a malformed input schema: /properties/a/type must be one of ${types}, got "numbr"`,
    });
    expect(registry.has("add")).toBe(false);
  });

  it("are refused in catalogs, with the tool's place", () => {
    expect(() =>
      normalizeCatalog([
        { name: "ok", inputSchema: { type: "object" } },
        { name: "bad", inputSchema: { type: "object" }, outputSchema: { type: "obj" } },
      ]),
    ).toThrow(`Tool "bad" ([1]) has a malformed output schema: /type must be one of ${types}, got "obj"`);
  });
});
