import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { expectTypeOf } from "vitest";
import { defineTool, type ToolDefinition, ToolRegistry } from "../../src/index.ts";
import {
  fromAiSdkTools,
  type InferJsonSchema,
  type InferToolArguments,
  type JsonSchemaDefinition,
  type StandardJsonSchemaV1,
  type StandardSchemaV1,
  type ToolExecuteOptions,
} from "../../src/tools.ts";

const registry = new ToolRegistry();

// A JSON Schema written inline: the const type parameter keeps it literal.
registry.register({
  name: "add",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: ({ a, b }) => {
    expectTypeOf(a).toEqualTypeOf<number>();
    expectTypeOf(b).toEqualTypeOf<number>();
    return { sum: a + b };
  },
});

// A JSON Schema written apart, as const.
const searchSchema = {
  type: "object",
  properties: {
    query: { type: "string" },
    limit: { type: "integer" },
    exact: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    sort: { enum: ["date", "score"] },
    version: { const: 2 },
    cursor: { type: ["string", "null"] },
    filter: { type: "object", properties: { from: { type: "string" }, to: { type: "string" } }, required: ["from"] },
    extra: { description: "anything" },
  },
  required: ["query", "version"],
} as const;
registry.register({
  name: "search",
  inputSchema: searchSchema,
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<{
      query: string;
      version: 2;
      limit?: number;
      exact?: boolean;
      tags?: string[];
      sort?: "date" | "score";
      cursor?: string | null;
      filter?: { from: string; to?: string };
      extra?: unknown;
    }>();
    return null;
  },
});

// A valibot schema: execute gets its output type (after transforms and defaults).
registry.register({
  name: "weather",
  inputSchema: toStandardJsonSchema(v.object({ city: v.string(), days: v.optional(v.number(), 1) })),
  execute: (args, options) => {
    expectTypeOf(args).toEqualTypeOf<{ city: string; days: number }>();
    expectTypeOf(options).toEqualTypeOf<ToolExecuteOptions>();
    return { city: args.city };
  },
});
registry.register({
  name: "length",
  inputSchema: v.object({
    text: v.pipe(
      v.string(),
      v.transform((text) => text.length),
    ),
  }),
  execute: ({ text }) => {
    expectTypeOf(text).toEqualTypeOf<number>();
    return text;
  },
});

// An output schema types what execute returns.
registry.register({
  name: "square",
  inputSchema: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
  outputSchema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
  execute: async ({ x }) => ({ value: x * x }),
});
registry.register({
  name: "square_wrong",
  inputSchema: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
  outputSchema: v.object({ value: v.number() }),
  // @ts-expect-error the output schema wants a number
  execute: ({ x }) => ({ value: String(x) }),
});

// A schema that is not a JSON Schema type name fails to compile, at any depth.
registry.register({
  name: "typo",
  // @ts-expect-error "objekt" is not a JSON Schema type
  inputSchema: { type: "objekt" },
  execute: () => null,
});
registry.register({
  name: "nested_typo",
  // @ts-expect-error "numbr" is not a JSON Schema type
  inputSchema: { type: "object", properties: { a: { type: "numbr" } } },
  execute: () => null,
});
// @ts-expect-error a misspelt type name in a list of tools (reported on the call)
registry.register([{ name: "typo_in_list", inputSchema: { type: "objec" }, execute: () => null }]);
registry.register({
  name: "typo_in_items",
  // @ts-expect-error "strin" is not a JSON Schema type, in a list's items either
  inputSchema: { type: "object", properties: { tags: { type: "array", items: { type: "strin" } } } },
  execute: () => null,
});
// @ts-expect-error a wrong argument type in the body
registry.register({ name: "misuse", inputSchema: v.object({ a: v.string() }), execute: ({ a }) => a.toFixed(1) });

// Without a schema, or with one that is not literal, the arguments are a record of unknown values.
registry.register({
  name: "bare",
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
  },
});
declare const loose: Record<string, unknown>;
registry.register({
  name: "loose",
  inputSchema: loose,
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
  },
});
// A schema held in a variable without as const stays accepted, with untyped arguments.
const widened = { type: "object", properties: { a: { type: "number" } }, required: ["a"] };
registry.register({
  name: "widened",
  inputSchema: widened,
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
  },
});
// @ts-expect-error an unknown value is no schema
registry.register({ name: "unknown", inputSchema: loose as unknown, execute: () => null });

// Several tools at once keep each one's type.
registry.register([
  {
    name: "one",
    inputSchema: v.object({ a: v.string() }),
    execute: ({ a }) => expectTypeOf(a).toEqualTypeOf<string>(),
  },
  {
    name: "two",
    inputSchema: { type: "object", properties: { b: { type: "boolean" } }, required: ["b"] },
    execute: ({ b }) => expectTypeOf(b).toEqualTypeOf<boolean>(),
  },
]);

// defineTool types a tool apart from its registry; the tool still registers.
const add = defineTool({
  name: "add2",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: ({ a, b }) => ({ sum: a + b }),
});
expectTypeOf(add.execute).parameter(0).toEqualTypeOf<{ a: number; b: number }>();
const echo = defineTool({ name: "echo", inputSchema: v.object({ text: v.string() }), execute: ({ text }) => text });
expectTypeOf(echo.execute).parameter(0).toEqualTypeOf<{ text: string }>();
registry.register(add).register([add, echo]);
const untyped: ToolDefinition = add;
expectTypeOf(untyped.execute).parameter(0).toEqualTypeOf<Record<string, unknown>>();
const list: ToolDefinition[] = [add, echo];
registry.register(list);

// fromAiSdkTools: a plain object's execute is typed from its schema.
fromAiSdkTools({
  weather: {
    inputSchema: v.object({ city: v.string() }),
    execute: async ({ city }, { toolCallId }) => {
      expectTypeOf(city).toEqualTypeOf<string>();
      expectTypeOf(toolCallId).toEqualTypeOf<string>();
      return city;
    },
  },
  sum: {
    inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] },
    execute: ({ a }) => expectTypeOf(a).toEqualTypeOf<number>(),
  },
});

fromAiSdkTools({
  // @ts-expect-error a misspelt type name in a plain object's JSON Schema
  typo: { inputSchema: { type: "objekt" }, execute: () => null },
});

// The schema types themselves.
expectTypeOf<InferJsonSchema<{ type: "array"; items: { type: "integer" } }>>().toEqualTypeOf<number[]>();
expectTypeOf<InferJsonSchema<{ type: "null" }>>().toEqualTypeOf<null>();
expectTypeOf<InferJsonSchema<{ anyOf: [{ type: "string" }, { type: "number" }] }>>().toEqualTypeOf<string | number>();
expectTypeOf<InferJsonSchema<{ type: "object"; additionalProperties: { type: "number" } }>>().toEqualTypeOf<
  Record<string, number>
>();
expectTypeOf<InferJsonSchema<{ type: "object" }>>().toEqualTypeOf<Record<string, unknown>>();
expectTypeOf<InferJsonSchema<{ format: "email" }>>().toEqualTypeOf<unknown>();
expectTypeOf<InferToolArguments<typeof searchSchema>["filter"]>().toEqualTypeOf<
  { from: string; to?: string } | undefined
>();
expectTypeOf(v.object({ a: v.number() })).toMatchTypeOf<StandardSchemaV1<{ a: number }>>();
expectTypeOf(toStandardJsonSchema(v.object({ a: v.number() }))).toMatchTypeOf<StandardJsonSchemaV1<{ a: number }>>();
expectTypeOf({ type: "objekt" } as const).not.toMatchTypeOf<JsonSchemaDefinition>();
