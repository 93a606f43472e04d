import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createJsonStreamParser, type JsonRepairKind } from "../../src/json/create-json-stream-parser.ts";
import { JsonStreamError } from "../../src/json/json-stream-error.ts";
import { expectSameJson, toJsonValue } from "./expect-same-json.ts";

interface LenientCase {
  name: string;
  text: string;
  value: unknown;
  /** Elements emitted by write() (defaults to every element of `value`). */
  elements?: unknown[];
  /** Every repair kind that must be reported. */
  repairs: JsonRepairKind[];
}

const step1 = { id: "s1", type: "tool", name: "search", arguments: { query: "Tokyo population" } };
const step2 = { id: "s2", type: "reply", text: "Tokyo has {{s1.population}} people." };

const cases: LenientCase[] = [
  {
    name: "prose and a json fence around the value",
    text: `Sure! Here is the plan:\n\n\`\`\`json\n${JSON.stringify([step1, step2], null, 2)}\n\`\`\`\n\nLet me know if you need anything else [1].`,
    value: [step1, step2],
    repairs: ["skipped-prefix", "skipped-suffix"],
  },
  {
    name: "a bare fence",
    text: `\`\`\`\n[${JSON.stringify(step1)}]\n\`\`\``,
    value: [step1],
    repairs: ["skipped-prefix", "skipped-suffix"],
  },
  {
    name: "brackets in the prose before the value",
    text: `<think>I could call [search] or {lookup}; [the] first is better.</think>\n[${JSON.stringify(step1)}]`,
    value: [step1],
    repairs: ["skipped-prefix"],
  },
  {
    name: "trailing commas",
    text: '[{"a": 1, "b": [1, 2,],}, 3,]',
    value: [{ a: 1, b: [1, 2] }, 3],
    repairs: ["trailing-comma"],
  },
  {
    name: "numbers with a leading + or .",
    text: '[{"temperature": .7, "delta": -.25, "offset": +3, "ratio": +.5e1, "items": [.5, ..., +1]}]',
    value: [{ temperature: 0.7, delta: -0.25, offset: 3, ratio: 5, items: [0.5, 1] }],
    repairs: ["loose-number", "placeholder"],
  },
  {
    name: "a sign and a dot cut off at the end, dropped",
    text: '[{"a": 1}, {"b": +.',
    value: [{ a: 1 }, {}],
    elements: [{ a: 1 }],
    repairs: ["loose-number", "dropped-key", "closed-object", "closed-array"],
  },
  {
    name: "line and block comments",
    text: '[ // the steps\n {"a": /* inline */ 1}, /* between */ 2 // last\n]',
    value: [{ a: 1 }, 2],
    repairs: ["comment"],
  },
  {
    name: "single-quoted strings",
    text: `[{'id': 's1', 'text': 'it\\'s "quoted"'}]`,
    value: [{ id: "s1", text: `it's "quoted"` }],
    repairs: ["single-quotes"],
  },
  {
    name: "unquoted keys",
    text: '[{id: "s1", type: "tool", max_results: 2, $ref: 1, dash-key: 0}]',
    value: [{ id: "s1", type: "tool", max_results: 2, $ref: 1, "dash-key": 0 }],
    repairs: ["unquoted-key"],
  },
  {
    name: "Python literals",
    text: '[{"exact": True, "fuzzy": False, "limit": None}, True]',
    value: [{ exact: true, fuzzy: false, limit: null }, true],
    repairs: ["python-literal"],
  },
  {
    name: "typographic quotes",
    text: "[{“id”: “s1”, ‘text’: ‘a “b” c’}]",
    value: [{ id: "s1", text: "a “b” c" }],
    repairs: ["special-quotes"],
  },
  {
    name: "missing commas between elements on separate lines",
    text: '[\n  {"id": "s1"}\n  {"id": "s2"}\n  3\n  "x"\n]',
    value: [{ id: "s1" }, { id: "s2" }, 3, "x"],
    repairs: ["inserted-comma"],
  },
  {
    name: "missing commas between members on separate lines",
    text: '{\n  "a": 1\n  "b": [1\n 2]\n}',
    value: { a: 1, b: [1, 2] },
    repairs: ["inserted-comma"],
  },
  {
    name: "raw control characters inside strings",
    text: '["line one\nline two\ttabbed"]',
    value: ["line one\nline two\ttabbed"],
    repairs: ["control-character"],
  },
  {
    name: "a missing colon after a quoted key",
    text: '{"city" "Paris", "days" 3}',
    value: { city: "Paris", days: 3 },
    elements: [],
    repairs: ["inserted-colon"],
  },
  {
    name: "unquoted string values",
    text: '[{"city": Paris, "note": sunny and warm}]',
    value: [{ city: "Paris", note: "sunny and warm" }],
    repairs: ["unquoted-string"],
  },
  {
    name: "unquoted values named like Object.prototype members",
    text: '[{"a": constructor, "b": toString, "c": __proto__, "d": hasOwnProperty}]',
    value: [{ a: "constructor", b: "toString", c: "__proto__", d: "hasOwnProperty" }],
    repairs: ["unquoted-string"],
  },
  {
    name: "a bare word named like an Object.prototype member in an array",
    text: "[1, valueOf, 2]",
    value: [1],
    repairs: ["stopped"],
  },
  {
    name: "a missing opening quote",
    text: '[{"city": Paris", "days": 3}]',
    value: [{ city: "Paris", days: 3 }],
    repairs: ["opened-quote"],
  },
  {
    name: "a missing closing quote at a line end",
    text: '[{\n  "city": "Paris,\n  "days": 3,\n  "unit": "metric\n}]',
    value: [{ city: "Paris", days: 3, unit: "metric" }],
    repairs: ["closed-quote"],
  },
  {
    name: "a missing closing quote before the next element",
    text: '{"cities": [\n  "Paris\n  "Tokyo"\n]}',
    value: { cities: ["Paris", "Tokyo"] },
    elements: [],
    repairs: ["closed-quote"],
  },
  {
    name: "a line end that belongs to its string",
    text: '[{"text": "line one\nline two", "tail": "ends with a line end\n"}]',
    value: [{ text: "line one\nline two", tail: "ends with a line end\n" }],
    repairs: ["control-character"],
  },
  {
    name: "placeholders for left-out elements",
    text: '[{"ids": [1, 2, ..., 9], "more": ["x", …], "a": 1, ...}]',
    value: [{ ids: [1, 2, 9], more: ["x"], a: 1 }],
    repairs: ["placeholder"],
  },
  {
    name: "strings concatenated with +",
    text: '[{"text": "Hello, " + "world" +\n "!", "list": ["a" + \'b\']}]',
    value: [{ text: "Hello, world!", list: ["ab"] }],
    repairs: ["concatenated-string"],
  },
  {
    name: "a JSONP wrapper",
    text: 'callback({"a": [1, 2]});',
    value: { a: [1, 2] },
    elements: [],
    repairs: ["function-wrapper", "skipped-suffix"],
  },
  {
    name: "ObjectId(…)-style wrappers",
    text: '[{"_id": ObjectId("5f1d7a"), "at": ISODate("2020-01-01"), "n": NumberLong(5), "list": [Decimal("1.5")]}]',
    value: [{ _id: "5f1d7a", at: "2020-01-01", n: 5, list: ["1.5"] }],
    repairs: ["function-wrapper"],
  },
  {
    name: "a wrapper around a scalar root value",
    text: 'ISODate("2020-01-01T00:00:00Z")',
    value: "2020-01-01T00:00:00Z",
    repairs: ["function-wrapper"],
  },
  {
    name: "a JSONP callback around the root array",
    text: 'callback([{"id": "s1"}, 2, "three"]);',
    value: [{ id: "s1" }, 2, "three"],
    repairs: ["function-wrapper"],
  },
  {
    name: "a JSONP callback around the root object",
    text: 'jsonp_1( {"steps": [1, 2]} )',
    value: { steps: [1, 2] },
    repairs: ["function-wrapper"],
  },
  {
    name: "Python tuples",
    text: "[{'point': (1, 2), 'single': ('x',), 'empty': (), 'nested': [(1, (2, 3))]}]",
    value: [{ point: [1, 2], single: ["x"], empty: [], nested: [[1, [2, 3]]] }],
    repairs: ["python-tuple"],
  },
  {
    name: "special whitespace",
    text: '{\u2003"a":\u200b1,\u00a0"b":\u2028\u30002\ufeff}',
    value: { a: 1, b: 2 },
    elements: [],
    repairs: [],
  },
  {
    name: "a value wrapped in an object",
    text: `{"steps": [${JSON.stringify(step1)}]}`,
    value: { steps: [step1] },
    elements: [],
    repairs: [],
  },
  {
    name: "a scalar root",
    text: "  42\n",
    value: 42,
    elements: [],
    repairs: [],
  },
  {
    name: "a word before a number root is prose",
    text: "Answer: 42 is not json but [1] is",
    value: [1],
    repairs: ["skipped-prefix", "skipped-suffix"],
  },
];

const truncated: LenientCase[] = [
  {
    name: "an open string, object and array",
    text: `[${JSON.stringify(step1)}, {"id": "s2", "type": "reply", "text": "Tokyo has`,
    value: [step1, { id: "s2", type: "reply", text: "Tokyo has" }],
    elements: [step1],
    repairs: ["closed-string", "closed-object", "closed-array"],
  },
  {
    name: "a key without its value",
    text: '[{"id": "s1", "name":',
    value: [{ id: "s1" }],
    elements: [],
    repairs: ["dropped-key", "closed-object", "closed-array"],
  },
  {
    name: "an unfinished key",
    text: '[{"id": "s1", "na',
    value: [{ id: "s1" }],
    elements: [],
    repairs: ["dropped-key", "closed-object", "closed-array"],
  },
  {
    name: "an unfinished literal and number",
    text: '[{"n": 1., "ok": tr',
    value: [{ n: 1, ok: true }],
    elements: [],
    repairs: ["completed-literal", "truncated-number", "closed-object", "closed-array"],
  },
  {
    name: "a last scalar element",
    text: "[1, 2, 3",
    value: [1, 2, 3],
    elements: [1, 2],
    repairs: ["closed-array"],
  },
  {
    name: "an unfinished escape",
    text: '["caf\\u00',
    value: ["caf"],
    elements: [],
    repairs: ["closed-string", "closed-array"],
  },
  {
    name: "a comment at the end",
    text: "[1, 2 // and then",
    value: [1, 2],
    elements: [1],
    repairs: ["comment", "closed-array"],
  },
];

function chunked(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks;
}

/** The one error lenient end() may throw: the text holds no value at all. */
function expectNoValueFound(error: unknown, text: string): void {
  expect(error, JSON.stringify(text)).toBeInstanceOf(JsonStreamError);
  const { code, message, offset } = error as JsonStreamError;
  expect({ code, message, offset }).toStrictEqual({
    code: "json-syntax",
    message: `No JSON value found in the text (${text.length} characters)`,
    offset: text.length,
  });
}

/** Whether NaN appears anywhere in a parsed value. */
function containsNaN(value: unknown): boolean {
  if (typeof value === "number") return Number.isNaN(value);
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(containsNaN);
}

function runLenient(chunks: string[]) {
  const parser = createJsonStreamParser();
  const elements = chunks.flatMap((chunk) => parser.write(chunk));
  const value = parser.end();
  return { elements, value, repairs: parser.repairs };
}

describe("invariant 5: lenient for model output", () => {
  for (const testCase of [...cases, ...truncated]) {
    it(`reads ${testCase.name}, at every split point`, () => {
      const expectedElements = testCase.elements ?? (Array.isArray(testCase.value) ? testCase.value : []);
      for (let cut = 0; cut <= testCase.text.length; cut++) {
        const { elements, value, repairs } = runLenient([testCase.text.slice(0, cut), testCase.text.slice(cut)]);
        expectSameJson(value, testCase.value);
        expectSameJson(elements, expectedElements);
        const kinds = new Set(repairs.map((repair) => repair.kind));
        for (const kind of testCase.repairs) expect(kinds, `${testCase.name}: ${kind}`).toContain(kind);
        if (testCase.repairs.length === 0) expect(repairs).toStrictEqual([]);
      }
      expectSameJson(runLenient(chunked(testCase.text, 1)).value, testCase.value);
    });
  }

  it("leaves every repair out of strict mode, as JSON.parse does", () => {
    for (const testCase of cases) {
      if (
        testCase.repairs.length === 0 ||
        testCase.repairs.every((kind) => kind === "skipped-prefix" || kind === "skipped-suffix")
      )
        continue;
      const text = testCase.text;
      expect(() => JSON.parse(text), testCase.name).toThrow();
      expect(() => {
        const parser = createJsonStreamParser({ strict: true });
        parser.write(text);
        parser.end();
      }, testCase.name).toThrow(JsonStreamError);
    }
  });

  it("does not read a word in prose as a value with a missing colon or quote", () => {
    const { value } = runLenient(["I could {look it up} or {ask} first: [1, 2]"]);
    expectSameJson(value, [1, 2]);
  });

  it("reports each repair with its kind, offset and a message", () => {
    const text = "Plan: [1, 2,]";
    const { repairs } = runLenient([text]);
    expect(repairs).toStrictEqual([
      { kind: "skipped-prefix", offset: 6, message: "Skipped text before the JSON value at offset 6" },
      { kind: "trailing-comma", offset: 12, message: "Ignored a trailing comma at offset 12" },
    ]);
  });

  it("reads a number with a leading + or . at the root, and stops at a sign or a dot with no digit", () => {
    for (const prose of [true, false]) {
      for (const text of ["-. ", "+. ", "+.x", ". 5"]) {
        const parser = createJsonStreamParser({ prose });
        parser.write(text);
        expect(parser.status, `${JSON.stringify(text)}, prose: ${prose}`).toBe(prose ? "reading" : "rejected");
        expect(() => parser.end()).toThrow("No JSON value found");
      }
    }
    for (const [text, number] of [
      [".5", 0.5],
      ["+5 ", 5],
      ["-.25", -0.25],
    ] as const) {
      const parser = createJsonStreamParser({ prose: false });
      parser.write(text);
      expect(parser.end()).toBe(number);
    }
    const { value, repairs } = runLenient(["[1, -. , 2]"]);
    expectSameJson(value, [1]);
    expect(repairs.map((repair) => repair.kind)).toContain("stopped");
  });

  it("keeps the first 1000 repairs, and a stop after them", () => {
    const { value, repairs } = runLenient([`[${"'a',".repeat(1200)} @ 1]`]);
    expect(repairs).toHaveLength(1001);
    expect(repairs.slice(0, 1000).every((repair) => repair.kind === "single-quotes")).toBe(true);
    expect(repairs[1000]).toMatchObject({ kind: "stopped", offset: 4802 });
    expect(value).toHaveLength(1200);
  });

  it("agrees with JSON.parse on valid JSON and reports no repair", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, cut) => {
        const text = JSON.stringify(value, null, cut % 3);
        const { value: parsed, repairs } = runLenient([
          text.slice(0, cut % (text.length + 1)),
          text.slice(cut % (text.length + 1)),
        ]);
        // The generated value is the oracle: Deno's JSON.parse misreads some escaped keys.
        expectSameJson(parsed, toJsonValue(value));
        expect(repairs).toStrictEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws from write(), throws from end() only when no value was found, and reads every split alike (property)", () => {
    const noisy = fc.string({
      unit: fc.constantFrom(..."[]{},:\"'“”‘’\\/*\n 0-+1.eEtrueTrueNonefalsx#`".split("")),
      maxLength: 60,
    });
    /** The parse of `chunks`: its value, or the error end() threw. */
    const read = (chunks: readonly string[], prose: boolean): { value: unknown } | { error: unknown } => {
      const parser = createJsonStreamParser({ prose });
      for (const chunk of chunks) parser.write(chunk);
      try {
        return { value: parser.end() };
      } catch (error) {
        return { error };
      }
    };
    fc.assert(
      fc.property(noisy, fc.array(fc.nat(), { maxLength: 5 }), fc.boolean(), (text, cuts, prose) => {
        // Cuts may repeat: a stream may hand over empty chunks.
        const points = cuts.map((cut) => cut % (text.length + 1)).sort((a, b) => a - b);
        const chunks = [...points, text.length].map((point, index) =>
          text.slice(index === 0 ? 0 : points[index - 1], point),
        );
        const whole = read([text], prose);
        const split = read(chunks, prose);
        if ("error" in whole) {
          expectNoValueFound(whole.error, text);
          // A text that is JSON as a whole always holds a value.
          expect(() => JSON.parse(text), JSON.stringify(text)).toThrow();
        } else {
          expect(containsNaN(whole.value), JSON.stringify(text)).toBe(false);
        }
        expect(split, `${JSON.stringify(chunks)} read apart`).toStrictEqual(whole);
      }),
      { numRuns: 1000 },
    );
  });

  it("never throws from end() on a text that holds a JSON array or object after prose, whatever follows it (property)", () => {
    // Prose without brackets, quotes or comment marks: a bracket or quote before the value may open a candidate
    // that fails after the value began, and candidates inside failed text are not tried again (that keeps the
    // parser linear); `//` and `/*` may comment the value out.
    const prose = fc.string({
      unit: fc.constantFrom(..."abc xyz,:;!?-+.#*\\\n<>`0123456789".split("")),
      maxLength: 30,
    });
    const noise = fc.string({
      unit: fc.constantFrom(..."[]{},:\"'\\/*\n 0-+1.eEtrueNonex#`<>()".split("")),
      maxLength: 30,
    });
    const container = fc.oneof(
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    );
    fc.assert(
      fc.property(prose, container, noise, fc.array(fc.nat(), { maxLength: 5 }), (before, value, after, cuts) => {
        const text = `${before}${JSON.stringify(value)}${after}`;
        const parser = createJsonStreamParser();
        let start = 0;
        for (const cut of [...cuts.map((c) => c % (text.length + 1))].sort((a, b) => a - b)) {
          parser.write(text.slice(start, cut));
          start = cut;
        }
        parser.write(text.slice(start));
        expect(containsNaN(parser.end()), JSON.stringify(text)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it("reads a number cut off by the end of the text as the digits before the cut, and drops one without digits, never NaN", () => {
    const cases: [string, unknown][] = [
      ["1e+", 1],
      ["1e-", 1],
      ["-1.5e", -1.5],
      ["2.", 2],
      [".5e+", 0.5],
      ["+7e", 7],
      ["[1e+", [1]],
      ['{"a": 1e-', { a: 1 }],
      ['{"a": -', {}],
      ['{"a": +', {}],
      ["[1, -", [1]],
      ["[1, .", [1]],
    ];
    for (const [text, expected] of cases) {
      for (let cut = 0; cut <= text.length; cut++) {
        const parser = createJsonStreamParser();
        parser.write(text.slice(0, cut));
        parser.write(text.slice(cut));
        const value = parser.end();
        expect(value, `${JSON.stringify(text)} cut at ${cut}`).toStrictEqual(expected);
        expect(containsNaN(value)).toBe(false);
      }
    }
    for (const text of ["-", "+", ".", "-e", "x -"]) {
      const parser = createJsonStreamParser();
      parser.write(text);
      let error: unknown;
      try {
        parser.end();
      } catch (caught) {
        error = caught;
      }
      expectNoValueFound(error, text);
    }
  });

  it("stops cleanly at an unrecoverable character, keeping what came before", () => {
    const parser = createJsonStreamParser();
    expect(parser.write('[{"id": "s1"}, {"id": "s2", "x": @oops}, {"id": "s3"}]')).toStrictEqual([{ id: "s1" }]);
    expect(parser.write(" more text")).toStrictEqual([]);
    expect(parser.end()).toStrictEqual([{ id: "s1" }, { id: "s2" }]);
    const stop = parser.repairs.find((repair) => repair.kind === "stopped");
    expect(stop?.offset).toBe(33);
    expect(stop?.message).toContain('"@"');
  });

  it("throws json-syntax from end() when the text holds no JSON value", () => {
    for (const text of ["", "   ", "I cannot help with that.", "[oops", "- nope"]) {
      const parser = createJsonStreamParser();
      expect(parser.write(text)).toStrictEqual([]);
      if (text === "[oops") {
        // A candidate that never failed is closed as far as it got.
        expect(parser.end()).toStrictEqual([]);
        continue;
      }
      let error: unknown;
      try {
        parser.end();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(JsonStreamError);
      expect((error as JsonStreamError).message).toBe(`No JSON value found in the text (${text.length} characters)`);
    }
  });

  it("emits steps of a realistic streamed plan as they close", () => {
    const plan = [
      { id: "s1", type: "tool", name: "kb_search", arguments: { query: "东京 人口", limit: 3 } },
      { id: "s2", type: "tool", name: "kb_search", arguments: { query: "Paris population", limit: 3 } },
      { id: "s3", type: "tool", name: "calculator", arguments: { expression: "{{s1.value}} / {{s2.value}}" } },
      { id: "s4", type: "reply", text: "Tokyo has {{s3.value}}× the people of Paris." },
    ];
    const text = `I'll look both up, then divide.\n\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\``;
    const parser = createJsonStreamParser();
    const seen: { id: string; at: number }[] = [];
    for (const [index, chunk] of chunked(text, 4).entries()) {
      for (const element of parser.write(chunk)) seen.push({ id: (element as { id: string }).id, at: index * 4 });
    }
    parser.end();
    expect(seen.map((entry) => entry.id)).toStrictEqual(["s1", "s2", "s3", "s4"]);
    // Each step is emitted by the chunk holding its closing brace, long before the text ends.
    for (const [index, entry] of seen.entries()) {
      const closing = text.indexOf("\n  }", text.indexOf(`"id": "${plan[index]!.id}"`)) + 3;
      expect(entry.at).toBe(Math.floor(closing / 4) * 4);
    }
  });
});
