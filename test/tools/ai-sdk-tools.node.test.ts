import { toJsonSchema } from "@valibot/to-json-schema";
import { jsonSchema, tool } from "ai";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../src/index.ts";
import { fromAiSdkTools } from "../../src/tools.ts";

describe("fromAiSdkTools with the real AI SDK", () => {
  it("registers tool() objects built with jsonSchema() and with a valibot schema", async () => {
    const weather = tool({
      description: "Current weather for a city",
      inputSchema: jsonSchema<{ city: string }>({
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      }),
      execute: async ({ city }, { toolCallId, abortSignal }) => ({
        city,
        celsius: 21,
        toolCallId,
        aborted: abortSignal?.aborted ?? null,
      }),
    });
    const echo = tool({
      description: "Echo text",
      inputSchema: v.object({ text: v.pipe(v.string(), v.minLength(1)) }),
      execute: async ({ text }) => text,
    });
    const registry = new ToolRegistry({ toJsonSchema }).register(
      fromAiSdkTools({ weather, echo }, { annotations: { weather: { readOnlyHint: true } } }),
    );
    expect(
      registry.list().map((descriptor) => [descriptor.name, descriptor.description, descriptor.annotations]),
    ).toEqual([
      ["weather", "Current weather for a city", { readOnlyHint: true }],
      ["echo", "Echo text", undefined],
    ]);
    expect(registry.get("echo")?.inputSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string", minLength: 1 } },
      required: ["text"],
    });
    const controller = new AbortController();
    await expect(
      registry.call("weather", { city: "Rome" }, { signal: controller.signal, callId: "s1" }),
    ).resolves.toEqual({ city: "Rome", celsius: 21, toolCallId: "s1", aborted: false });
    await expect(registry.call("echo", { text: "hi" })).resolves.toBe("hi");
    await expect(registry.call("echo", { text: "" })).rejects.toThrow(
      'Tool "echo": argument "text" is "": Invalid length: Expected >=1 but received 0 (/text)',
    );
  });

  it("names a tool written with AI SDK 4's parameters instead of inputSchema, rather than offering it with no arguments", () => {
    const legacy = { description: "Echo text", parameters: v.object({ text: v.string() }), execute: async () => "hi" };
    expect(() => fromAiSdkTools({ echo: legacy })).toThrow(
      'AI SDK tool "echo" has parameters but no inputSchema; AI SDK 5 renamed parameters to inputSchema',
    );
  });
});
