import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../src/index.ts";
import { describeExpression } from "../../worker/demo/describe-expression.ts";
import { evaluateArithmetic } from "../../worker/demo/evaluate-arithmetic.ts";
import { extractExpression } from "../../worker/demo/extract-expression.ts";
import { planDemoRequest } from "../../worker/demo/plan-demo-request.ts";

const tools = new Set(["kb_lookup", "calculator", "convert_units", "current_time", "save_note"]);

/**
 * A number as someone might write it: its value, and the numbers a reader
 * may take from it whole (a power "3²" is 3 and 2; "1.5e3" is only 1500).
 * `value` is undefined for a writing no reader can take whole ("1e309",
 * "1 000", "⅓"); `operator` marks one that is a calculation ("10^3", "1/2").
 */
interface Writing {
  text: string;
  value: number | undefined;
  whole: number[];
  operator?: boolean;
}

const plain = (value: number): Writing => ({ text: String(value), value, whole: [value] });

const writings: fc.Arbitrary<Writing> = fc.oneof(
  fc.integer({ min: 0, max: 99_999 }).map(plain),
  fc.integer({ min: 1000, max: 9_999_999 }).map((value) => ({
    text: value.toLocaleString("en-US"),
    value,
    whole: [value],
  })),
  fc.tuple(fc.integer({ min: 1000, max: 999_999 }), fc.integer({ min: 1, max: 9 })).map(([whole, tenth]) => ({
    text: `${whole.toLocaleString("en-US")}.${tenth}`,
    value: whole + tenth / 10,
    whole: [whole + tenth / 10],
  })),
  fc.integer({ min: 1, max: 999 }).map((value) => ({ text: `-${value}`, value: -value, whole: [-value, value] })),
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }))
    .map(([lead, decimal, power]) => {
      const value = Number(`${lead}.${decimal}e${power}`);
      return { text: `${lead}.${decimal}e${power}`, value, whole: [value] };
    }),
  fc.integer({ min: 1, max: 9 }).map((lead) => ({ text: `${lead}e309`, value: undefined, whole: [] })),
  fc.integer({ min: 0, max: 99 }).map((whole) => ({
    text: `${whole === 0 ? "" : whole}½`,
    value: whole + 0.5,
    whole: [whole + 0.5],
  })),
  fc
    .integer({ min: 1, max: 99 })
    .map((base) => ({ text: `${base}²`, value: base ** 2, whole: [base, 2], operator: true })),
  fc
    .integer({ min: 1, max: 20 })
    .map((base) => ({ text: `${base}^3`, value: base ** 3, whole: [base, 3], operator: true })),
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 2, max: 9 }))
    .map(([top, bottom]) => ({ text: `${top}/${bottom}`, value: top / bottom, whole: [top, bottom], operator: true })),
  fc.integer({ min: 1, max: 999 }).map((thousands) => ({
    text: `${thousands} ${String(thousands % 1000).padStart(3, "0")}`,
    value: undefined,
    whole: [],
  })),
  fc.integer({ min: 1, max: 999 }).map((thousands) => ({
    text: `${thousands}\u00a0250`,
    value: thousands * 1000 + 250,
    whole: [thousands * 1000 + 250],
  })),
  fc.constant<Writing>({ text: "⅓", value: undefined, whole: [] }),
);

function toolSteps(steps: readonly PlanStep[]): { name: string; arguments: Record<string, unknown> }[] {
  return steps.flatMap((step) => (step.type === "tool" ? [{ name: step.name, arguments: step.arguments }] : []));
}

/** The numbers an expression writes, a leading minus included where it is a sign. */
function literals(expr: string): number[] {
  return [...expr.matchAll(/(?<![\d)]\s*)-?\d+(?:\.\d+)?|\d+(?:\.\d+)?/gu)].map((match) => Number(match[0]));
}

const close = (actual: number, expected: number): boolean =>
  Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));

describe("the offline demo model reads each number whole, or declines", () => {
  const operations: readonly [string, (a: number, b: number) => number][] = [
    ["What is {a} plus {b}?", (a, b) => a + b],
    ["what's {a} times {b}", (a, b) => a * b],
    ["Calculate {a} minus {b}", (a, b) => a - b],
    ["{a}加{b}是多少？", (a, b) => a + b],
  ];

  it("takes into the calculator only numbers that appear whole in the request, and computes with their values", () => {
    fc.assert(
      fc.property(writings, writings, fc.constantFrom(...operations), (a, b, [template, apply]) => {
        const query = template.replace("{a}", a.text).replace("{b}", b.text);
        const steps = planDemoRequest({ query, tools });
        const calls = toolSteps(steps);
        if (a.value === undefined || b.value === undefined) {
          expect(calls, query).toEqual([]);
          return;
        }
        expect(
          calls.map((call) => call.name),
          query,
        ).toEqual(["calculator"]);
        const expr = String(calls[0]?.arguments.expr);
        const whole = [...a.whole, ...b.whole].map(Math.abs);
        for (const number of literals(expr))
          expect(whole, `${number} of "${expr}" for "${query}"`).toContain(Math.abs(number));
        expect(close(evaluateArithmetic(expr), apply(a.value, b.value)), `${expr} for "${query}"`).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("converts the number written, whole, or converts nothing", () => {
    fc.assert(
      fc.property(
        writings,
        fc.constantFrom("Convert {a} km to miles", "how many grams are in {a} kg", "Convert {a}km to miles"),
        (a, template) => {
          const query = template.replace("{a}", a.text);
          const calls = toolSteps(planDemoRequest({ query, tools }));
          if (a.value === undefined) {
            expect(calls, query).toEqual([]);
            return;
          }
          if (a.operator === true) {
            // "10^3 km" is not a measurement the conversion reads: never the conversion of a piece of it.
            expect(
              calls.filter((call) => call.name === "convert_units"),
              query,
            ).toEqual([]);
            return;
          }
          expect(
            calls.map((call) => call.name),
            query,
          ).toEqual(["convert_units"]);
          expect(close(Number(calls[0]?.arguments.value), a.value), query).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never answers a different number: the reports' cases", () => {
    expect(extractExpression("What is 1.5e3 plus 2?")).toBe("1500 + 2");
    expect(extractExpression("What is 1e309 plus 1?")).toBeUndefined();
    expect(extractExpression("What is 1 000 plus 5?")).toBeUndefined();
    expect(extractExpression("What is ½ plus 1?")).toBe("0.5 + 1");
    expect(extractExpression("What is 3² plus 1?")).toBe("3^2 + 1");
    const declined = planDemoRequest({ query: "What is 1e309 plus 1?", tools });
    expect(declined).toEqual([{ id: "s1", type: "reply", text: expect.stringContaining('"1e309"') }]);
    expect(toolSteps(planDemoRequest({ query: "Convert 1 000 m to km", tools }))).toEqual([]);
    expect(toolSteps(planDemoRequest({ query: "Convert 10^3 m to km", tools }))).toEqual([]);
  });
});

describe("describeExpression", () => {
  it("writes the calculator's expressions as a person would", () => {
    expect(describeExpression("(15 / 100 * 240)")).toBe("15% of 240");
    expect(describeExpression("5 - -3")).toBe("5 − (−3)");
    expect(describeExpression("(2340 * (1 + 15 / 100))")).toBe("2,340 plus 15%");
    expect(describeExpression("(351 / 2340 * 100)")).toBe("351 as a percentage of 2,340");
    expect(describeExpression("((2 + 4 + 9) / 3)")).toBe("the average of 2, 4 and 9");
    expect(describeExpression("abs(10 - 25)")).toBe("the difference between 10 and 25");
    expect(describeExpression("sqrt(144) + 21*2")).toBe("√144 + 21 × 2");
    expect(describeExpression("2000000 / 1250")).toBe("2,000,000 ÷ 1,250");
  });

  it("keeps every number of the expression, in order, with the same value", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -99_999, max: 99_999 }), { minLength: 2, maxLength: 5 }),
        fc.array(fc.constantFrom("+", "-", "*", "/"), { minLength: 4, maxLength: 4 }),
        (numbers, operators) => {
          const expr = numbers
            .map((number, index) => (index === 0 ? `${number}` : `${operators[index - 1]} ${number}`))
            .join(" ");
          const shown = describeExpression(expr);
          const read = [...shown.replaceAll(",", "").matchAll(/(\(−|^−)?\d+/gu)].map((match) =>
            Number(match[0].replace(/^\(?−/u, "-")),
          );
          expect(read, `${expr} → ${shown}`).toEqual(numbers);
          expect(shown).not.toMatch(/[*/]|- -|\+ -/u);
        },
      ),
    );
  });
});
