import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../src/index.ts";
import { validatePlan } from "../../src/plan.ts";
import { readToolSchema } from "../../src/tools/read-tool-schema.ts";
import { readTypeName } from "../../src/tools/read-type-name.ts";
import { normalizeCatalog, normalizeSchemaTypes } from "../../src/tools.ts";
import { thrownBy as caught } from "../fixtures/catch-plankit-error.ts";

describe("readTypeName", () => {
  it("reads JSON Schema names and Python, Java and JavaScript aliases in any case", () => {
    const cases: [string, unknown][] = [
      ["string", { type: "string" }],
      ["String", { type: "string" }],
      ["char", { type: "string" }],
      ["INTEGER", { type: "integer" }],
      ["long", { type: "integer" }],
      ["Bigint", { type: "integer" }],
      ["double", { type: "number" }],
      ["float", { type: "number" }],
      ["Boolean", { type: "boolean" }],
      ["ArrayList", { type: "array" }],
      ["tuple", { type: "array" }],
      ["HashMap", { type: "object" }],
      ["dict", { type: "object" }],
      ["NoneType", { type: "null" }],
      ["any", {}],
      ["Any", {}],
    ];
    expect(cases.map(([name]) => [name, readTypeName(name)])).toEqual(cases);
  });

  it("reads generic, array, optional and union forms", () => {
    expect(readTypeName("List[str]")).toEqual({ type: "array", items: { type: "string" } });
    expect(readTypeName("list[int]")).toEqual({ type: "array", items: { type: "integer" } });
    expect(readTypeName("List<String>")).toEqual({ type: "array", items: { type: "string" } });
    expect(readTypeName("typing.List[float]")).toEqual({ type: "array", items: { type: "number" } });
    expect(readTypeName("string[]")).toEqual({ type: "array", items: { type: "string" } });
    expect(readTypeName("List[List[int]]")).toEqual({
      type: "array",
      items: { type: "array", items: { type: "integer" } },
    });
    expect(readTypeName("List[Any]")).toEqual({ type: "array" });
    expect(readTypeName("List[file]")).toEqual({ type: "array" });
    expect(readTypeName("file[]")).toEqual({ type: "array" });
    expect(readTypeName("Tuple[int, str]")).toEqual({ type: "array" });
    expect(readTypeName("Dict[str, List[int]]")).toEqual({ type: "object" });
    expect(readTypeName("Map<String, Integer>")).toEqual({ type: "object" });
    expect(readTypeName("Optional[int]")).toEqual({ type: "integer" });
    expect(readTypeName("Union[int, str]")).toEqual({ type: ["integer", "string"] });
    expect(readTypeName("int | None")).toEqual({ type: ["integer", "null"] });
    expect(readTypeName("Optional[Union[int, float]]")).toEqual({ type: ["integer", "number"] });
    expect(readTypeName("Union[int, Any]")).toEqual({});
  });

  it("returns undefined for names it does not know, in any form", () => {
    for (const name of ["file", "strin", "DATE (YYYY-MM-DD)", "Foo<int>", "int | file", "", "[]"])
      expect(readTypeName(name)).toBeUndefined();
  });
});

describe("normalizeSchemaTypes with other languages' names", () => {
  it("rewrites Java names and generic forms at every depth and keeps unknown names for the schema check", () => {
    const schema = {
      type: "dict",
      properties: {
        label: { type: "String" },
        meta: { type: "HashMap" },
        ids: { type: "List[int]" },
        given: { type: "array", items: { type: "str" } },
        kept: { type: "List[str]", items: { type: "string", minLength: 1 } },
        either: { type: ["String", "null"] },
        loose: { type: ["int", "any"] },
        odd: { type: "file" },
      },
    };
    const before = JSON.stringify(schema);
    expect(normalizeSchemaTypes(schema)).toStrictEqual({
      type: "object",
      properties: {
        label: { type: "string" },
        meta: { type: "object" },
        ids: { type: "array", items: { type: "integer" } },
        given: { type: "array", items: { type: "string" } },
        kept: { type: "array", items: { type: "string", minLength: 1 } },
        either: { type: ["string", "null"] },
        loose: {},
        odd: { type: "file" },
      },
    });
    expect(JSON.stringify(schema)).toBe(before);
  });

  it("refuses a catalog whose JSON Schema still names an unknown type, naming tool, pointer and value", () => {
    expect(
      caught(() =>
        normalizeCatalog([{ name: "rec", parameters: { type: "object", properties: { audio: { type: "file" } } } }]),
      ).message,
    ).toBe(
      'Tool "rec" ([0]) has a malformed input schema: /properties/audio/type must be one of "array", "boolean", "integer", "null", "number", "object", "string" (or a list of them), got "file"',
    );
  });
});

describe("readToolSchema", () => {
  it("returns a JSON Schema that needs nothing as the same object", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    expect(readToolSchema(schema, "input")).toBe(schema);
    const untyped = { properties: { q: { type: "string" } } };
    expect(readToolSchema(untyped, "input")).toBe(untyped);
    expect(readToolSchema({}, "input")).toStrictEqual({});
  });

  it("returns any JSON Schema written with JSON Schema's own names as the same object (property)", () => {
    const name = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,11}$/u);
    const { schema } = fc.letrec<{
      schema: Record<string, unknown>;
      leaf: Record<string, unknown>;
      object: Record<string, unknown>;
    }>((tie) => ({
      leaf: fc.oneof(
        fc.record(
          { type: fc.constantFrom("string", "integer", "number", "boolean", "null"), description: fc.string() },
          { requiredKeys: ["type"] },
        ),
        fc.record({ enum: fc.array(fc.oneof(fc.string(), fc.integer()), { minLength: 1, maxLength: 3 }) }),
        fc.record({ type: fc.constant("array"), items: tie("schema") }, { requiredKeys: ["type"] }),
        fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
        fc.record({ $ref: fc.constant("#/$defs/x"), title: fc.string() }, { requiredKeys: ["$ref"] }),
      ),
      object: fc
        .record(
          {
            type: fc.constant("object"),
            properties: fc.dictionary(name, tie("schema"), { maxKeys: 4 }),
            additionalProperties: fc.boolean(),
            title: fc.string(),
            example: fc.string(),
          },
          { requiredKeys: ["properties"] },
        )
        .map((object) => {
          const keys = Object.keys(object["properties"] as object);
          return keys.length > 0 ? { ...object, required: keys.slice(0, 1) } : object;
        }),
      schema: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("leaf"), tie("object")),
    }));
    fc.assert(
      fc.property(schema, (value) => {
        const before = JSON.stringify(value);
        expect(readToolSchema(value, "input")).toBe(value);
        expect(JSON.stringify(value)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  it("reads any map of parameter descriptions as an object schema with exactly those parameters (property)", () => {
    const keywords = new Set([
      "type",
      "properties",
      "items",
      "not",
      "if",
      "then",
      "else",
      "contains",
      "definitions",
      "$defs",
      "description",
      "title",
      "format",
      "pattern",
    ]);
    const parameter = fc.record(
      {
        type: fc.constantFrom("str", "int", "float", "bool", "list", "dict", "string", "List[str]", "file", "DATE"),
        description: fc.string(),
        required: fc.boolean(),
      },
      { requiredKeys: ["type"] },
    );
    const names = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_ ]{0,15}$/u).filter((name) => !keywords.has(name));
    fc.assert(
      fc.property(fc.dictionary(names, parameter, { minKeys: 1, maxKeys: 6 }), (map) => {
        const schema = readToolSchema(map, "input");
        expect(schema["type"]).toBe("object");
        expect(Object.keys(schema["properties"] as object)).toEqual(Object.keys(map));
        const required = Object.entries(map)
          .filter(([, item]) => item.required === true)
          .map(([name]) => name);
        expect(schema["required"] ?? []).toEqual(required);
        for (const property of Object.values(schema["properties"] as Record<string, Record<string, unknown>>))
          expect(property["required"]).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("moves draft-03 required flags into the parent's required list, at every depth", () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string", required: true },
        days: { type: "integer", required: false },
        where: { type: "object", properties: { lat: { type: "number", required: true } }, required: ["lon"] },
      },
      required: ["units"],
    };
    expect(readToolSchema(schema, "input")).toStrictEqual({
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        where: { type: "object", properties: { lat: { type: "number" } }, required: ["lon", "lat"] },
      },
      required: ["units", "city"],
    });
  });

  it("reads a map of parameter descriptions: required flags, desc, allowed values, unknown types kept in the description", () => {
    const map = {
      query: { type: "str", description: "What to look for", required: true },
      limit: { type: "int", desc: "At most this many", required: false, default: 10 },
      sort: { type: "string", allowed_values: ["best", "newest"] },
      tags: { type: "List[str]" },
      audio: { type: "file", description: "A recording" },
      when: { type: "DATE (YYYY-MM-DD)" },
      place: { type: "object", properties: { city: { type: "str", required: true }, zip: { type: "int" } } },
      type: { type: "array", description: "a parameter named like a keyword" },
    };
    expect(readToolSchema(map, "input")).toStrictEqual({
      type: "object",
      properties: {
        query: { type: "string", description: "What to look for" },
        limit: { type: "integer", description: "At most this many", default: 10 },
        sort: { type: "string", enum: ["best", "newest"] },
        tags: { type: "array", items: { type: "string" } },
        audio: { description: "A recording (type: file)" },
        when: { description: "type: DATE (YYYY-MM-DD)" },
        place: {
          type: "object",
          properties: { city: { type: "string" }, zip: { type: "integer" } },
          required: ["city"],
        },
        type: { type: "array", description: "a parameter named like a keyword" },
      },
      required: ["query"],
    });
  });

  it("reads a map of names to type names or descriptions, and keeps schemas of strings as schemas", () => {
    expect(
      readToolSchema({ expression: "str", precision: "int", when: "The day, as YYYY-MM-DD" }, "input"),
    ).toStrictEqual({
      type: "object",
      properties: {
        expression: { type: "string" },
        precision: { type: "integer" },
        when: { description: "The day, as YYYY-MM-DD" },
      },
    });
    const schemas = [
      { type: "object", description: "Anything" },
      { $ref: "#/$defs/x", title: "X" },
      { type: "object", properties: { a: { type: "string" } }, example: "a" },
    ];
    for (const schema of schemas) expect(readToolSchema(schema, "input")).toBe(schema);
  });

  it("reads a parameter named properties as a parameter, not as the schema keyword", () => {
    expect(readToolSchema({ properties: { type: "object", description: "Fields to set" } }, "input")).toStrictEqual({
      type: "object",
      properties: { properties: { type: "object", description: "Fields to set" } },
    });
  });

  it("reads a list of parameters, and names the one without a name", () => {
    expect(
      readToolSchema(
        [
          { name: "location", type: "string", desc: "A city", required: true },
          { name: "date", type: "string", description: "The day" },
          { name: "unit", type: "string", optional: false },
        ],
        "input",
      ),
    ).toStrictEqual({
      type: "object",
      properties: {
        location: { type: "string", description: "A city" },
        date: { type: "string", description: "The day" },
        unit: { type: "string" },
      },
      required: ["location", "unit"],
    });
    expect(readToolSchema([], "input")).toStrictEqual({ type: "object", properties: {} });
    expect(
      readToolSchema(
        [
          {
            name: "petId",
            in: "path",
            required: true,
            description: "The pet",
            schema: { type: "integer", format: "int64" },
          },
          { name: "fields", in: "query", schema: { type: "array", items: { type: "string" } } },
        ],
        "input",
      ),
    ).toStrictEqual({
      type: "object",
      properties: {
        petId: { type: "integer", format: "int64", description: "The pet" },
        fields: { type: "array", items: { type: "string" } },
      },
      required: ["petId"],
    });
    const error = caught(() => readToolSchema([{ name: "a" }, { type: "string" }], 'Tool "t" input'));
    expect(error.code).toBe("invalid-catalog");
    expect(error.message).toBe(
      'Tool "t" input parameter 2 needs a name, or an object with a non-empty string name, got {"type":"string"}',
    );
    expect(readToolSchema(["image", "prompt"], "input")).toStrictEqual({
      type: "object",
      properties: { image: {}, prompt: {} },
    });
    expect(caught(() => readToolSchema("None", 'Tool "t" input')).message).toBe(
      'Tool "t" input schema must be a JSON Schema object, a map of parameters or a list of parameters, got "None"',
    );
  });
});

describe("normalizeCatalog: function-calling data sets", () => {
  it("reads a NESTFUL-style spec: query and output parameter maps", () => {
    const [tool] = normalizeCatalog([
      {
        name: "convert_currency",
        description: "Convert an amount between currencies",
        query_parameters: {
          amount: { type: "number", required: true, description: "How much" },
          from: { type: "string", required: true },
          to: { type: "string", required: true },
        },
        output_parameters: { converted_amount: { type: "float", description: "The result" } },
      },
    ]);
    expect(tool).toStrictEqual({
      name: "convert_currency",
      description: "Convert an amount between currencies",
      inputSchema: {
        type: "object",
        properties: {
          amount: { type: "number", description: "How much" },
          from: { type: "string" },
          to: { type: "string" },
        },
        required: ["amount", "from", "to"],
      },
      outputSchema: { type: "object", properties: { converted_amount: { type: "number", description: "The result" } } },
    });
  });

  it("validates plans against such a catalog: missing required arguments and undeclared output fields", () => {
    const raw = [
      {
        name: "convert_currency",
        description: "Convert an amount",
        parameters: { amount: { type: "float", required: true }, to: { type: "str", required: true } },
        output_parameters: { converted_amount: { type: "float" } },
      },
    ];
    const catalog = normalizeCatalog(raw);
    const good = validatePlan(
      [
        { id: "s1", type: "tool", name: "convert_currency", arguments: { amount: 5, to: "EUR" } },
        { id: "s2", type: "reply", text: "{{s1.converted_amount}} EUR" },
      ],
      catalog,
    );
    expect(good.issues).toEqual([]);
    const bad = validatePlan(
      [
        { id: "s1", type: "tool", name: "convert_currency", arguments: { amount: "five" } },
        { id: "s2", type: "tool", name: "convert_currency", arguments: { amount: 5, to: "EUR" } },
        { id: "s3", type: "reply", text: "{{s2.amount}}" },
      ],
      catalog,
    );
    expect(bad.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["missing-argument", "/steps/0/arguments/to"],
      ["invalid-argument", "/steps/0/arguments/amount"],
      ["unknown-reference", "/steps/2/text"],
    ]);
  });

  it("reads TaskBench-style tool graphs: nodes with id, desc and a parameter list", () => {
    const tools = normalizeCatalog({
      nodes: [
        {
          id: "get_weather",
          desc: "Weather for a place and day",
          parameters: [
            { name: "location", type: "string", desc: "Where" },
            { name: "date", type: "string", desc: "When" },
          ],
        },
        { id: "Text-to-Image", desc: "Draw a picture from text", "input-type": ["text"], "output-type": ["image"] },
      ],
      links: [{ source: "get_weather", target: "Text-to-Image" }],
    });
    expect(tools).toStrictEqual([
      {
        name: "get_weather",
        description: "Weather for a place and day",
        inputSchema: {
          type: "object",
          properties: {
            location: { type: "string", description: "Where" },
            date: { type: "string", description: "When" },
          },
        },
      },
      { name: "Text-to-Image", description: "Draw a picture from text", inputSchema: { type: "object" } },
    ]);
  });

  it("reads ToolBench-style API lists: required and optional parameter lists with upper-case types", () => {
    const [tool] = normalizeCatalog({
      api_list: [
        {
          name: "search_hotels",
          description: "Find hotels",
          required_parameters: [{ name: "city", type: "STRING", description: "City name", default: "Paris" }],
          optional_parameters: [
            { name: "stars", type: "NUMBER", description: "Minimum stars", default: "" },
            { name: "checkin", type: "DATE (YYYY-MM-DD)", description: "Arrival" },
          ],
        },
      ],
    });
    expect(tool?.inputSchema).toStrictEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name", default: "Paris" },
        stars: { type: "number", description: "Minimum stars", default: "" },
        checkin: { description: "Arrival (type: DATE (YYYY-MM-DD))" },
      },
      required: ["city"],
    });
  });

  it("reads BFCL's Java-flavoured schemas, and a registry then checks arguments by them", async () => {
    const [descriptor] = normalizeCatalog([
      {
        name: "Box.make",
        description: "Make a box",
        parameters: {
          type: "dict",
          properties: {
            size: { type: "integer" },
            label: { type: "String" },
            meta: { type: "HashMap" },
            ids: { type: "ArrayList" },
          },
          required: ["size"],
        },
      },
    ]);
    expect(descriptor?.inputSchema).toStrictEqual({
      type: "object",
      properties: {
        size: { type: "integer" },
        label: { type: "string" },
        meta: { type: "object" },
        ids: { type: "array" },
      },
      required: ["size"],
    });
    const registry = new ToolRegistry().register({
      name: "set_fields",
      inputSchema: readToolSchema(
        { type: "object", properties: { name: { type: "String", required: true }, tags: { type: "List[str]" } } },
        "set_fields input",
      ),
      execute: (args) => args,
    });
    expect(registry.get("set_fields")?.inputSchema).toStrictEqual({
      type: "object",
      properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
      required: ["name"],
    });
    await expect(registry.call("set_fields", { name: "a", tags: ["x"] })).resolves.toStrictEqual({
      name: "a",
      tags: ["x"],
    });
    await expect(registry.call("set_fields", { tags: ["x"] })).rejects.toMatchObject({ code: "invalid-argument" });
    await expect(registry.call("set_fields", { name: "a", tags: [1] })).rejects.toMatchObject({
      code: "invalid-argument",
    });
  });

  it("reads args maps of type names", () => {
    expect(
      normalizeCatalog({ calculator: { desc: "Evaluate an expression", args: { expression: "str" } } } as never),
    ).toStrictEqual([
      {
        name: "calculator",
        description: "Evaluate an expression",
        inputSchema: { type: "object", properties: { expression: { type: "string" } } },
      },
    ]);
  });

  it("finds the tool list under tools, functions or apis, and keeps a name over an id", () => {
    const item = { name: "ping", id: "other", desc: "Check a host" };
    const expected = [{ name: "ping", description: "Check a host", inputSchema: { type: "object" } }];
    expect(normalizeCatalog({ functions: [item] })).toStrictEqual(expected);
    expect(normalizeCatalog({ apis: [item] })).toStrictEqual(expected);
    expect(normalizeCatalog({ tools: [item] })).toStrictEqual(expected);
  });
});
