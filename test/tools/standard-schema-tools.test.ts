import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { defineTool, ToolRegistry } from "../../src/index.ts";
import { validatePlan } from "../../src/plan.ts";
import {
  fromAiSdkTools,
  type StandardJsonSchemaV1,
  type StandardSchemaResult,
  type StandardSchemaV1,
  toToolJsonSchema,
} from "../../src/tools.ts";
import { thrownBy as caught, rejectionOf as rejection } from "../fixtures/catch-plankit-error.ts";

const draft2020 = "https://json-schema.org/draft/2020-12/schema";

/** A Standard Schema written by hand: even numbers only, which its JSON Schema cannot say; validation is async. */
function evenSchema(
  log: string[],
  convert: (target: string) => Record<string, unknown> = () => ({
    type: "object",
    properties: { n: { type: "number" } },
    required: ["n"],
  }),
) {
  const schema: StandardSchemaV1<{ n: number }> & StandardJsonSchemaV1<{ n: number }> = {
    "~standard": {
      version: 1,
      vendor: "handmade",
      validate: (value): Promise<StandardSchemaResult<{ n: number }>> => {
        log.push(`validate ${JSON.stringify(value)}`);
        const n = (value as { n?: unknown }).n;
        return Promise.resolve(
          typeof n === "number" && n % 2 === 0
            ? { value: { n } }
            : { issues: [{ message: "must be an even number", path: [{ key: "n" }] }] },
        );
      },
      jsonSchema: {
        input: ({ target }) => (log.push(`input ${target}`), convert(target)),
        output: ({ target }) => (log.push(`output ${target}`), convert(target)),
      },
    },
  };
  return schema;
}

describe("tools with a Standard Schema", () => {
  const weather = toStandardJsonSchema(
    v.object({
      city: v.string(),
      days: v.optional(v.pipe(v.number(), v.integer()), 1),
      stops: v.optional(v.array(v.object({ name: v.string() }))),
    }),
  );

  it("derive the JSON Schema the model and the plan validator read from ~standard.jsonSchema", () => {
    const registry = new ToolRegistry().register({
      name: "weather",
      inputSchema: weather,
      execute: ({ city, days }) => ({ city, days }),
    });
    expect(registry.get("weather")?.inputSchema).toMatchObject({
      $schema: draft2020,
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    });
    const plan = [
      { type: "tool", name: "weather", arguments: { days: 2 } },
      { type: "reply", text: "ok" },
    ];
    expect(validatePlan(plan, registry).issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["missing-argument", "/steps/0/arguments/city"],
    ]);
  });

  it("validate calls with the schema's own validate and pass execute the value it returns", async () => {
    const seen: unknown[] = [];
    const registry = new ToolRegistry().register({
      name: "weather",
      inputSchema: weather,
      execute: (args) => (seen.push(args), args.days),
    });
    await expect(registry.call("weather", { city: "Paris" })).resolves.toBe(1);
    expect(seen).toEqual([{ city: "Paris", days: 1 }]);
  });

  it("refuse a wrong argument with the tool, the path and the value, and never run the tool", async () => {
    let ran = 0;
    const registry = new ToolRegistry().register({ name: "weather", inputSchema: weather, execute: () => ran++ });
    const wrongType = await rejection(registry.call("weather", { city: 3 }));
    expect(wrongType.code).toBe("invalid-argument");
    expect(wrongType.message).toBe(
      'Tool "weather": argument "city" is 3: Invalid type: Expected string but received 3 (/city)',
    );
    expect(wrongType.cause).toMatchObject({
      problems: [{ code: "invalid-argument", pointer: "/city", argument: "city", actual: 3 }],
    });
    const nested = await rejection(registry.call("weather", { city: "Rome", stops: [{ name: "Pisa" }, { name: 5 }] }));
    expect(nested.message).toBe(
      'Tool "weather": argument "stops[1].name" is 5: Invalid type: Expected string but received 5 (/stops/1/name)',
    );
    const missing = await rejection(registry.call("weather", { days: 1.5 }));
    expect(missing.message).toBe(
      'Tool "weather": missing required argument "city": Invalid key: Expected "city" but received undefined (/city); ' +
        'Tool "weather": argument "days" is 1.5: Invalid integer: Received 1.5 (/days)',
    );
    expect(missing.cause).toMatchObject({
      problems: [
        { code: "missing-argument", pointer: "/city" },
        { code: "invalid-argument", pointer: "/days", actual: 1.5 },
      ],
    });
    expect((await rejection(registry.call("weather", "Paris"))).message).toBe(
      'Tool "weather": argument "(arguments)" is "Paris": Invalid type: Expected Object but received "Paris" (/)',
    );
    expect(ran).toBe(0);
  });

  it("go through any library's validate, sync or async, even for what JSON Schema cannot say", async () => {
    const log: string[] = [];
    const registry = new ToolRegistry().register({
      name: "half",
      inputSchema: evenSchema(log),
      outputSchema: evenSchema(log),
      execute: ({ n }) => ({ n: n / 2 }),
    });
    expect(log).toEqual(["input draft-2020-12", "output draft-2020-12"]);
    await expect(registry.call("half", { n: 8 })).resolves.toEqual({ n: 4 });
    expect((await rejection(registry.call("half", { n: 3 }))).message).toBe(
      'Tool "half": argument "n" is 3: must be an even number (/n)',
    );
    const odd = await rejection(registry.call("half", { n: 6 }));
    expect(odd.code).toBe("invalid-output");
    expect(odd.message).toBe('Tool "half" output: field "n" is 3: must be an even number (/n)');
    expect(log.slice(2)).toEqual([
      'validate {"n":8}',
      'validate {"n":4}',
      'validate {"n":3}',
      'validate {"n":6}',
      'validate {"n":3}',
    ]);
  });

  it("check and return a result through the output schema's validate, unless told not to", async () => {
    const outputSchema = toStandardJsonSchema(v.object({ value: v.number(), unit: v.optional(v.string(), "m") }));
    const tool = (value: unknown) => ({
      name: "height",
      outputSchema,
      execute: () => ({ value }) as { value: number },
    });
    expect(new ToolRegistry().register(tool(8848)).get("height")?.outputSchema).toMatchObject({
      type: "object",
      required: ["value"],
    });
    await expect(new ToolRegistry().register(tool(8848)).call("height", {})).resolves.toEqual({
      value: 8848,
      unit: "m",
    });
    const error = await rejection(new ToolRegistry().register(tool("high")).call("height", {}));
    expect(error.message).toBe(
      'Tool "height" output: field "value" is "high": Invalid type: Expected number but received "high" (/value)',
    );
    expect(error.cause).toMatchObject({ result: { value: "high" } });
    await expect(
      new ToolRegistry({ validateOutput: false }).register(tool("high")).call("height", {}),
    ).resolves.toEqual({ value: "high" });
  });

  it("ask for draft-07 when a library does not give draft 2020-12, and say what failed when it gives neither", () => {
    const log: string[] = [];
    const draft07 = evenSchema(log, (target) => {
      if (target !== "draft-07") throw new Error(`Unsupported target: ${target}`);
      return {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { n: { type: "number" } },
      };
    });
    expect(
      new ToolRegistry().register({ name: "t", inputSchema: draft07, execute: () => 1 }).get("t")?.inputSchema,
    ).toMatchObject({ $schema: "http://json-schema.org/draft-07/schema#" });
    expect(log).toEqual(["input draft-2020-12", "input draft-07"]);
    const none = evenSchema([], (target) => {
      throw new Error(`no ${target}`);
    });
    const error = caught(() => new ToolRegistry().register({ name: "t", inputSchema: none, execute: () => 1 }));
    expect(error.code).toBe("invalid-catalog");
    expect(error.message).toBe(
      'Tool "t" input: the handmade schema could not give its JSON Schema (no draft-2020-12; no draft-07); ' +
        "give the tool a plain JSON Schema, or a schema JSON Schema can express",
    );
  });

  it("without a JSON Schema of their own are refused with how to give one, and taken through the toJsonSchema option", async () => {
    const plain = v.object({ city: v.string() });
    const error = caught(() =>
      new ToolRegistry().register({ name: "w", inputSchema: plain, execute: ({ city }) => city }),
    );
    expect(error.code).toBe("invalid-catalog");
    expect(error.message).toContain(
      "wrap it with toStandardJsonSchema from @valibot/to-json-schema, pass a converter as new ToolRegistry({ toJsonSchema })",
    );
    const converted: unknown[] = [];
    const toJsonSchema = (schema: unknown) => (
      converted.push(schema), { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
    );
    const registry = new ToolRegistry({ toJsonSchema }).register({
      name: "w",
      inputSchema: plain,
      execute: ({ city }) => city.toUpperCase(),
    });
    expect(converted).toEqual([plain]);
    await expect(registry.call("w", { city: "Oslo" })).resolves.toBe("OSLO");
    expect((await rejection(registry.call("w", { city: null }))).message).toBe(
      'Tool "w": argument "city" is null: Invalid type: Expected string but received null (/city)',
    );
    expect(toToolJsonSchema(plain, { toJsonSchema })).toEqual({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    });
  });

  it("are typed apart from the registry with defineTool, which returns the tool itself", async () => {
    const tool = {
      name: "add",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      execute: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
    } as const;
    const add = defineTool(tool);
    expect(add).toBe(tool);
    const registry = new ToolRegistry().register([
      add,
      defineTool({ name: "twice", inputSchema: weather, execute: ({ days }) => days * 2 }),
    ]);
    await expect(registry.call("add", { a: 2, b: 3 })).resolves.toEqual({ sum: 5 });
    await expect(registry.call("twice", { city: "Bern" })).resolves.toBe(2);
  });

  it("come in through fromAiSdkTools as well", async () => {
    const registry = new ToolRegistry().register(
      fromAiSdkTools({
        weather: { inputSchema: weather, execute: ({ city }, { toolCallId }) => `${city} ${toolCallId}` },
      }),
    );
    await expect(registry.call("weather", { city: "Lima" }, { callId: "s1" })).resolves.toBe("Lima s1");
    expect((await rejection(registry.call("weather", { city: false }))).message).toBe(
      'Tool "weather": argument "city" is false: Invalid type: Expected string but received false (/city)',
    );
  });
});
