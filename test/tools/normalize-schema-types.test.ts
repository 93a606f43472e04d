import { describe, expect, it } from "vitest";
import { normalizeCatalog } from "../../src/tools/normalize-catalog.ts";
import { normalizeSchemaTypes } from "../../src/tools/normalize-schema-types.ts";
import { readToolSchema } from "../../src/tools/read-tool-schema.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";

describe("normalizeSchemaTypes", () => {
  it("reads Python-style type names as JSON Schema's, at every depth, without touching the input", () => {
    const schema = {
      type: "dict",
      properties: {
        n: { type: "float", description: "a number" },
        tags: { type: "list", items: { type: "str" } },
        pair: { type: "tuple", prefixItems: [{ type: "int" }, { type: "bool" }] },
        either: { anyOf: [{ type: "long" }, { type: ["str", "NoneType"] }] },
        anything: { type: "any", description: "no constraint" },
      },
      required: ["n"],
    };
    const before = JSON.stringify(schema);
    expect(normalizeSchemaTypes(schema)).toStrictEqual({
      type: "object",
      properties: {
        n: { type: "number", description: "a number" },
        tags: { type: "array", items: { type: "string" } },
        pair: { type: "array", prefixItems: [{ type: "integer" }, { type: "boolean" }] },
        either: { anyOf: [{ type: "integer" }, { type: ["string", "null"] }] },
        anything: { description: "no constraint" },
      },
      required: ["n"],
    });
    expect(JSON.stringify(schema)).toBe(before);
    const plain = { type: "object", properties: { a: { type: "string" } } };
    expect(normalizeSchemaTypes(plain)).toBe(plain);
  });

  it("lets a catalog written with such names validate arguments as meant", async () => {
    const registry = new ToolRegistry().register({
      name: "get_weather",
      description: "Weather for a city",
      inputSchema: readToolSchema(
        { type: "dict", properties: { city: { type: "str" }, days: { type: "int" } }, required: ["city"] },
        "get_weather input",
      ),
      execute: (args) => args,
    });
    expect(registry.list()[0]?.inputSchema).toStrictEqual({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    });
    await expect(registry.call("get_weather", { city: "Paris", days: 2 })).resolves.toStrictEqual({
      city: "Paris",
      days: 2,
    });
    await expect(registry.call("get_weather", { city: "Paris", days: 1.5 })).rejects.toMatchObject({
      code: "invalid-argument",
    });
    expect(
      normalizeCatalog([{ name: "f", parameters: { type: "dict", properties: { x: { type: "float" } } } }])[0]
        ?.inputSchema,
    ).toStrictEqual({
      type: "object",
      properties: { x: { type: "number" } },
    });
  });
});
