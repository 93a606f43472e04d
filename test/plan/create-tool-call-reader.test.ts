import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createToolCallReader, type ToolCallReadResult } from "../../src/plan/create-tool-call-reader.ts";
import { splitAt } from "../fixtures/split-at.ts";

interface Read {
  /** Every step, in order: those write() handed out, then those end() gave. */
  steps: unknown[];
  /** For each step, the length of the text written when it was handed out (the whole length for end()). */
  at: number[];
  result: ToolCallReadResult;
}

function read(chunks: readonly string[]): Read {
  const reader = createToolCallReader();
  const steps: unknown[] = [];
  const at: number[] = [];
  let written = 0;
  for (const chunk of chunks) {
    written += chunk.length;
    for (const step of reader.write(chunk)) {
      steps.push(step);
      at.push(written);
    }
  }
  const result = reader.end();
  for (const step of result.steps) {
    steps.push(step);
    at.push(written);
  }
  return { steps, at, result };
}

/** Every way to cut the text in two, and the text one character at a time. */
function splits(text: string): string[][] {
  const all: string[][] = [[text], Array.from(text)];
  for (let cut = 1; cut < text.length; cut++) all.push([text.slice(0, cut), text.slice(cut)]);
  return all;
}

const weather = { name: "get_weather", arguments: { city: "Paris", days: 3 } };
const factorial = { name: "math.factorial", arguments: { number: 5 } };

interface Sample {
  format: string;
  text: string;
  steps: unknown[];
  cutOff?: string[];
  values?: unknown[];
}

/** Realistic answers in each format, written for these tests. */
const samples: Sample[] = [
  {
    format: "a JSON array of steps",
    text: 'Here is the plan:\n[{"id": "s1", "type": "tool", "name": "get_weather", "arguments": {"city": "Paris", "days": 3}}, {"id": "s2", "type": "reply", "text": "{{s1}}"}]',
    steps: [
      { id: "s1", type: "tool", name: "get_weather", arguments: { city: "Paris", days: 3 } },
      { id: "s2", type: "reply", text: "{{s1}}" },
    ],
  },
  {
    format: "a JSON array of call objects",
    text: '[{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}, {"name": "math.factorial", "arguments": {"number": 5}}]',
    steps: [weather, factorial],
  },
  {
    format: "objects one per line",
    text: '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n{"name": "math.factorial", "arguments": {"number": 5}}\n',
    steps: [weather, factorial],
  },
  {
    format: "concatenated objects",
    text: '{"name":"get_weather","arguments":{"city":"Paris","days":3}}{"name":"math.factorial","arguments":{"number":5}}',
    steps: [weather, factorial],
  },
  {
    format: "objects separated by prose",
    text: 'First I check the weather: {"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}. Then the factorial: {"name": "math.factorial", "arguments": {"number": 5}} and that is all.',
    steps: [weather, factorial],
  },
  ...["steps", "plan", "tool_calls", "calls", "actions", "function_calls", "functions", "tasks"].map((key) => ({
    format: `a {"${key}": [...]} wrapper`,
    text: `{"${key}": [{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}, {"name": "math.factorial", "arguments": {"number": 5}}]}`,
    steps: [weather, factorial],
  })),
  {
    format: "<tool_call> blocks",
    text: 'I will look both up.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>\n<tool_call>\n{"name": "math.factorial", "arguments": {"number": 5}}\n</tool_call>',
    steps: [weather, factorial],
  },
  {
    format: "a <tool_call> block whose closing brace is missing",
    text: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}\n</tool_call>',
    steps: [weather],
  },
  {
    format: "<function_call> and <tools> blocks",
    text: '<function_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}</function_call><tools>[{"name": "math.factorial", "arguments": {"number": 5}}]</tools>',
    steps: [weather, factorial],
  },
  {
    format: "[TOOL_CALLS] with a JSON array",
    text: '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}, {"name": "math.factorial", "arguments": {"number": 5}}]</s>',
    steps: [weather, factorial],
  },
  {
    format: "[TOOL_CALLS] name[ARGS]{…}",
    text: '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": 3}[TOOL_CALLS]math.factorial[ARGS]{"number": 5}',
    steps: [weather, factorial],
  },
  {
    format: "<|python_tag|> with a JSON call",
    text: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris", "days": 3}}<|eom_id|>',
    steps: [{ name: "get_weather", parameters: { city: "Paris", days: 3 } }],
  },
  {
    format: "<|python_tag|> with pythonic calls",
    text: '<|python_tag|>get_weather(city="Paris", days=3); math.factorial(number=5)<|eom_id|>',
    steps: [weather, factorial],
  },
  {
    format: "<function=name> tags",
    text: '<function=get_weather>{"city": "Paris", "days": 3}</function>\n<function=math.factorial>{"number": 5}</function>',
    steps: [weather, factorial],
  },
  {
    format: "a fence with a language",
    text: 'Plan:\n```json\n[\n  {"name": "get_weather", "arguments": {"city": "Paris", "days": 3}},\n  {"name": "math.factorial", "arguments": {"number": 5}}\n]\n```\nDone.',
    steps: [weather, factorial],
  },
  {
    format: "a fence without a language",
    text: '```\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n```',
    steps: [weather],
  },
  {
    format: "a python fence with pythonic calls",
    text: 'Calling the tools:\n```python\nget_weather(city="Paris", days=3)\nmath.factorial(number=5)\n```',
    steps: [weather, factorial],
  },
  {
    format: "OpenAI call objects with string arguments",
    text: '[{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\", \\"days\\": 3}"}}]',
    steps: [
      { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris", "days": 3}' } },
    ],
  },
  {
    format: "a legacy function_call object",
    text: '{"function_call": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\", \\"days\\": 3}"}}',
    steps: [{ name: "get_weather", arguments: '{"city": "Paris", "days": 3}' }],
  },
  {
    format: 'records {tool: {args}} and {tool: "<json>"}',
    text: '{"get_weather": {"city": "Paris", "days": 3}}\n{"math.factorial": "{\\"number\\": 5}"}',
    steps: [weather, factorial],
  },
  {
    format: "Python-literal call objects",
    text: "[{'name': 'get_weather', 'arguments': {'city': 'Paris', 'days': 3, 'metric': True, 'unit': None,},},]",
    steps: [{ name: "get_weather", arguments: { city: "Paris", days: 3, metric: true, unit: null } }],
  },
  {
    format: "a pythonic call list",
    text: '[get_weather(city="Paris", days=3), math.factorial(number=5)]',
    steps: [weather, factorial],
  },
  {
    format: "pythonic calls separated by semicolons",
    text: 'get_weather(city="Paris", days=3); math.factorial(number=5)',
    steps: [weather, factorial],
  },
  {
    format: "pythonic calls separated by commas, with Python values",
    text: "get_weather(city='Paris', days=3), search(query=\"a, b\", tags=['x', 'y'], filters={'lang': 'en', 'safe': True}, limit=None, exact=False)",
    steps: [
      weather,
      {
        name: "search",
        arguments: { query: "a, b", tags: ["x", "y"], filters: { lang: "en", safe: true }, limit: null, exact: false },
      },
    ],
  },
  {
    format: "pythonic calls with tuples and nested values",
    text: "[draw(origin=(0, 0), points=[(0, 0), (1, 2)], style={'color': 'red', 'dash': (4, 2)}, closed=True)]",
    steps: [
      {
        name: "draw",
        arguments: {
          origin: [0, 0],
          points: [
            [0, 0],
            [1, 2],
          ],
          style: { color: "red", dash: [4, 2] },
          closed: true,
        },
      },
    ],
  },
  {
    format: "pythonic calls one per line, spread over lines",
    text: 'get_weather(\n    city="Paris",\n    days=3,\n)\nmath.factorial(number=5)\n',
    steps: [weather, factorial],
  },
  {
    format: "a pythonic call without arguments",
    text: "[list_files()]",
    steps: [{ name: "list_files", arguments: {} }],
  },
  {
    format: "a tool name on its own line, then its JSON arguments",
    text: 'get_weather\n{"city": "Paris", "days": 3}\nmath.factorial\n{"number": 5}',
    steps: [weather, factorial],
  },
  {
    format: "a whole answer JSON-encoded in a string",
    text: '"[{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"Paris\\", \\"days\\": 3}}]"',
    steps: [weather],
  },
  {
    format: "a sketch (read whole by the planner)",
    text: '{"vertices": [{"id": "a", "tool": "search"}], "edges": []}',
    steps: [],
    values: [{ vertices: [{ id: "a", tool: "search" }], edges: [] }],
  },
  {
    format: "a mix of a tag, a fence and pythonic calls",
    text: 'First:\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}</tool_call>\nThen:\n```\nmath.factorial(number=5)\n```\nand {"name": "list_files", "arguments": {}}',
    steps: [weather, factorial, { name: "list_files", arguments: {} }],
  },
  {
    format: "a tag never closed, the second call cut off",
    text: '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}</tool_call>\n<tool_call>{"name": "math.factorial", "arguments": {"numb',
    steps: [weather],
    cutOff: ["its JSON"],
  },
  {
    format: "a pythonic call cut mid-argument",
    text: '[get_weather(city="Paris", days=3), math.factorial(number=',
    steps: [weather],
    cutOff: ['the call "math.factorial(…"'],
  },
  {
    format: "an array cut inside its second element",
    text: '[{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}, {"name": "math.factorial", "argu',
    steps: [weather],
    cutOff: ["its JSON"],
  },
];

describe("createToolCallReader", () => {
  describe("reads every format at every chunk split", () => {
    for (const sample of samples) {
      it(sample.format, () => {
        for (const chunks of splits(sample.text)) {
          const { steps, result } = read(chunks);
          expect(steps, JSON.stringify(chunks)).toEqual(sample.steps);
          expect(result.cutOff.map((cut) => cut.what)).toEqual(sample.cutOff ?? []);
          expect(result.values).toEqual(sample.values ?? []);
          expect(result.found).toBe(true);
        }
      });
    }
  });

  it("reads any split into many chunks like the whole text (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...samples), fc.array(fc.nat(), { maxLength: 12 }), (sample, cuts) => {
        const chunks = splitAt(sample.text, cuts);
        expect(read(chunks).steps).toEqual(sample.steps);
      }),
    );
  });

  it("never throws and gives the same result for any chunking of noisy text (property)", () => {
    const pieces = [
      "<tool_call>",
      "</tool_call>",
      "```",
      "```json\n",
      "[TOOL_CALLS]",
      "[ARGS]",
      "<|python_tag|>",
      "<function=f>",
      "f(",
      "g.h(",
      "a=",
      "=",
      "1",
      "'x'",
      '"y"',
      "True",
      "None",
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      ":",
      ",",
      ";",
      "\n",
      " ",
      "name",
      '"name"',
      '"arguments"',
      "...",
      "+",
      "\\",
      "<",
      ">",
      "|",
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (parts, cuts) => {
          const text = parts.join("");
          const chunks = splitAt(text, cuts);
          const whole = read([text]);
          const split = read(chunks);
          expect(split.steps).toEqual(whole.steps);
          expect(split.result.cutOff).toEqual(whole.result.cutOff);
          expect(split.result.values).toEqual(whole.result.values);
        },
      ),
      { numRuns: 2000 },
    );
  });

  describe("hands each call out the moment it closes", () => {
    const cases: [string, string, string[]][] = [
      // [text, the text up to which each step must be handed out]
      [
        "JSON objects: at the closing brace",
        '{"name": "a", "arguments": {}}  {"name": "b", "arguments": {"x": 1}} tail',
        ['{"name": "a", "arguments": {}}', '{"name": "a", "arguments": {}}  {"name": "b", "arguments": {"x": 1}}'],
      ],
      [
        "array elements: at each element's brace",
        '[{"name": "a"}, {"name": "b"}]',
        ['[{"name": "a"}', '[{"name": "a"}, {"name": "b"}'],
      ],
      ["pythonic calls: at the separator after each call", "f(a=1); g(b=2)\n", ["f(a=1);", "f(a=1); g(b=2)\n"]],
      [
        "a bracketed pythonic list: at the comma and at the bracket",
        "[f(a=1), g(b=2)]",
        ["[f(a=1),", "[f(a=1), g(b=2)]"],
      ],
      [
        "a call in a tag: at its closing brace",
        '<tool_call>{"name": "f", "arguments": {}}</tool_call>',
        ['<tool_call>{"name": "f", "arguments": {}}'],
      ],
    ];
    for (const [name, text, prefixes] of cases) {
      it(name, () => {
        expect(read(Array.from(text)).at).toEqual(prefixes.map((prefix) => prefix.length));
      });
    }
  });

  describe("names positional arguments after the tool's parameters", () => {
    const parameters = new Map<string, readonly string[]>([
      ["get_weather", ["city", "days"]],
      ["math.factorial", ["number"]],
      ["print", ["value"]],
      ["len", ["x"]],
    ]);
    const parameterNames = (tool: string) => parameters.get(tool);
    function readWith(chunks: readonly string[], options: Parameters<typeof createToolCallReader>[0]) {
      const reader = createToolCallReader(options);
      const steps = chunks.flatMap((chunk) => reader.write(chunk));
      const result = reader.end();
      return { steps: [...steps, ...result.steps], result };
    }
    const cases: { text: string; steps: unknown[]; dropped?: string[] }[] = [
      { text: 'get_weather("Paris", 3)', steps: [weather] },
      { text: "[get_weather('Paris', days=3), math.factorial(5)]", steps: [weather, factorial] },
      {
        text: 'get_weather(\n  "Paris",\n  None,\n)\nmath.factorial(True)',
        steps: [
          { name: "get_weather", arguments: { city: "Paris", days: null } },
          { name: "math.factorial", arguments: { number: true } },
        ],
      },
      {
        text: "math.factorial(5, 6)",
        steps: [],
        dropped: [
          'The call "math.factorial(…)" passes argument 2 by position, and "math.factorial" has only 1 parameter (number); it was dropped',
        ],
      },
      {
        text: 'get_weather("Paris", city="Rome")',
        steps: [],
        dropped: ['The call "get_weather(…)" passes "city" both by position (argument 1) and by name; it was dropped'],
      },
      {
        text: 'search("news")\nmath.factorial(5)',
        steps: [factorial],
        dropped: [
          'The call "search(…)" passes argument 1 by position, and the parameters of "search" are not known; it was dropped',
        ],
      },
      // Not calls: a positional value after a keyword one, a call or a name as a value.
      { text: 'get_weather(city="Paris", 3)', steps: [] },
      { text: "print(get_weather('Paris'))", steps: [] },
      { text: "get_weather(city=str('Paris'))", steps: [] },
      { text: "len(x)", steps: [] },
    ];
    for (const { text, steps, dropped = [] } of cases) {
      it(JSON.stringify(text), () => {
        for (const chunks of splits(text)) {
          const { steps: read, result } = readWith(chunks, { parameterNames });
          expect(read, JSON.stringify(chunks)).toEqual(steps);
          expect(
            result.dropped.map((drop) => drop.message),
            JSON.stringify(chunks),
          ).toEqual(dropped);
          expect(result.cutOff).toEqual([]);
        }
      });
    }

    it("drops them with a message naming the call and the argument when it does not know the tools", () => {
      for (const chunks of splits('get_weather("Paris", 3)')) {
        const { steps, result } = readWith(chunks, {});
        expect(steps).toEqual([]);
        expect(result.dropped).toEqual([
          {
            offset: 0,
            message:
              'The call "get_weather(…)" passes argument 1 by position, and the parameters of "get_weather" are not known; it was dropped',
          },
        ]);
        expect(result.found).toBe(true);
      }
    });
  });

  describe("never reads prose as a call", () => {
    // Rule: a pythonic call counts only in a call position (the start of the answer,
    // after a tool-call tag or marker, at the start of a fence, or after a call that
    // counted), and only when what follows it on its line is a separator, a closing
    // tag or fence, or the end. Without the tools' parameters, positional arguments are not read.
    const prose = [
      'You could call get_weather(city="Paris") to find out.',
      'get_weather(city="Paris") would tell you the forecast.',
      'get_weather(city="Paris") and math.factorial(number=5) are what I would use.',
      'I would use search(query="weather"), then summarize it.',
      "Note: f(a=1) is one way.\ng(b=2)",
      "print(get_weather('Paris'))",
      "len(x) gives the length.",
      "[docs](https://example.com/get_weather(city=1)) explain it.",
      '`get_weather(city="Paris")` returns the forecast.',
      "Paris(France) is sunny today.",
      "f(a=1)f(b=2)",
      "f(a == 1)",
      "It is sunny. <b>Enjoy</b> your day (and take(care=True)).",
    ];
    for (const text of prose) {
      it(JSON.stringify(text), () => {
        for (const chunks of splits(text)) {
          const { steps, result } = read(chunks);
          expect(steps).toEqual([]);
          expect(result.cutOff).toEqual([]);
        }
      });
    }

    it("keeps calls that counted before the prose after them", () => {
      expect(read(["f(a=1)\nThat fetches the data; g(b=2) would too."]).steps).toEqual([
        { name: "f", arguments: { a: 1 } },
      ]);
    });

    it("finds nothing in plain prose", () => {
      expect(read(["I cannot help with that, sorry."]).result.found).toBe(false);
    });
  });

  it("reads a JSON value that is not a plan as a value, not a step", () => {
    const { steps, result } = read(['The result looks like {"temperature": 21, "unit": "C"} usually.']);
    expect(steps).toEqual([]);
    expect(result.values).toEqual([{ temperature: 21, unit: "C" }]);
  });

  it("drops a step nested deeper than the parser allows with a message, instead of losing it unseen", () => {
    const deep = `${"[".repeat(600)}${"]".repeat(600)}`;
    const text = `Plan:\n[{"name": "send", "arguments": {"to": ${deep}}}, {"name": "ping", "arguments": {}}]`;
    const { steps, result } = read([text]);
    expect(steps.filter((step) => (step as { name?: string }).name === "send")).toEqual([]);
    expect(result.dropped.map((drop) => drop.message)).toEqual([
      "A value is beyond the reader's limits (Nesting is deeper than maxDepth (512) at offset 553); what it held was dropped",
    ]);
  });

  it("skips arrays of plain values in prose, and reads the plan after them", () => {
    const { steps, result } = read(['Pick one of [1, 2, 3]:\n[{"name": "f", "arguments": {}}]']);
    expect(steps).toEqual([{ name: "f", arguments: {} }]);
    expect(result.values).toEqual([[1, 2, 3]]);
  });

  it("takes a tool name on its own line only when the line holds nothing else", () => {
    expect(read(['get_weather  \n{"city": "Paris"}']).steps).toEqual([
      { name: "get_weather", arguments: { city: "Paris" } },
    ]);
    for (const text of [
      'Call get_weather\n{"city": "Paris"}',
      '---\n{"city": "Paris"}',
      'get_weather\n\n{"city": "Paris"}',
      'get_weather: {"city": "Paris"}',
    ]) {
      expect(read([text]).steps, text).toEqual([]);
    }
  });

  it("does not take a prose line before arguments that are a plan as a tool name", () => {
    expect(read(['Sketch\n{"vertices": [], "edges": []}']).result.values).toEqual([{ vertices: [], edges: [] }]);
  });

  it("throws when written after end() or ended twice", () => {
    const reader = createToolCallReader();
    reader.end();
    expect(() => reader.write("x")).toThrow(TypeError);
    expect(() => reader.end()).toThrow(TypeError);
  });

  describe("is linear in its input", () => {
    // Work is counted, not timed: every character read goes through
    // String.prototype.charCodeAt, and every copy through String.prototype.slice.
    function countWork(chunks: string[]): { reads: number; copied: number } {
      const prototype = String.prototype;
      const { charCodeAt, slice } = prototype;
      let reads = 0;
      let copied = 0;
      prototype.charCodeAt = function (this: string, index: number) {
        reads++;
        return charCodeAt.call(this, index);
      };
      prototype.slice = function (this: string, start?: number, end?: number) {
        const result = slice.call(this, start, end);
        copied += result.length;
        return result;
      };
      try {
        const reader = createToolCallReader();
        for (const chunk of chunks) reader.write(chunk);
        reader.end();
      } finally {
        prototype.charCodeAt = charCodeAt;
        prototype.slice = slice;
      }
      return { reads, copied };
    }

    const call = '{"name": "search", "arguments": {"query": "中文 \\"quoted\\" text", "limit": 3}}';
    const inputs: [string, string][] = [
      ["a JSON array", `[${Array.from({ length: 200 }, () => call).join(", ")}]`],
      ["tool_call blocks", Array.from({ length: 200 }, () => `<tool_call>\n${call}\n</tool_call>\n`).join("")],
      [
        "pythonic calls",
        `[${Array.from({ length: 200 }, () => 'search(query="中文 text", limit=3, tags=["a", "b"])').join(", ")}]`,
      ],
      ["prose full of false starts", `${"a < b [see {note} `x` [x <tool ".repeat(300)}[{"name": "f"}]`],
      ["lines that look like names", `${"search\n{x}\n".repeat(300)}`],
      [
        "DeepSeek V3 calls",
        `<｜tool▁calls▁begin｜>${'<｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{"query": "中文 text", "limit": 3}\n```<｜tool▁call▁end｜>'.repeat(200)}<｜tool▁calls▁end｜>`,
      ],
      [
        "DeepSeek V3.1 calls",
        `<｜tool▁calls▁begin｜>${'<｜tool▁call▁begin｜>search<｜tool▁sep｜>{"query": "中文 text", "limit": 3}<｜tool▁call▁end｜>'.repeat(200)}<｜tool▁calls▁end｜>`,
      ],
      ["DeepSeek separators with long names", `${`function<｜tool▁sep｜>${"n".repeat(300)} `.repeat(50)}`],
    ];
    for (const [name, text] of inputs) {
      it(`reads each character of ${name} a bounded number of times, whatever the chunk size`, () => {
        for (const size of [1, 4, 64, text.length]) {
          const chunks: string[] = [];
          for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
          const { reads, copied } = countWork(chunks);
          expect(reads / text.length, `reads at chunk size ${size}`).toBeLessThan(8);
          expect(copied / text.length, `copies at chunk size ${size}`).toBeLessThan(6);
        }
      });
    }

    it("does not grow per character as the input grows", () => {
      const text = (n: number): string => Array.from({ length: n }, () => `<tool_call>${call}</tool_call> `).join("");
      const small = countWork(Array.from(text(20)));
      const large = countWork(Array.from(text(200)));
      expect(large.reads / text(200).length).toBeLessThan((small.reads / text(20).length) * 1.1);
      expect(large.copied / text(200).length).toBeLessThan((small.copied / text(20).length) * 1.1);
    });
  });

  it("reports the string being written in a step of a JSON list once the list is known to hold steps", () => {
    const reader = createToolCallReader();
    reader.write('Here: [{"id":"s1","type":"tool","name":"a","arguments":{"q":"x');
    // The first element decides whether the list holds steps: nothing before it closed.
    expect(reader.partialString()).toBeUndefined();
    expect(reader.write('"}},{"id":"s2","type":"reply","text":"It is ')).toHaveLength(1);
    expect(reader.partialString()).toEqual({ members: { id: "s2", type: "reply" }, key: "text", text: "It is " });
    reader.write('sunny."}]');
    expect(reader.partialString()).toBeUndefined();
    const python = createToolCallReader();
    python.write('get_weather(city="Par');
    expect(python.partialString()).toBeUndefined();
    const values = createToolCallReader();
    values.write('[1, 2, "thr');
    expect(values.partialString()).toBeUndefined();
  });
});
