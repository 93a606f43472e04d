import { toJsonSchema, toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { type ToolDefinition, ToolRegistry } from "../../src/index.ts";
import { validatePlan } from "../../src/plan.ts";
import { fromAiSdkTools, fromMcpTools, selectTools } from "../../src/tools.ts";
import { thrownBy as caught, rejectionOf as rejection } from "../fixtures/catch-plankit-error.ts";

const calculator: ToolDefinition = {
  name: "calculator",
  description: "Evaluate an arithmetic expression",
  inputSchema: {
    type: "object",
    properties: { expr: { type: "string" }, precision: { type: "integer", minimum: 0 } },
    required: ["expr"],
  },
  outputSchema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
  annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  execute: ({ expr }) => ({ value: expr === "21*2+5" ? 47 : 0 }),
};

describe("ToolRegistry", () => {
  it("lists MCP descriptors with annotations and describes in the record shape", () => {
    const registry = new ToolRegistry().register(calculator);
    expect(registry.list()).toEqual([
      {
        name: "calculator",
        description: "Evaluate an arithmetic expression",
        inputSchema: calculator.inputSchema,
        outputSchema: calculator.outputSchema,
        annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      },
    ]);
    expect(registry.describe()).toEqual({
      calculator: {
        description: "Evaluate an arithmetic expression",
        input_schema: calculator.inputSchema,
        output_schema: calculator.outputSchema,
        annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      },
    });
    expect(registry.has("calculator")).toBe(true);
    expect(registry.get("nope")).toBeUndefined();
  });

  it("calls a tool with valid arguments", async () => {
    const registry = new ToolRegistry().register(calculator);
    await expect(registry.call("calculator", { expr: "21*2+5" })).resolves.toEqual({ value: 47 });
  });

  it("validates arguments first, naming the tool and the failing paths", async () => {
    let ran = false;
    const registry = new ToolRegistry().register({ ...calculator, execute: () => ((ran = true), { value: 1 }) });
    const error = await rejection(registry.call("calculator", { precision: -1 }));
    expect(error.code).toBe("invalid-argument");
    expect(error.message).toBe(
      'Tool "calculator": missing required argument "expr" (/expr); Tool "calculator": argument "precision" is -1, expected a number >= 0 (/precision)',
    );
    expect((error.cause as { problems: unknown[] }).problems).toHaveLength(2);
    expect((await rejection(registry.call("calculator", "2+2"))).message).toBe(
      'Tool "calculator": argument "(arguments)" is "2+2", expected object (/)',
    );
    expect(ran).toBe(false);
  });

  it("throws unknown-tool with a suggestion", async () => {
    const error = await rejection(new ToolRegistry().register(calculator).call("calculater", {}));
    expect(error.code).toBe("unknown-tool");
    expect(error.message).toBe('Tool "calculater" is not registered; did you mean "calculator"?');
  });

  it("passes the signal and a call id, and refuses to start an aborted call", async () => {
    const seen: unknown[] = [];
    const registry = new ToolRegistry().register({
      name: "probe",
      execute: (_args, options) => (seen.push(options), "ok"),
    });
    const controller = new AbortController();
    await registry.call("probe", {}, { signal: controller.signal, callId: "s7" });
    await registry.call("probe", {});
    expect(seen).toEqual([
      { signal: controller.signal, callId: "s7" },
      { signal: undefined, callId: "probe-2" },
    ]);
    controller.abort(new Error("stop"));
    expect((await rejection(registry.call("probe", {}, { signal: controller.signal }))).code).toBe("aborted");
  });

  it("checks structured results against the output schema, unless told not to", async () => {
    const broken = { ...calculator, execute: () => ({ value: "47" }) };
    const error = await rejection(new ToolRegistry().register(broken).call("calculator", { expr: "x" }));
    expect(error.code).toBe("invalid-output");
    expect(error.message).toBe('Tool "calculator" output: field "value" is "47", expected number (/value)');
    await expect(
      new ToolRegistry({ validateOutput: false }).register(broken).call("calculator", { expr: "x" }),
    ).resolves.toEqual({ value: "47" });
  });

  it("returns the last value of a streamed result", async () => {
    const registry = new ToolRegistry().register({
      name: "stream",
      async *execute() {
        yield { status: "working" };
        yield { status: "done" };
      },
    });
    await expect(registry.call("stream", {})).resolves.toEqual({ status: "done" });
  });

  it("rejects repeated names, missing execute and unconvertible schemas", () => {
    const registry = new ToolRegistry().register(calculator);
    expect(caught(() => registry.register(calculator)).message).toBe('Tool "calculator" is already registered');
    expect(caught(() => registry.register({ name: "x" } as ToolDefinition)).message).toBe(
      'Tool "x" has no execute function',
    );
    expect(
      caught(() => registry.register({ name: "y", inputSchema: v.object({ a: v.string() }), execute: () => 1 }))
        .message,
    ).toBe(
      'Tool "y" input: the valibot schema validates but cannot give its JSON Schema (no ~standard.jsonSchema); ' +
        "wrap it with toStandardJsonSchema from @valibot/to-json-schema, pass a converter as new ToolRegistry({ toJsonSchema }), or give a plain JSON Schema",
    );
  });

  it("refuses what is not a tool, and a name that is not a string, naming the value and where it is", () => {
    const register = (tools: unknown) => caught(() => new ToolRegistry().register(tools as ToolDefinition));
    const rule = "must be an object with a name (a non-empty string) and an execute function, got";
    for (const value of [null, undefined, 42, "calculator"]) {
      const error = register(value);
      expect(error.code).toBe("invalid-catalog");
      expect(error.message).toBe(`A tool ${rule} ${value === undefined ? "undefined" : JSON.stringify(value)}`);
    }
    expect(register([calculator, null]).message).toBe(`Tool [1] ${rule} null`);
    expect(register({ name: 42, execute: () => 1 }).message).toBe(`A tool ${rule} {"name":42}`);
    expect(register({ execute: () => 1 }).message).toBe(`A tool ${rule} {}`);
    expect(register([calculator, { name: "", execute: () => 1 }]).message).toBe(`Tool [1] ${rule} {"name":""}`);
  });

  it("refuses an input schema whose root is not an object, saying why and what to write", () => {
    for (const inputSchema of [
      { type: "string" },
      { type: "array", items: { type: "number" } },
      { type: ["object", "null"] },
      v.string(),
    ]) {
      const error = caught(() =>
        new ToolRegistry({ toJsonSchema }).register({ name: "echo", inputSchema, execute: () => 1 } as ToolDefinition),
      );
      expect(error.code).toBe("invalid-catalog");
      expect(error.message).toMatch(
        /^Tool "echo" input schema has type .+; MCP and the providers take only type "object" \(named arguments\): wrap it as \{ type: "object", properties: \{ value: <this schema> \} \}$/u,
      );
    }
    expect(
      caught(() => new ToolRegistry().register({ name: "echo", inputSchema: { type: "string" }, execute: () => 1 }))
        .message,
    ).toBe(
      'Tool "echo" input schema has type "string"; MCP and the providers take only type "object" (named arguments): wrap it as { type: "object", properties: { value: <this schema> } }',
    );
    // An object at the root, said or left to the default, is taken; so is a schema that does not name its type.
    const registry = new ToolRegistry().register([
      { name: "a", inputSchema: { type: "object", properties: { q: { type: "string" } } }, execute: () => 1 },
      { name: "b", execute: () => 1 },
      { name: "c", inputSchema: { properties: { q: { type: "string" } } }, execute: () => 1 },
    ]);
    expect(registry.list().map((tool) => tool.inputSchema.type)).toEqual(["object", "object", undefined]);
  });

  it("converts valibot schemas with the toJsonSchema option, and validates with valibot", async () => {
    const registry = new ToolRegistry({ toJsonSchema }).register({
      name: "weather",
      description: "Current weather",
      inputSchema: v.object({ city: v.string(), days: v.optional(v.pipe(v.number(), v.integer())) }),
      execute: ({ city }) => ({ city, celsius: 21 }),
    });
    expect(registry.get("weather")?.inputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    });
    await expect(registry.call("weather", { city: "Paris" })).resolves.toEqual({ city: "Paris", celsius: 21 });
    expect((await rejection(registry.call("weather", { city: "Paris", days: 1.5 }))).message).toBe(
      'Tool "weather": argument "days" is 1.5: Invalid integer: Received 1.5 (/days)',
    );
  });

  it("uses a Standard Schema's own JSON Schema converter when it has one", () => {
    const registry = new ToolRegistry().register({
      name: "w",
      inputSchema: toStandardJsonSchema(v.object({ city: v.string() })),
      execute: () => 1,
    });
    expect(registry.get("w")?.inputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    });
  });

  it("serves as a catalog for validation and selection", () => {
    const registry = new ToolRegistry().register(calculator);
    expect(
      validatePlan(
        [
          { type: "tool", name: "calculator", arguments: {} },
          { type: "reply", text: "x" },
        ],
        registry,
      ).issues.map((issue) => issue.code),
    ).toEqual(["missing-argument"]);
    expect(selectTools("evaluate an arithmetic expression", registry).map((tool) => tool.name)).toEqual(["calculator"]);
    registry.register({ name: "clock", description: "Current time", execute: () => "now" });
    expect(
      validatePlan(
        [
          { type: "tool", name: "clock", arguments: {} },
          { type: "reply", text: "x" },
        ],
        registry,
      ).issues,
    ).toEqual([]);
  });

  it("registers a list all or nothing: a refused tool leaves the registry and its catalog as they were", () => {
    const registry = new ToolRegistry().register(calculator);
    expect(selectTools("current weather", registry).map((tool) => tool.name)).toEqual(["calculator"]);
    const weather = { name: "weather", description: "Current weather", execute: () => "sunny" };
    const broken = { name: "broken", description: "Broken", inputSchema: { type: "objekt" }, execute: () => 0 };
    expect(caught(() => registry.register([weather, broken])).code).toBe("invalid-catalog");
    expect(caught(() => registry.register([weather, { ...weather }])).message).toBe(
      'Tool "weather" is already registered',
    );
    expect([registry.has("weather"), registry.list().map((tool) => tool.name)]).toEqual([false, ["calculator"]]);
    registry.register([weather, { ...broken, inputSchema: { type: "object" } }]);
    expect(selectTools("current weather", registry, { k: 1 }).map((tool) => tool.name)).toEqual(["weather"]);
  });
});

describe("fromMcpTools", () => {
  const list = {
    tools: [
      {
        name: "weather",
        description: "Current weather",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        annotations: { readOnlyHint: true },
      },
      { name: "notes", description: "Read notes", inputSchema: { type: "object" } },
      {
        name: "delete_note",
        description: "Delete a note",
        inputSchema: { type: "object" },
        annotations: { destructiveHint: true },
      },
    ],
  };
  const results: Record<string, unknown> = {
    weather: { content: [{ type: "text", text: "{}" }], structuredContent: { celsius: 21 } },
    notes: { content: [{ type: "text", text: '[{"id":1}]' }] },
    delete_note: { content: [{ type: "text", text: "no such note" }], isError: true },
  };
  const calls: unknown[] = [];
  const caller = (
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal | undefined },
  ): Promise<unknown> => {
    calls.push({ name, args, signal: options.signal });
    return Promise.resolve(results[name]);
  };

  it("keeps descriptors and annotations, and unwraps tools/call results", async () => {
    const registry = new ToolRegistry().register(fromMcpTools(list, caller));
    expect(registry.list().map((tool) => tool.annotations)).toEqual([
      { readOnlyHint: true },
      undefined,
      { destructiveHint: true },
    ]);
    await expect(registry.call("weather", { city: "Oslo" })).resolves.toEqual({ celsius: 21 });
    await expect(registry.call("notes", {})).resolves.toEqual([{ id: 1 }]);
    const error = await rejection(registry.call("delete_note", {}));
    expect([error.code, error.message]).toEqual(["tool-error", 'Tool "delete_note" reported an error: no such note']);
    expect(calls[0]).toEqual({ name: "weather", args: { city: "Oslo" }, signal: undefined });
    expect((await rejection(registry.call("weather", {}))).code).toBe("invalid-argument");
  });

  it("returns raw results on request and plain text otherwise", async () => {
    const raw = new ToolRegistry().register(fromMcpTools(list.tools, caller, { raw: true }));
    await expect(raw.call("notes", {})).resolves.toEqual(results["notes"]);
    const text = new ToolRegistry().register(
      fromMcpTools([{ name: "echo" }], () => ({
        content: [
          { type: "text", text: "hello" },
          { type: "text", text: "world" },
        ],
      })),
    );
    await expect(text.call("echo", {})).resolves.toBe("hello\nworld");
  });

  it("says so when a tool reports an error without a message", async () => {
    const registry = new ToolRegistry().register(
      fromMcpTools([{ name: "quiet" }, { name: "bare" }], (name) =>
        name === "quiet" ? { content: [], isError: true } : { isError: true },
      ),
    );
    for (const name of ["quiet", "bare"]) {
      const error = await rejection(registry.call(name, {}));
      expect([error.code, error.message]).toEqual(["tool-error", `Tool "${name}" reported an error without a message`]);
    }
  });
});

describe("fromAiSdkTools", () => {
  it("registers tool() objects with a jsonSchema() wrapper, passing AI SDK execute options", async () => {
    const seen: unknown[] = [];
    const weather = {
      description: "Current weather",
      inputSchema: {
        jsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        validate: undefined,
      },
      execute: async (input: { city: string }, options: unknown) => (
        seen.push(options), { city: input.city, celsius: 21 }
      ),
    };
    const registry = new ToolRegistry().register(
      fromAiSdkTools({ weather }, { annotations: { weather: { readOnlyHint: true } } }),
    );
    expect(registry.list()).toEqual([
      {
        name: "weather",
        description: "Current weather",
        inputSchema: weather.inputSchema.jsonSchema,
        annotations: { readOnlyHint: true },
      },
    ]);
    const controller = new AbortController();
    await expect(
      registry.call("weather", { city: "Rome" }, { signal: controller.signal, callId: "s1" }),
    ).resolves.toEqual({ city: "Rome", celsius: 21 });
    expect(seen).toEqual([{ toolCallId: "s1", messages: [], abortSignal: controller.signal }]);
    expect((await rejection(registry.call("weather", {}))).code).toBe("invalid-argument");
  });

  it("registers tool() objects with a valibot schema through the registry's converter", async () => {
    const registry = new ToolRegistry({ toJsonSchema }).register(
      fromAiSdkTools({
        echo: { inputSchema: v.object({ text: v.string() }), execute: (input: { text: string }) => input.text },
      }),
    );
    await expect(registry.call("echo", { text: "hi" })).resolves.toBe("hi");
  });

  it("refuses tools without execute and schemas still being loaded", () => {
    expect(caught(() => fromAiSdkTools({ client: { inputSchema: { jsonSchema: {} } } })).message).toBe(
      'AI SDK tool "client" has no execute function; plankit can only register tools it can run',
    );
    const lazy = { inputSchema: { jsonSchema: Promise.resolve({ type: "object" }) }, execute: () => 1 };
    expect(caught(() => new ToolRegistry().register(fromAiSdkTools({ lazy }))).message).toBe(
      'Tool "lazy" input: the AI SDK schema\'s jsonSchema is a promise; await the JSON Schema before registering the tool',
    );
  });
});

describe("tool names", () => {
  it("refuses a name no provider can take, saying which pattern; keeps MCP's names with dots and slashes", () => {
    for (const name of ["get weather", "weather!", "tool\n", "x".repeat(129), "naïve"]) {
      const error = caught(() =>
        new ToolRegistry().register({ name, inputSchema: { type: "object" }, execute: () => 1 }),
      );
      expect(error.code).toBe("invalid-catalog");
      expect(error.message).toContain(JSON.stringify(name));
      expect(error.message).toContain("/^[A-Za-z0-9_./-]{1,128}$/u");
    }
    const registry = new ToolRegistry().register(
      ["get_weather", "admin.tools.list", "user-profile/update", "x".repeat(128)].map((name) => ({
        name,
        inputSchema: { type: "object" },
        execute: () => 1,
      })),
    );
    expect(registry.list()).toHaveLength(4);
  });
});
