import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validatePlan } from "../../src/plan.ts";
import { convertUnits } from "../../worker/demo/convert-units.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";
import { createNoteStore } from "../../worker/demo/create-note-store.ts";
import { evaluateArithmetic } from "../../worker/demo/evaluate-arithmetic.ts";
import { knowledgeFacts } from "../../worker/demo/knowledge-facts.ts";
import { lookupFact } from "../../worker/demo/lookup-fact.ts";
import { searchKnowledge } from "../../worker/demo/search-knowledge.ts";
import { rejectionOf as rejection, thrownBy as thrown } from "../fixtures/catch-plankit-error.ts";

describe("evaluateArithmetic", () => {
  it("follows precedence and associativity", () => {
    expect(evaluateArithmetic("21*2+5")).toBe(47);
    expect(evaluateArithmetic("2+3*4")).toBe(14);
    expect(evaluateArithmetic("(2+3)*4")).toBe(20);
    expect(evaluateArithmetic("10-4-3")).toBe(3);
    expect(evaluateArithmetic("64/4/2")).toBe(8);
    expect(evaluateArithmetic("2^3^2")).toBe(512);
    expect(evaluateArithmetic("2**10")).toBe(1024);
    expect(evaluateArithmetic("-2^2")).toBe(-4);
    expect(evaluateArithmetic("(-2)^2")).toBe(4);
    expect(evaluateArithmetic("7 % 3")).toBe(1);
    expect(evaluateArithmetic("--3")).toBe(3);
    expect(evaluateArithmetic("6 × 7 ÷ 2")).toBe(21);
  });

  it("reads decimals, exponents and digit separators", () => {
    expect(evaluateArithmetic("1.5 + .5")).toBe(2);
    expect(evaluateArithmetic("2.5e3")).toBe(2500);
    expect(evaluateArithmetic("1_000_000 / 1e6")).toBe(1);
  });

  it("knows functions and constants", () => {
    expect(evaluateArithmetic("round(14040000 / 2133111, 2)")).toBe(6.58);
    expect(evaluateArithmetic("round(2.5)")).toBe(3);
    expect(evaluateArithmetic("round(-2.5)")).toBe(-3);
    expect(evaluateArithmetic("sqrt(16) + abs(-2)")).toBe(6);
    expect(evaluateArithmetic("max(1, 9, 4) - min(3, 2)")).toBe(7);
    expect(evaluateArithmetic("log(1000)")).toBe(3);
    expect(evaluateArithmetic("ln(e)")).toBe(1);
    expect(evaluateArithmetic("round(pi, 4)")).toBe(3.1416);
    expect(evaluateArithmetic("PI * 0")).toBe(0);
  });

  it("reports syntax errors with their position", () => {
    expect(thrown(() => evaluateArithmetic("1+")).message).toBe(
      'Expected a number, a name or "(" at position 3 of "1+", found the end',
    );
    expect(thrown(() => evaluateArithmetic("(1+2")).message).toMatch(/Expected "\)" at position 5/);
    expect(thrown(() => evaluateArithmetic("1 2")).message).toMatch(/Expected an operator or the end at position 3/);
    expect(thrown(() => evaluateArithmetic("2 $ 3")).message).toBe('Unexpected character "$" at position 3 of "2 $ 3"');
    expect(thrown(() => evaluateArithmetic("")).code).toBe("invalid-argument");
  });

  it("refuses division by zero and results that are not finite", () => {
    expect(thrown(() => evaluateArithmetic("1/0")).message).toMatch(/Division by zero at position 2/);
    expect(thrown(() => evaluateArithmetic("5 % (2-2)")).message).toMatch(/Division by zero/);
    expect(thrown(() => evaluateArithmetic("10^400")).message).toMatch(/does not evaluate to a finite number/);
    expect(thrown(() => evaluateArithmetic("sqrt(-1)")).message).toMatch(/NaN/);
  });

  it("never reaches the host language", () => {
    for (const source of [
      "constructor",
      "__proto__(1)",
      "toString(1)",
      "globalThis",
      "process.exit(1)",
      "alert(1)",
      "this",
      "[1]",
      "'a'",
    ]) {
      expect(thrown(() => evaluateArithmetic(source)).code).toBe("invalid-argument");
    }
  });

  it("checks argument counts and refuses very long or deep expressions", () => {
    expect(thrown(() => evaluateArithmetic("sqrt(1, 2)")).message).toBe("sqrt() takes 1 argument, got 2");
    expect(thrown(() => evaluateArithmetic("round(1, 2, 3)")).message).toBe("round() takes 1 to 2 arguments, got 3");
    expect(thrown(() => evaluateArithmetic(`${"1+".repeat(300)}1`)).message).toMatch(/the limit is 500/);
    expect(thrown(() => evaluateArithmetic(`${"(".repeat(100)}1${")".repeat(100)}`)).message).toMatch(
      /nests deeper than 64/,
    );
  });

  it("agrees with the host's arithmetic on random integer expressions", () => {
    const leaf = fc
      .integer({ min: -1000, max: 1000 })
      .map((value) => ({ text: value < 0 ? `(${value})` : String(value), value }));
    const expression = fc.letrec<{ node: { text: string; value: number } }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        leaf,
        fc.tuple(tie("node"), fc.constantFrom("+", "-", "*"), tie("node")).map(([left, operator, right]) => ({
          text: `(${left.text} ${operator} ${right.text})`,
          value:
            operator === "+"
              ? left.value + right.value
              : operator === "-"
                ? left.value - right.value
                : left.value * right.value,
        })),
      ),
    })).node;
    fc.assert(
      fc.property(expression, ({ text, value }) => {
        expect(evaluateArithmetic(text)).toBe(value === 0 ? 0 : value);
      }),
      { numRuns: 200 },
    );
  });
});

describe("convertUnits", () => {
  it("converts length, mass, temperature, volume, speed, time and area", () => {
    expect(convertUnits(330, "m", "ft")).toEqual({
      value: 1082.677165,
      unit: "ft",
      input: 330,
      inputUnit: "m",
      dimension: "length",
      text: "330 m = 1,082.68 ft",
    });
    expect(convertUnits(42.195, "km", "miles").value).toBe(26.21875746);
    expect(convertUnits(1, "lb", "g").value).toBe(453.59237);
    expect(convertUnits(100, "celsius", "°F").value).toBe(212);
    expect(convertUnits(-40, "F", "C").value).toBe(-40);
    expect(convertUnits(0, "K", "degrees celsius").value).toBe(-273.15);
    expect(convertUnits(1, "gallon", "l").value).toBe(3.785411784);
    expect(convertUnits(100, "km/h", "mph").value).toBe(62.13711922);
    expect(convertUnits(2, "hours", "min").value).toBe(120);
    expect(convertUnits(1, "km²", "ha").value).toBe(100);
  });

  it("refuses unknown units and mixed dimensions", () => {
    expect(thrown(() => convertUnits(1, "parsec", "m")).message).toBe('Unknown unit "parsec"');
    expect(thrown(() => convertUnits(1, "kg", "m")).message).toBe("Cannot convert mass (kg) to length (m)");
    expect(thrown(() => convertUnits(Number.NaN, "kg", "g")).code).toBe("invalid-argument");
  });

  it("round-trips within rounding", () => {
    const pairs = [
      ["km", "mi"],
      ["kg", "lb"],
      ["C", "F"],
      ["l", "cup"],
      ["m/s", "kn"],
      ["acre", "m2"],
    ] as const;
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(...pairs), (value, [from, to]) => {
        const there = convertUnits(value, from, to);
        const back = convertUnits(there.value, to, from);
        expect(Math.abs(back.value - value)).toBeLessThanOrEqual(Math.max(1e-6, Math.abs(value) * 1e-8));
      }),
      { numRuns: 200 },
    );
  });
});

describe("the knowledge base", () => {
  it("has a few dozen facts, each with a unique id, a sentence and a source", () => {
    expect(knowledgeFacts.length).toBeGreaterThanOrEqual(36);
    expect(new Set(knowledgeFacts.map((fact) => fact.id)).size).toBe(knowledgeFacts.length);
    for (const fact of knowledgeFacts) {
      expect(fact.text.length).toBeGreaterThan(10);
      expect(fact.source.length).toBeGreaterThan(3);
      expect(typeof fact.value === "number" ? fact.unit !== "" : fact.unit === "").toBe(true);
    }
  });

  it("looks up the population of every city it knows by name", () => {
    for (const fact of knowledgeFacts.filter((candidate) => candidate.attribute === "population")) {
      expect(lookupFact(`population of ${fact.subject}`).id).toBe(fact.id);
      expect(lookupFact(`How many people live in ${fact.subject}?`).id).toBe(fact.id);
    }
  });

  it("tells subjects apart that share words, and reads aliases and accents", () => {
    expect(lookupFact("height of Tokyo Skytree").id).toBe("tokyo-skytree-height");
    expect(lookupFact("population of Tokyo").id).toBe("tokyo-population");
    expect(lookupFact("time zone of Tokyo").id).toBe("tokyo-time-zone");
    expect(lookupFact("how tall is Big Ben").id).toBe("elizabeth-tower-height");
    expect(lookupFact("NYC population").id).toBe("new-york-population");
    expect(lookupFact("population of Sao Paulo").id).toBe("sao-paulo-population");
    expect(lookupFact("Everest").id).toBe("everest-height");
  });

  it("gives no fact of another attribute, nor of a subject that only shares a word", () => {
    expect(thrown(() => lookupFact("GDP of France")).message).toMatch(
      /^No fact about "GDP of France" in the knowledge base/,
    );
    expect(thrown(() => lookupFact("area of Berlin")).message).toMatch(/^No fact about "area of Berlin"/);
    expect(thrown(() => lookupFact("height of Mount Kilimanjaro")).message).toMatch(
      /^No fact about "height of Mount Kilimanjaro"/,
    );
    expect(lookupFact("France").id).toBe("france-population");
  });

  it("fails a lookup about an unknown subject, naming the closest facts", () => {
    const error = thrown(() => lookupFact("population of Atlantis"));
    expect(error.code).toBe("tool-error");
    expect(error.message).toBe(
      'No fact about "population of Atlantis" in the knowledge base; closest facts: population of Tokyo, population of Paris, population of London',
    );
    expect(thrown(() => lookupFact("zzz")).message).toBe('No fact about "zzz" in the knowledge base');
  });

  it("ranks search results and respects the limit", () => {
    const matches = searchKnowledge("How far away is the Moon?", { limit: 2 });
    expect(matches).toHaveLength(2);
    expect(matches[0]?.fact.id).toBe("moon-distance");
    expect(matches[0]?.score).toBeGreaterThan(matches[1]?.score ?? Infinity);
    expect(searchKnowledge("quantum chromodynamics")).toEqual([]);
  });
});

describe("createDemoTools", () => {
  it("registers seven tools with JSON Schemas and MCP annotations", () => {
    const tools = createDemoTools();
    const names = tools.list().map((tool) => tool.name);
    expect(names).toEqual([
      "kb_lookup",
      "kb_search",
      "calculator",
      "convert_units",
      "current_time",
      "slow_lookup",
      "save_note",
    ]);
    for (const tool of tools.list()) {
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.inputSchema["type"]).toBe("object");
      expect(tool.outputSchema?.["type"]).toBe("object");
      expect(typeof tool.annotations?.readOnlyHint).toBe("boolean");
    }
    expect(tools.get("save_note")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(tools.get("calculator")?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(tools.get("current_time")?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: false });
    expect(
      createDemoTools({ only: ["calculator", "kb_lookup"] })
        .list()
        .map((tool) => tool.name),
    ).toEqual(["kb_lookup", "calculator"]);
  });

  it("runs the lookup, search, calculator and conversion tools with validated arguments", async () => {
    const tools = createDemoTools();
    expect(await tools.call("kb_lookup", { query: "population of Paris" })).toMatchObject({
      value: 2_133_111,
      unit: "people",
      year: 2021,
      source: "INSEE, legal populations 2021",
    });
    const search = (await tools.call("kb_search", { query: "river length", limit: 2 })) as {
      count: number;
      results: { id: string }[];
    };
    expect(search.count).toBe(2);
    expect(search.results.map((result) => result.id).sort()).toEqual(["amazon-length", "nile-length"]);
    expect(await tools.call("calculator", { expr: "21*2+5" })).toEqual({ expr: "21*2+5", value: 47, text: "47" });
    expect(await tools.call("calculator", { expr: "8848.86 - 3776" })).toMatchObject({ text: "5,072.86" });
    expect(await tools.call("convert_units", { value: 8848.86, from: "m", to: "ft" })).toMatchObject({
      value: 29031.69291,
      unit: "ft",
    });
    expect((await rejection(tools.call("calculator", { expr: 42 }))).code).toBe("invalid-argument");
    expect((await rejection(tools.call("kb_search", { query: "x", limit: 50 }))).code).toBe("invalid-argument");
    expect((await rejection(tools.call("kb_lookup", { query: "population of Atlantis" }))).code).toBe("tool-error");
  });

  it("reads the injected clock, in UTC or a time zone", async () => {
    const tools = createDemoTools({ now: () => Date.UTC(2026, 0, 1, 12, 30) });
    expect(await tools.call("current_time", {})).toEqual({
      iso: "2026-01-01T12:30:00.000Z",
      epochMs: Date.UTC(2026, 0, 1, 12, 30),
      timeZone: "UTC",
      local: "Thursday, January 1, 2026 at 12:30",
      offset: "UTC+00:00",
    });
    expect(await tools.call("current_time", { timeZone: "Asia/Tokyo" })).toMatchObject({
      local: "Thursday, January 1, 2026 at 21:30",
      offset: "UTC+09:00",
    });
    expect((await rejection(tools.call("current_time", { timeZone: "Mars/Olympus" }))).message).toMatch(
      /Unknown time zone "Mars\/Olympus"/,
    );
  });

  it("makes the slow lookup wait, and stops the wait when the call is aborted", async () => {
    const waits: number[] = [];
    const tools = createDemoTools({
      slowLookupDelayMs: 1200,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(await tools.call("slow_lookup", { query: "height of Mount Fuji" })).toMatchObject({
      value: 3776,
      latencyMs: 1200,
    });
    expect(await tools.call("slow_lookup", { query: "height of Mount Fuji", delayMs: 5 })).toMatchObject({
      latencyMs: 5,
    });
    expect(waits).toEqual([1200, 5]);

    const real = createDemoTools({ slowLookupDelayMs: 10_000 });
    const controller = new AbortController();
    const started = Date.now();
    const pending = rejection(
      real.call("slow_lookup", { query: "height of Mount Fuji", delayMs: 5000 }, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(new Error("client left")), 20);
    const error = await pending;
    expect(error.code).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("saves notes into the store, keeping the newest", async () => {
    const notes = createNoteStore(2);
    const tools = createDemoTools({ notes, now: () => Date.UTC(2026, 5, 1) });
    expect(await tools.call("save_note", { title: "Tokyo", text: "About 14 million people" })).toEqual({
      id: "note-1",
      title: "Tokyo",
      chars: 23,
      savedAt: "2026-06-01T00:00:00.000Z",
    });
    await tools.call("save_note", { title: "Paris", text: "About 2.1 million people" });
    await tools.call("save_note", { title: "Ratio", text: "6.58" });
    expect(notes.list().map((note) => note.title)).toEqual(["Paris", "Ratio"]);
    expect((await rejection(tools.call("save_note", { title: "", text: "x" }))).code).toBe("invalid-argument");
  });

  it("lets plans reference declared output fields, and rejects undeclared ones", () => {
    const tools = createDemoTools();
    const good = validatePlan(
      [
        { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "height of the Eiffel Tower" } },
        {
          id: "s2",
          type: "tool",
          name: "convert_units",
          arguments: { value: "{{s1.value}}", from: "{{s1.unit}}", to: "ft" },
        },
        { id: "s3", type: "tool", name: "kb_search", arguments: { query: "towers" } },
        { id: "s4", type: "reply", text: "{{s2.text}} ({{s3.results.0.source}})" },
      ],
      tools,
    );
    expect(good.issues).toEqual([]);
    const bad = validatePlan(
      [
        { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "height of the Eiffel Tower" } },
        { id: "s2", type: "reply", text: "{{s1.height}}" },
      ],
      tools,
    );
    expect(bad.issues.map((issue) => issue.code)).toEqual(["unknown-reference"]);
  });
});
