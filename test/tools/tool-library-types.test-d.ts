import { jsonSchema, tool } from "ai";
import { type } from "arktype";
import type * as v from "valibot";
import { expectTypeOf } from "vitest";
import { z } from "zod";
import { defineTool, ToolRegistry } from "../../src/index.ts";
import { fromAiSdkTools, type InferToolArguments, type InferToolResult } from "../../src/tools.ts";

const registry = new ToolRegistry();

// zod 4: execute gets the parsed type (defaults applied), and returns what the output schema takes.
registry.register({
  name: "weather",
  inputSchema: z.object({ city: z.string(), days: z.number().int().default(1), unit: z.enum(["c", "f"]).optional() }),
  outputSchema: z.object({ celsius: z.number() }),
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ city: string; days: number; unit?: "c" | "f" | undefined }>();
    return { celsius: 21 };
  },
});
registry.register({
  name: "weather_wrong_result",
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ celsius: z.number() }),
  // @ts-expect-error the output schema wants a number
  execute: () => ({ celsius: "21" }),
});

// ArkType: the type's output.
registry.register({
  name: "stops",
  inputSchema: type({ city: "string", "days?": "number.integer" }),
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number }>();
    return args.city;
  },
});

// The inference helpers on their own.
expectTypeOf<InferToolArguments<typeof zodPoint>>().toEqualTypeOf<{ x: number; label: string }>();
expectTypeOf<InferToolResult<typeof zodPoint>>().toEqualTypeOf<{ x: number; label?: string | undefined }>();
const zodPoint = z.object({ x: z.number(), label: z.string().default("") });
expectTypeOf<InferToolArguments<ReturnType<typeof v.object<{ a: ReturnType<typeof v.string> }>>>>().toEqualTypeOf<{
  a: string;
}>();

// AI SDK tool() objects keep the AI SDK's own typing, and fromAiSdkTools takes them as they are.
const aiWeather = tool({
  description: "Current weather",
  inputSchema: jsonSchema<{ city: string }>({
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
  }),
  execute: async ({ city }, { toolCallId }) => ({ city, toolCallId }),
});
const aiEcho = tool({ inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text });
expectTypeOf<InferToolArguments<typeof aiWeather.inputSchema>>().toEqualTypeOf<{ city: string }>();
registry.register(fromAiSdkTools({ aiWeather, aiEcho }));

// A plain object in fromAiSdkTools: zod and ArkType schemas type execute too.
fromAiSdkTools({
  echo: {
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => expectTypeOf(text).toEqualTypeOf<string>(),
  },
  stops: { inputSchema: type({ n: "number" }), execute: ({ n }) => expectTypeOf(n).toEqualTypeOf<number>() },
});

// defineTool with zod.
const shout = defineTool({
  name: "shout",
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});
expectTypeOf(shout.execute).parameter(0).toEqualTypeOf<{ text: string }>();
