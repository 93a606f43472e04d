import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentRuntime, LLMPlanner, type PlanStep } from "../../src/index.ts";
import { createDemoModel } from "../../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";
import { findQuantities } from "../../worker/demo/find-quantities.ts";
import { planDemoRequest } from "../../worker/demo/plan-demo-request.ts";
import { readNumbers } from "../../worker/demo/read-numbers.ts";

/** Every demo tool's name. */
const tools: ReadonlySet<string> = new Set(
  createDemoTools()
    .list()
    .map((tool) => tool.name),
);

function toolSteps(steps: readonly PlanStep[]): { name: string; arguments: Record<string, unknown> }[] {
  return steps.flatMap((step) => (step.type === "tool" ? [{ name: step.name, arguments: step.arguments }] : []));
}

function replyText(steps: readonly PlanStep[]): string {
  const reply = steps.at(-1);
  return reply?.type === "reply" ? reply.text : "";
}

/** Units as people write them, with the symbol the tools use; pairs are drawn within a dimension. */
const unitsByDimension: readonly (readonly [string, string])[][] = [
  [
    ["miles", "mi"],
    ["km", "km"],
    ["feet", "ft"],
    ["metres", "m"],
  ],
  [
    ["pounds", "lb"],
    ["kg", "kg"],
    ["ounces", "oz"],
  ],
  [
    ["gallons", "gal"],
    ["litres", "l"],
  ],
  [
    ["hours", "h"],
    ["days", "d"],
  ],
];

const unitPair = fc
  .constantFrom(...unitsByDimension)
  .chain((units) => fc.tuple(fc.constantFrom(...units), fc.constantFrom(...units)))
  .filter(([from, to]) => from[1] !== to[1]);

/** A positive number and how a person might write it: "2,340", "2340", "12.5". */
const writtenNumber = fc.oneof(
  fc.integer({ min: 1, max: 9_999_999 }).map((value) => ({ value, written: value.toLocaleString("en-US") })),
  fc.integer({ min: 1, max: 99_999 }).map((value) => ({ value, written: String(value) })),
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 9 }))
    .map(([whole, tenth]) => ({ value: Number(`${whole}.${tenth}`), written: `${whole}.${tenth}` })),
);

const conversion = fc
  .tuple(
    writtenNumber,
    unitPair,
    fc.constantFrom(
      (v: string, a: string, b: string) => `convert ${v} ${a} to ${b}`,
      (v: string, a: string, b: string) => `${v} ${a} in ${b}`,
      (v: string, a: string, b: string) => `how many ${b} is ${v} ${a}`,
      (v: string, a: string, b: string) => `what's ${v} ${a} in ${b}`,
    ),
  )
  .map(([number, [from, to], phrase]) => ({
    text: phrase(number.written, from[0], to[0]),
    expected: { value: number.value, from: from[1], to: to[1] },
  }));

/** The reply of a request run through the planner and the runtime with the demo model and tools. */
async function replyTo(query: string): Promise<string> {
  const model = createDemoModel({ tokensPerSecond: Infinity });
  const runtime = new AgentRuntime({
    planner: new LLMPlanner({ model }),
    registry: createDemoTools(),
    model,
    retries: 0,
  });
  let reply = "";
  for await (const event of runtime.run(query)) if (event.type === "reply") reply = event.text;
  return reply;
}

/** Metres per unit, written here independently of the demo's unit table. */
const metres: Readonly<Record<string, number>> = { ft: 0.3048, in: 0.0254, cm: 0.01, m: 1, km: 1000, mi: 1609.344 };

const height = fc.oneof(
  fc
    .tuple(fc.integer({ min: 4, max: 6 }), fc.integer({ min: 0, max: 11 }))
    .map(([feet, inches]) => ({ text: `${feet}'${inches}"`, m: feet * 0.3048 + inches * 0.0254 })),
  fc
    .tuple(fc.integer({ min: 4, max: 6 }), fc.integer({ min: 1, max: 11 }))
    .map(([feet, inches]) => ({ text: `${feet} foot ${inches}`, m: feet * 0.3048 + inches * 0.0254 })),
  fc.integer({ min: 120, max: 210 }).map((cm) => ({ text: `${cm} cm`, m: cm / 100 })),
  fc.integer({ min: 120, max: 210 }).map((cm) => ({ text: `${(cm / 100).toFixed(2)} m`, m: cm / 100 })),
);

const joiner = fc.constantFrom(" and ", ", ", "? ", "; also ", ". Then ", ", and ", ". Also, ");

describe("the offline demo model's readers", () => {
  it("reads numbers with thousands separators as the numbers they are", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const written = `${whole.toLocaleString("en-US")}.${String(cents).padStart(2, "0")}`;
        expect(readNumbers(`what is ${written}?`)).toBe(`what is ${whole}.${String(cents).padStart(2, "0")}?`);
      }),
    );
    // Commas that separate items, or arguments, stay.
    expect(readNumbers("3 km, 10 kg and max(3,400)")).toBe("3 km, 10 kg and max(3,400)");
  });

  it("reads feet and inches, clock times and compound durations as one measurement each", () => {
    expect(findQuantities(`5'11" and 165 cm together`).map((group) => group.parts)).toEqual([
      [
        { value: 5, unit: "ft" },
        { value: 11, unit: "in" },
      ],
      [{ value: 165, unit: "cm" }],
    ]);
    expect(findQuantities("in 1:52:30 or 1 hour 30 minutes or 5 foot 6")[0]?.parts).toEqual([
      { value: 1, unit: "h" },
      { value: 52, unit: "min" },
      { value: 30, unit: "s" },
    ]);
    expect(findQuantities("1 hour 30 minutes")[0]?.parts).toEqual([
      { value: 1, unit: "h" },
      { value: 30, unit: "min" },
    ]);
    expect(findQuantities("she is 5 foot 6")[0]?.parts).toEqual([
      { value: 5, unit: "ft" },
      { value: 6, unit: "in" },
    ]);
    expect(findQuantities("1 mile and 500 feet")[0]?.parts).toEqual([
      { value: 1, unit: "mi" },
      { value: 500, unit: "ft" },
    ]);
    // A decimal in the larger unit, or a target written for each part, makes two measurements.
    expect(findQuantities("0.1 miles and 1 foot")).toHaveLength(2);
    expect(findQuantities("how many metres is 2 miles and 1 feet in metres")).toHaveLength(2);
    expect(findQuantities("how many metres is 2 miles and 1 foot")).toHaveLength(1);
    expect(findQuantities("I ran a 10k")[0]?.parts).toEqual([{ value: 10, unit: "km" }]);
    expect(findQuantities("it is 10k outside")[0]?.parts).toEqual([{ value: 10, unit: "K" }]);
  });

  it("plans every conversion of a request of two, however they are joined (the same one twice, once)", () => {
    fc.assert(
      fc.property(conversion, conversion, joiner, (first, second, join) => {
        const steps = planDemoRequest({ query: `${first.text}${join}${second.text}`, tools });
        // The same conversion asked twice, in any words, is answered once.
        const same = JSON.stringify(first.expected) === JSON.stringify(second.expected);
        const asked = same ? [first] : [first, second];
        expect(toolSteps(steps)).toEqual(asked.map((part) => ({ name: "convert_units", arguments: part.expected })));
        expect(replyText(steps)).not.toMatch(/Not done/u);
      }),
      { numRuns: 500 },
    );
  }, 30_000);

  it("does the part it can and names the part it cannot, in either order", () => {
    const can = fc.oneof(
      conversion.map((part) => ({ text: part.text, tool: "convert_units" })),
      fc.constantFrom(
        { text: "what is 15% of 2,340", tool: "calculator" },
        { text: "is 2028 a leap year", tool: "calculator" },
        { text: "how tall is the Eiffel Tower", tool: "kb_lookup" },
        { text: "what time is it in Tokyo", tool: "current_time" },
        { text: "what's the population of Berlin", tool: "kb_lookup" },
      ),
    );
    const cannot = fc.constantFrom(
      ["write me a poem about the sea", "poem"],
      ["tell me a joke", "joke"],
      ["book a table for two", "table"],
      ["what's the weather like tomorrow", "weather"],
      ["who painted the Mona Lisa", "painted"],
      ["a poem please", "poem"],
      ["recommend a good book", "book"],
      ["what's the capital of Peru", "capital"],
      ["send an email to Bob", "email"],
      ["the weather there", "weather"],
    );
    fc.assert(
      fc.property(can, cannot, joiner, fc.boolean(), (part, [words, named], join, cannotFirst) => {
        const query = cannotFirst ? `${words}${join}${part.text}` : `${part.text}${join}${words}`;
        const steps = planDemoRequest({ query, tools });
        expect(toolSteps(steps).map((step) => step.name)).toContain(part.tool);
        expect(replyText(steps)).toMatch(/Not done: /u);
        expect(replyText(steps).toLowerCase()).toContain(named);
      }),
      { numRuns: 400 },
    );
  }, 30_000);

  it("adds two heights, each written its own way, in the unit asked for", async () => {
    await fc.assert(
      fc.asyncProperty(
        height,
        height,
        fc.constantFrom(["meters", "m"], ["feet", "ft"], ["cm", "cm"], ["inches", "in"]),
        fc.constantFrom(
          (a: string, b: string, unit: string) => `I am ${a} and she is ${b}, how tall are we together in ${unit}?`,
          (a: string, b: string, unit: string) => `My height is ${a} and his is ${b}. Combined height in ${unit}?`,
        ),
        async (first, second, [unit, symbol], phrase) => {
          const reply = await replyTo(phrase(first.text, second.text, unit));
          const total = Number(/Together: ([\d.,]+)/u.exec(reply)?.[1]?.replaceAll(",", ""));
          expect(total).toBeCloseTo((first.m + second.m) / (metres[symbol] ?? 1), 2);
        },
      ),
      { numRuns: 60 },
    );
  }, 30_000);

  it("gives a pace per the distance asked for, from a distance and a time written in any of their units", async () => {
    const distance = fc.oneof(
      fc.integer({ min: 1, max: 42 }).map((value) => ({ text: `${value} km`, m: value * 1000 })),
      fc.integer({ min: 1, max: 26 }).map((value) => ({ text: `${value} miles`, m: value * 1609.344 })),
      fc.integer({ min: 1, max: 42 }).map((value) => ({ text: `${value}k`, m: value * 1000 })),
    );
    const time = fc.oneof(
      fc.integer({ min: 5, max: 300 }).map((minutes) => ({ text: `${minutes} minutes`, minutes })),
      fc
        .tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
        .map(([h, m, s]) => ({
          text: `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`,
          minutes: h * 60 + m + s / 60,
        })),
    );
    await fc.assert(
      fc.asyncProperty(
        distance,
        time,
        fc.constantFrom(["mile", "mi"], ["km", "km"]),
        async (run, took, [per, symbol]) => {
          const reply = await replyTo(`I ran ${run.text} in ${took.text}, what's my pace per ${per}?`);
          const pace = Number(/pace of ([\d.,]+) min per/u.exec(reply)?.[1]?.replaceAll(",", ""));
          expect(pace).toBeCloseTo(took.minutes / (run.m / (metres[symbol] ?? 1)), 1);
        },
      ),
      { numRuns: 60 },
    );
  }, 30_000);

  it("declines with no tool and no figure when no part is one it can do", () => {
    const steps = planDemoRequest({ query: "Write me a poem and tell me a joke about 2,340 cats", tools });
    expect(toolSteps(steps)).toEqual([]);
    expect(replyText(steps).replace(/"[^"]*"/gu, "")).not.toMatch(/\d/u);
  });
});
