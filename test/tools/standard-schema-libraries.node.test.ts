import { type } from "arktype";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolRegistry } from "../../src/index.ts";
import { validatePlan } from "../../src/plan.ts";
import { thrownBy as caught, rejectionOf as rejection } from "../fixtures/catch-plankit-error.ts";

// zod >= 4.2 and ArkType >= 2.1.28 give their JSON Schema through ~standard.jsonSchema: no converter, no adapter.
describe("zod and ArkType schemas as tool schemas", () => {
  it("zod: the JSON Schema from the schema itself, calls validated by zod with its defaults applied", async () => {
    const seen: unknown[] = [];
    const registry = new ToolRegistry().register({
      name: "weather",
      inputSchema: z.object({ city: z.string(), days: z.number().int().default(1) }),
      outputSchema: z.object({ celsius: z.number() }),
      execute: (args) => (seen.push(args), { celsius: args.days * 10 }),
    });
    expect(registry.get("weather")?.inputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer", default: 1 } },
      required: ["city"],
    });
    expect(registry.get("weather")?.outputSchema).toMatchObject({
      type: "object",
      properties: { celsius: { type: "number" } },
      required: ["celsius"],
    });
    await expect(registry.call("weather", { city: "Quito" })).resolves.toEqual({ celsius: 10 });
    expect(seen).toEqual([{ city: "Quito", days: 1 }]);
    const error = await rejection(registry.call("weather", { city: 3, days: 1.5 }));
    expect(error.code).toBe("invalid-argument");
    expect(error.message).toBe(
      'Tool "weather": argument "city" is 3: Invalid input: expected string, received number (/city); ' +
        'Tool "weather": argument "days" is 1.5: Invalid input: expected int, received number (/days)',
    );
    expect(
      validatePlan(
        [
          { type: "tool", name: "weather", arguments: { days: 2 } },
          { type: "reply", text: "ok" },
        ],
        registry,
      ).issues.map((issue) => issue.code),
    ).toEqual(["missing-argument"]);
  });

  it("zod: a schema that validates but cannot give its JSON Schema is refused when registered, naming the tool", () => {
    const error = caught(() =>
      new ToolRegistry().register({
        name: "length",
        outputSchema: z.object({ n: z.string().transform((text) => text.length) }),
        execute: () => ({ n: "abc" }),
      }),
    );
    expect(error.code).toBe("invalid-catalog");
    expect(error.message).toBe(
      'Tool "length" output: the zod schema could not give its JSON Schema (Transforms cannot be represented in JSON Schema); ' +
        "give the tool a plain JSON Schema, or a schema JSON Schema can express",
    );
  });

  it("ArkType: the JSON Schema from the type itself, calls validated by ArkType", async () => {
    const registry = new ToolRegistry().register({
      name: "weather",
      inputSchema: type({ city: "string", "days?": "number.integer" }),
      execute: ({ city, days }) => `${city} ${days ?? 1}`,
    });
    expect(registry.get("weather")?.inputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    });
    await expect(registry.call("weather", { city: "Lima", days: 3 })).resolves.toBe("Lima 3");
    const error = await rejection(registry.call("weather", { city: "Lima", days: 1.5 }));
    expect(error.message).toBe('Tool "weather": argument "days" is 1.5: days must be an integer (was 1.5) (/days)');
    expect(error.cause).toMatchObject({ problems: [{ pointer: "/days", actual: 1.5 }] });
  });
});
