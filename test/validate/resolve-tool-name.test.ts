import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveToolName, validateStep } from "../../src/plan.ts";

describe("resolveToolName", () => {
  const names = ["math.factorial", "get_weather", "Search-Web"];

  it("keeps a registered name as it is", () => {
    expect(resolveToolName("get_weather", names)).toEqual({ kind: "found", name: "get_weather" });
  });

  it("resolves a name equal up to case and . _ - to the one registered name", () => {
    for (const written of ["math_factorial", "MATH-FACTORIAL", "math.Factorial"]) {
      expect(resolveToolName(written, names)).toEqual({ kind: "found", name: "math.factorial" });
    }
    expect(resolveToolName("search_web", names)).toEqual({ kind: "found", name: "Search-Web" });
  });

  it("does not drop separators: mathfactorial and math_fact_orial are other names", () => {
    expect(resolveToolName("mathfactorial", names)).toEqual({ kind: "unknown" });
    expect(resolveToolName("math_fact_orial", names)).toEqual({ kind: "unknown" });
  });

  it("lists every match when several registered names fold alike", () => {
    expect(resolveToolName("a_b", ["a.b", "x", "A-B"])).toEqual({ kind: "ambiguous", names: ["a.b", "A-B"] });
  });

  it("resolves only to one of the given names (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "B", ".", "_", "-") }),
        fc.array(fc.string({ unit: fc.constantFrom("a", "b", ".", "_", "-") }), { maxLength: 5 }),
        (name, registered) => {
          const resolution = resolveToolName(name, registered);
          if (resolution.kind === "found")
            expect(resolution.name === name || registered.includes(resolution.name)).toBe(true);
          if (resolution.kind === "ambiguous")
            expect(resolution.names.every((candidate) => registered.includes(candidate))).toBe(true);
        },
      ),
    );
  });

  it("is what validateStep uses: the step gets the registered name", () => {
    const tools = {
      "math.factorial": {
        description: "n!",
        input_schema: { type: "object", properties: { number: { type: "integer" } } },
      },
    };
    const result = validateStep({ name: "math_factorial", arguments: { number: 5 } }, { tools, steps: [] });
    expect(result.issues).toEqual([]);
    expect(result.step).toEqual({ id: "s1", type: "tool", name: "math.factorial", arguments: { number: 5 } });
  });
});
