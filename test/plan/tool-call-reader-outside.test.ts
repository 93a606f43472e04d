/**
 * The tool-call reader seen from outside: answers written the way
 * function-calling models answer (Hermes/Qwen, Llama 3.x, Mistral, fenced
 * code, prose), fed whole and in many chunkings, and read through
 * `normalizeStep` as the planner reads them. Each answer was written for
 * these tests.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LLMPlanner, type PlanStep } from "../../src/index.ts";
import { createToolCallReader } from "../../src/plan/create-tool-call-reader.ts";
import { normalizeStep } from "../../src/plan/normalize-step.ts";
import { createScriptedModel } from "../../src/test.ts";
import { splitAt } from "../fixtures/split-at.ts";
import { weatherCatalog } from "../fixtures/tools/weather-catalog.ts";
import { collectEvents, doneOf } from "../planner/planner-test-kit.ts";

/** What an answer reads as: each call (or reply) in order, and what was left out. */
interface Reading {
  calls: unknown[];
  cutOff: string[];
  dropped: string[];
  values: unknown[];
}

const parameters: Record<string, readonly string[]> = { get_weather: ["city", "days"] };

function readChunks(chunks: readonly string[]): Reading {
  const reader = createToolCallReader({ parameterNames: (tool) => parameters[tool] });
  const raw: unknown[] = [];
  for (const chunk of chunks) raw.push(...reader.write(chunk));
  const result = reader.end();
  raw.push(...result.steps);
  const calls = raw.map((step, index) => {
    const { step: normal, issues } = normalizeStep(step, index);
    if (normal === undefined) return { invalid: issues.map((issue) => issue.message) };
    return normal.type === "tool" ? { name: normal.name, arguments: normal.arguments } : { type: normal.type };
  });
  return {
    calls,
    cutOff: result.cutOff.map((cut) => cut.what),
    dropped: result.dropped.map((drop) => drop.message),
    values: result.values,
  };
}

/** A deterministic generator of numbers in [0, 1), the same in every runtime. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The text whole, one UTF-16 unit at a time, in threes, cut once at every place, and in random pieces (surrogate pairs split too). */
function chunkings(text: string): string[][] {
  const all: string[][] = [[text], text.split("")];
  const threes: string[] = [];
  for (let at = 0; at < text.length; at += 3) threes.push(text.slice(at, at + 3));
  all.push(threes);
  for (let cut = 1; cut < text.length; cut++) all.push([text.slice(0, cut), text.slice(cut)]);
  const random = seeded(text.length);
  for (let round = 0; round < 20; round++) {
    const pieces: string[] = [];
    for (let at = 0; at < text.length; ) {
      const size = 1 + Math.floor(random() * 9);
      pieces.push(text.slice(at, at + size));
      at += size;
    }
    all.push(pieces);
  }
  return all;
}

interface Answer {
  what: string;
  text: string;
  calls: unknown[];
  /** Substrings of the cut-off descriptions, in order. */
  cutOff?: string[];
  /** Substrings of the dropped-call messages, in order. */
  dropped?: string[];
  values?: unknown[];
}

const weather = (city: string, more: Record<string, unknown> = {}) => ({
  name: "get_weather",
  arguments: { city, ...more },
});
const factorial = (name: string) => ({ name, arguments: { number: 5 } });

const answers: Answer[] = [
  // Hermes / Qwen
  {
    what: "Qwen: a thought, then one <tool_call> with CJK in the arguments",
    text: '<think>\nThe user asks about Tokyo. I need the forecast.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "東京都", "days": 2}}\n</tool_call>',
    calls: [weather("東京都", { days: 2 })],
  },
  {
    what: "Hermes: prose, then two <tool_call> blocks, then <|im_end|>",
    text: 'Sure, I will look both up.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Zürich"}}\n</tool_call>\n<tool_call>\n{"name": "math_factorial", "arguments": {"number": 5}}\n</tool_call><|im_end|>',
    calls: [weather("Zürich"), factorial("math_factorial")],
  },
  {
    what: "Hermes: two calls on separate lines inside one <tool_call> block",
    text: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n{"name": "math.factorial", "arguments": {"number": 5}}\n</tool_call>',
    calls: [weather("Oslo"), factorial("math.factorial")],
  },
  {
    what: "Hermes: Python dict with single quotes and True inside <tool_call>",
    text: "<tool_call>\n{'name': 'get_weather', 'arguments': {'city': 'Lyon', 'metric': True, 'alerts': None}}\n</tool_call>",
    calls: [weather("Lyon", { metric: true, alerts: null })],
  },
  {
    what: "Qwen with Windows line ends and tabs",
    text: '<tool_call>\r\n{\r\n\t"name": "get_weather",\r\n\t"arguments": {\r\n\t\t"city": "Paris",\r\n\t\t"days": 3\r\n\t}\r\n}\r\n</tool_call>\r\n',
    calls: [weather("Paris", { days: 3 })],
  },
  {
    what: "non-breaking spaces between tokens and inside a value",
    text: '<tool_call>\u00a0{"name":\u00a0"get_weather",\u00a0"arguments":\u00a0{"city":\u00a0"Saint\u00a0Denis"}}\u00a0</tool_call>',
    calls: [weather("Saint\u00a0Denis")],
  },
  {
    what: "emoji, accents and CJK in arguments, written raw and as \\u escapes",
    text: '<tool_call>{"name": "send_message", "arguments": {"text": "Bonne journée 🌞👍🏽 — 你好", "note": "caf\\u00e9 \\ud83c\\udf08 \\u4f60"}}</tool_call>',
    calls: [{ name: "send_message", arguments: { text: "Bonne journée 🌞👍🏽 — 你好", note: "café 🌈 你" } }],
  },
  {
    what: "escaped quotes, backslashes and newlines in a string",
    text: '<tool_call>{"name": "search", "arguments": {"query": "the \\"best\\" café", "path": "C:\\\\Users\\\\me", "body": "line 1\\nline 2\\ttab"}}</tool_call>',
    calls: [
      { name: "search", arguments: { query: 'the "best" café', path: "C:\\Users\\me", body: "line 1\nline 2\ttab" } },
    ],
  },
  {
    what: "nested arguments: objects in arrays in objects, null, a key called name",
    text: '{"name": "create_event", "arguments": {"event": {"title": "Sync", "attendees": [{"name": "Ann", "optional": false}, {"name": "Bo"}], "when": {"start": "2025-03-01T10:00", "tz": null}}}}',
    calls: [
      {
        name: "create_event",
        arguments: {
          event: {
            title: "Sync",
            attendees: [{ name: "Ann", optional: false }, { name: "Bo" }],
            when: { start: "2025-03-01T10:00", tz: null },
          },
        },
      },
    ],
  },
  {
    what: "arguments before the name",
    text: '<tool_call>{"arguments": {"name": "Bob", "city": "Rome"}, "name": "greet"}</tool_call>',
    calls: [{ name: "greet", arguments: { name: "Bob", city: "Rome" } }],
  },
  {
    what: "OpenAI tool_calls with arguments as a JSON string holding escapes",
    text: '{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "search", "arguments": "{\\"query\\": \\"say \\\\\\"hi\\\\\\"\\", \\"path\\": \\"C:\\\\\\\\tmp\\", \\"emoji\\": \\"\\\\ud83c\\\\udf1e\\"}"}}]}',
    calls: [{ name: "search", arguments: { query: 'say "hi"', path: "C:\\tmp", emoji: "🌞" } }],
  },
  {
    what: "numbers: 1e3, -0.5, 2.5E-3, 1e+2, -12",
    text: '<tool_call>{"name": "calc", "arguments": {"a": 1e3, "b": -0.5, "c": 2.5E-3, "d": 1e+2, "e": -12}}</tool_call>',
    calls: [{ name: "calc", arguments: { a: 1000, b: -0.5, c: 0.0025, d: 100, e: -12 } }],
  },
  // Llama 3.x
  {
    what: "Llama: <|python_tag|> JSON with parameters, then <|eom_id|>",
    text: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "San Francisco, CA", "days": 1}}<|eom_id|>',
    calls: [weather("San Francisco, CA", { days: 1 })],
  },
  {
    what: "Llama: <|python_tag|> with two JSON calls joined by a semicolon",
    text: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Lima"}}; {"name": "math_factorial", "parameters": {"number": 5}}<|eom_id|>',
    calls: [weather("Lima"), factorial("math_factorial")],
  },
  {
    what: "Llama: a pythonic list with Python literals",
    text: "[get_weather(city='São Paulo', days=3, metric=True, alerts=None), math.factorial(number=5)]",
    calls: [weather("São Paulo", { days: 3, metric: true, alerts: null }), factorial("math.factorial")],
  },
  {
    what: "Llama: pythonic calls after <|python_tag|>, CRLF between them",
    text: '<|python_tag|>get_weather(city="Nice")\r\nmath.factorial(number=5)<|eom_id|>',
    calls: [weather("Nice"), factorial("math.factorial")],
  },
  {
    what: "pythonic: numbers, booleans and None",
    text: "calc(a=1e3, b=-0.5, c=-1e-3, on=True, off=False, none=None)",
    calls: [{ name: "calc", arguments: { a: 1000, b: -0.5, c: -0.001, on: true, off: false, none: null } }],
  },
  {
    what: "pythonic: strings holding parentheses, commas, brackets and escaped quotes",
    text: '[search(query="f(x) = [1, 2]; done", note=\'it\\\'s "fine"\'), get_weather(city="Rome)")]',
    calls: [{ name: "search", arguments: { query: "f(x) = [1, 2]; done", note: 'it\'s "fine"' } }, weather("Rome)")],
  },
  {
    what: "pythonic: nested dicts, lists and tuples, a trailing comma, arguments over several lines",
    text: 'plot(\n    points=[(0, 0), (1, -2.5)],\n    style={"color": "red", "dash": None, "sizes": [1, 2]},\n    labels=["α", "β"],\n)',
    calls: [
      {
        name: "plot",
        arguments: {
          points: [
            [0, 0],
            [1, -2.5],
          ],
          style: { color: "red", dash: null, sizes: [1, 2] },
          labels: ["α", "β"],
        },
      },
    ],
  },
  {
    what: "pythonic: emoji and a full-width space",
    text: "send_message(text=\"👍🏽 ok — 你好\",\u3000to='ü@example.de')",
    calls: [{ name: "send_message", arguments: { text: "👍🏽 ok — 你好", to: "ü@example.de" } }],
  },
  {
    what: "pythonic: positional arguments named after the tool's parameters",
    text: '[get_weather("Paris", 3)]',
    calls: [weather("Paris", { days: 3 })],
  },
  {
    what: "Llama: <function=name> whose arguments have a text key",
    text: '<function=send_message>{"text": "hi", "to": "ann@example.com"}</function>',
    calls: [{ name: "send_message", arguments: { text: "hi", to: "ann@example.com" } }],
  },
  {
    what: "Llama: <function=name> cut off before its arguments",
    text: "<function=get_weather>",
    calls: [],
    cutOff: ['the call "get_weather"'],
  },
  // Mistral
  {
    what: "Mistral: [TOOL_CALLS] with an array and call ids, then </s>",
    text: '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}, "id": "a1B2c3D4e"}, {"name": "math_factorial", "arguments": {"number": 5}, "id": "f5G6h7I8j"}]</s>',
    calls: [weather("Paris", { days: 3 }), factorial("math_factorial")],
  },
  {
    what: "Mistral: name[ARGS]{…} twice",
    text: '[TOOL_CALLS]get_weather[ARGS]{"city": "Bern"}[TOOL_CALLS]math.factorial[ARGS]{"number": 5}',
    calls: [weather("Bern"), factorial("math.factorial")],
  },
  // DeepSeek: ｜ is U+FF5C, ▁ is U+2581
  {
    what: "DeepSeek V3/R1: prose, two calls with fenced arguments, then <｜end▁of▁sentence｜>",
    text: 'Let me look both up.\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris", "days": 2}\n```<｜tool▁call▁end｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>math.factorial\n```json\n{"number": 5}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>',
    calls: [weather("Paris", { days: 2 }), factorial("math.factorial")],
  },
  {
    what: "DeepSeek V3/R1 with CRLF and line ends between the markers",
    text: '<｜tool▁calls▁begin｜>\r\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\r\n```json\r\n{"city": "Zürich"}\r\n```\r\n<｜tool▁call▁end｜>\r\n<｜tool▁calls▁end｜>',
    calls: [weather("Zürich")],
  },
  {
    what: "DeepSeek V3.1: two calls with bare arguments, then <｜end▁of▁sentence｜>",
    text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "東京都"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>math_factorial<｜tool▁sep｜>{"number": 5}<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>',
    calls: [weather("東京都"), factorial("math_factorial")],
  },
  {
    what: "DeepSeek V3.1: arguments whose keys are step fields (name, text) stay arguments",
    text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>send_message<｜tool▁sep｜>{"name": "Ann", "text": "hi", "type": "sms"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    calls: [{ name: "send_message", arguments: { name: "Ann", text: "hi", type: "sms" } }],
  },
  {
    what: "DeepSeek V3.1: a tool named function",
    text: '<｜tool▁call▁begin｜>function<｜tool▁sep｜>{"number": 5}<｜tool▁call▁end｜>',
    calls: [factorial("function")],
  },
  {
    what: "DeepSeek V3.1 with ASCII bars, and with ASCII bars and underscores",
    text: '<|tool▁calls▁begin|><|tool▁call▁begin|>get_weather<|tool▁sep|>{"city": "Oslo"}<|tool▁call▁end|><|tool_call_begin|>math.factorial<|tool_sep|>{"number": 5}<|tool_call_end|><|tool_calls_end|>',
    calls: [weather("Oslo"), factorial("math.factorial")],
  },
  {
    what: "DeepSeek V3.1: a missing closing brace before <｜tool▁call▁end｜>",
    text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    calls: [weather("Paris")],
  },
  {
    what: "DeepSeek V3.1: the second call cut off mid-string, the first stands",
    text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>math_factorial<｜tool▁sep｜>{"number": "fi',
    calls: [weather("Paris")],
    cutOff: ["its JSON"],
  },
  {
    what: "DeepSeek V3.1: cut off right after the separator",
    text: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>",
    calls: [],
    cutOff: ['the call "get_weather"'],
  },
  {
    what: "DeepSeek V3/R1: cut off inside the fenced arguments",
    text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Par',
    calls: [],
    cutOff: ["its JSON"],
  },
  {
    what: "DeepSeek V3/R1: cut off before the fence",
    text: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>math.factorial\n```js",
    calls: [],
    cutOff: ['the call "math.factorial"'],
  },
  {
    what: "DeepSeek V3.1: a JSON call with ~5 as a value",
    text: '<｜tool▁call▁begin｜>calc<｜tool▁sep｜>{"a": ~5}<｜tool▁call▁end｜>',
    calls: [],
    dropped: ['The call "calc" breaks off at an unexpected "~" at offset 41'],
  },
  {
    what: "prose with a DeepSeek separator and no arguments",
    text: "I would use get_weather<｜tool▁sep｜> here, but I lack the city.",
    calls: [],
  },
  {
    what: "prose between DeepSeek markers",
    text: "<｜tool▁calls▁begin｜>Paris is sunny.<｜tool▁calls▁end｜>",
    calls: [],
  },
  // Fences
  {
    what: "a ```json fence with trailing commas and a comment, CRLF",
    text: 'Here is the plan:\r\n```json\r\n[\r\n  {"name": "get_weather", "arguments": {"city": "Paris",},},\r\n  // then\r\n  {"name": "math_factorial", "arguments": {"number": 5}},\r\n]\r\n```\r\n',
    calls: [weather("Paris"), factorial("math_factorial")],
  },
  {
    what: "a ```python fence, blank lines between calls",
    text: 'Calling:\n```python\n\nget_weather(city="Paris")\n\nmath.factorial(number=5)\n\n```',
    calls: [weather("Paris"), factorial("math.factorial")],
  },
  {
    what: "a ```python fence with # comments on their own lines and after a call",
    text: '```python\n# Forecast first\nget_weather(city="Paris")  # three days would be nicer\n# then the number\nmath.factorial(number=5)\n```\nThat is all.',
    calls: [weather("Paris"), factorial("math.factorial")],
  },
  {
    what: "a ```tool_code fence with a call",
    text: '```tool_code\nget_weather(city="Kyiv")\n```',
    calls: [weather("Kyiv")],
  },
  // Prose and calls
  {
    what: "prose, then a JSON call on its own line",
    text: 'I will check the weather in Paris for you.\n\n{"name": "get_weather", "arguments": {"city": "Paris"}}',
    calls: [weather("Paris")],
  },
  {
    what: "a call, then prose that mentions another function",
    text: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\nOnce I have it I may also call math.factorial(number=5) for you.',
    calls: [weather("Paris")],
  },
  {
    what: "a pythonic call, then a line of prose mentioning another call",
    text: 'get_weather(city="Paris")\nmath.factorial(number=5) could help too, if you want.',
    calls: [weather("Paris")],
  },
  {
    what: "a tool name on its own line then its arguments, CRLF",
    text: 'get_weather\r\n{"city": "Paris", "days": 2}\r\n',
    calls: [weather("Paris", { days: 2 })],
  },
  // Glued
  {
    what: "two JSON calls glued together",
    text: '{"name":"get_weather","arguments":{"city":"Paris"}}{"name":"math_factorial","arguments":{"number":5}}',
    calls: [weather("Paris"), factorial("math_factorial")],
  },
  {
    what: "two <tool_call> blocks glued together",
    text: '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call><tool_call>{"name": "math_factorial", "arguments": {"number": 5}}</tool_call>',
    calls: [weather("Paris"), factorial("math_factorial")],
  },
  {
    what: "two JSON arrays glued together",
    text: '[{"name": "get_weather", "arguments": {"city": "Paris"}}][{"name": "math_factorial", "arguments": {"number": 5}}]',
    calls: [weather("Paris"), factorial("math_factorial")],
  },
  {
    what: "two pythonic calls joined by a bare semicolon",
    text: 'get_weather(city="Paris");math.factorial(number=5)',
    calls: [weather("Paris"), factorial("math.factorial")],
  },
  // Cut off
  {
    what: "a <tool_call> cut off mid-string",
    text: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par',
    calls: [],
    cutOff: ["its JSON"],
  },
  {
    what: "the second <tool_call> cut off mid-key, the first stands",
    text: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "math_factorial", "arguments": {"num',
    calls: [weather("Paris")],
    cutOff: ["its JSON"],
  },
  {
    what: "a Mistral array cut off in its second call",
    text: '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "math_factorial", "arguments": {"number": 5',
    calls: [weather("Paris")],
    cutOff: ["its JSON"],
  },
  {
    what: "a pythonic list cut off mid-argument",
    text: '[get_weather(city="Paris"), math.factorial(number=',
    calls: [weather("Paris")],
    cutOff: ['the call "math.factorial(…"'],
  },
  {
    what: "a pythonic call cut off inside a string",
    text: 'get_weather(city="Par',
    calls: [],
    cutOff: ['the call "get_weather(…"'],
  },
  {
    what: "a call whose closing brace is missing before </tool_call>",
    text: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}\n</tool_call>',
    calls: [weather("Paris")],
  },
  {
    what: "a call whose closing brace is missing before the closing fence",
    text: '```json\n{"name": "get_weather", "arguments": {"city": "Paris"}\n```',
    calls: [weather("Paris")],
  },
  // Values the reader cannot read: never a call with an argument left out
  {
    what: "a JSON call with numbers written +5, .5 and -.5",
    text: '<tool_call>{"name": "calc", "arguments": {"a": +5, "b": .5, "c": -.5}}</tool_call>',
    calls: [{ name: "calc", arguments: { a: 5, b: 0.5, c: -0.5 } }],
  },
  {
    what: "a pythonic call with numbers written .7, +5 and -.5",
    text: "calc(temperature=.7, offset=+5, delta=-.5)",
    calls: [{ name: "calc", arguments: { temperature: 0.7, offset: 5, delta: -0.5 } }],
  },
  {
    what: "a JSON call with ~5 as a value",
    text: '<tool_call>{"name": "calc", "arguments": {"a": ~5, "b": 1}}</tool_call>',
    calls: [],
    dropped: ['The call "calc" breaks off at an unexpected "~" at offset 47'],
  },
  {
    what: "a JSON call with 5% as a value, after a call that stands",
    text: '[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "calc", "arguments": {"a": 5%}}]',
    calls: [weather("Paris")],
    dropped: ['The call "calc" breaks off at an unexpected "%"'],
  },
  {
    what: "a JSON call with a stray character between members",
    text: '{"name": "send_message", "arguments": {"to": "ann@example.com" @ "text": "hi"}}',
    calls: [],
    dropped: ['The call "send_message" breaks off at an unexpected "@"'],
  },
  {
    what: "a JSON call whose value is missing before </tool_call>",
    text: '<tool_call>{"name": "get_weather", "arguments": {"city": </tool_call>',
    calls: [],
    dropped: ['The call "get_weather" breaks off at an unexpected "<"'],
  },
  {
    what: "a JSON call that breaks off after more than a thousand repaired characters",
    text: `<tool_call>{"name": "send_message", "arguments": {"text": "${"line\n".repeat(1100)}", "to": ~1}}</tool_call>`,
    calls: [],
    dropped: ['The call "send_message" breaks off at an unexpected "~"'],
  },
  // Prose that mentions a function
  {
    what: "a sentence mentioning get_weather(city)",
    text: "If you want, you could call get_weather(city) in a sentence like this.",
    calls: [],
  },
  { what: "a sentence with a keyword call", text: 'You could call get_weather(city="Paris") to find out.', calls: [] },
  {
    what: "a call that goes on as a sentence",
    text: 'get_weather(city="Paris") would tell you the forecast.',
    calls: [],
  },
  { what: "a call in inline code", text: 'Run `get_weather(city="Paris")` yourself, I have no tools.', calls: [] },
  { what: "a call at the end of a sentence", text: 'I cannot run tools. Try get_weather(city="Paris").', calls: [] },
  {
    what: "a bulleted list of calls",
    text: 'Options:\n- get_weather(city="Paris")\n- math.factorial(number=5)',
    calls: [],
  },
  { what: "a numbered list of calls", text: '1. get_weather(city="Paris")\n2. math.factorial(number=5)', calls: [] },
  {
    what: "an assignment in a python fence",
    text: 'Example:\n```python\nresult = get_weather(city="Paris")\nprint(result)\n```',
    calls: [],
  },
  {
    what: "a call inside print() in a python fence",
    text: '```python\nprint(get_weather(city="Paris"))\n```',
    calls: [],
  },
  { what: "a call after a markdown heading", text: '# Weather\nget_weather(city="Paris")', calls: [] },
  { what: "a comment after a call outside a fence", text: 'get_weather(city="Paris")  # then we will see', calls: [] },
  { what: "a question", text: 'Should I run get_weather(city="Paris")?', calls: [] },
  { what: "a comparison, not a keyword", text: 'get_weather(city == "Paris")', calls: [] },
  { what: "an expression as a value", text: 'get_weather(city=lookup(name="Paris"))', calls: [] },
  {
    what: "a JSON value in prose that is no call",
    text: 'The service answers {"temperature": 21, "unit": "C"} for Paris.',
    calls: [],
    values: [{ temperature: 21, unit: "C" }],
  },
  { what: "a plain reply", text: "The capital of France is Paris. 🇫🇷", calls: [] },
  {
    what: "a call quoted as a Python string in a list",
    text: `['get_weather(city="Paris")']`,
    calls: [weather("Paris")],
  },
  {
    what: "calls quoted as JSON strings in a list",
    text: "[\"get_weather(city='Paris')\", \"get_weather(city='Rome', days=2)\"]",
    calls: [weather("Paris"), weather("Rome", { days: 2 })],
  },
  {
    what: "a call quoted alone in single quotes",
    text: `'get_weather(city="Paris", days=3)'`,
    calls: [weather("Paris", { days: 3 })],
  },
  { what: "a call quoted alone in double quotes", text: `"get_weather(city='Oslo')"`, calls: [weather("Oslo")] },
  {
    what: "a list of strings, one of them no call",
    text: '["hello", "get_weather(city=\'Paris\')"]',
    calls: [],
    values: [["hello", "get_weather(city='Paris')"]],
  },
  { what: "a quoted sentence that is no call", text: "'It's raining,' she said.", calls: [] },
  {
    what: "a fenced block of calls, then explanations and fences calling other functions",
    text: 'Here is the call:\n```python\nget_weather(city="Paris")\n```\nThis asks for the forecast.\n### Instruction:\nWrite a test for it.\n```python\nhelper_check(value=1)\n```\nAnd then:\n```\nformat_report(title="x")\n```',
    calls: [weather("Paris")],
  },
];

describe("createToolCallReader, from outside: answers as models write them", () => {
  for (const answer of answers) {
    it(`reads ${answer.what}, the same at every chunking`, () => {
      const whole = readChunks([answer.text]);
      expect(whole.calls).toEqual(answer.calls);
      expect(whole.cutOff.length).toBe(answer.cutOff?.length ?? 0);
      for (const [index, what] of (answer.cutOff ?? []).entries()) expect(whole.cutOff[index]).toContain(what);
      expect(whole.dropped.length).toBe(answer.dropped?.length ?? 0);
      for (const [index, message] of (answer.dropped ?? []).entries()) expect(whole.dropped[index]).toContain(message);
      expect(whole.values).toEqual(answer.values ?? []);
      for (const chunks of chunkings(answer.text)) {
        const split = readChunks(chunks);
        if (JSON.stringify(split) !== JSON.stringify(whole))
          expect({ chunks, split }).toEqual({ chunks, split: whole });
      }
    });
  }

  it("reads every answer above the same at arbitrary chunkings", () => {
    fc.assert(
      fc.property(fc.constantFrom(...answers), fc.array(fc.nat(), { maxLength: 40 }), (answer, cuts) => {
        expect(readChunks(splitAt(answer.text, cuts))).toEqual(readChunks([answer.text]));
      }),
      { numRuns: 300 },
    );
  });

  it("reads the answers above, one after another in one text, as all their calls in order", () => {
    // Only answers whose calls all close (not cut off) and that leave no open state behind.
    const closed = answers.filter(
      (answer) =>
        answer.cutOff === undefined &&
        answer.dropped === undefined &&
        answer.calls.length > 0 &&
        answer.text.includes("<tool_call>"),
    );
    const text = closed.map((answer) => answer.text).join("\n");
    expect(readChunks([text]).calls).toEqual(closed.flatMap((answer) => answer.calls));
  });
});

/** Plans with one scripted answer, streamed in 3-character chunks, without a repair re-ask. */
async function planWith(answer: string) {
  const planner = new LLMPlanner({
    model: createScriptedModel({ responses: [answer], charsPerToken: 3 }),
    repair: false,
  });
  const events = await collectEvents(planner.stream({ query: "Weather in Paris, and 5!", tools: weatherCatalog }));
  return {
    events,
    done: doneOf(events),
    issues: events.flatMap((event) => (event.type === "issue" ? [event.issue.message] : [])),
  };
}

describe("LLMPlanner, from outside: plans from answers as models write them", () => {
  const paris: PlanStep = { id: "s1", type: "tool", name: "get_weather", arguments: { city: "Paris" } };
  const five: PlanStep = { id: "s2", type: "tool", name: "math.factorial", arguments: { number: 5 } };
  const both: PlanStep[] = [paris, five, { id: "reply", type: "reply", text: "{{s1}}\n\n{{s2}}" }];

  it("plans a Qwen answer once, though its thought drafts the same call", async () => {
    const { done } = await planWith(
      '<think>\nI should call {"name": "get_weather", "arguments": {"city": "Paris"}} and then the factorial.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "math_factorial", "arguments": {"number": 5}}\n</tool_call>',
    );
    expect(done.steps).toEqual(both);
  });

  it("plans a pythonic list that follows a thought", async () => {
    const { done } = await planWith(
      '<think>Two tools: get_weather(city) and math.factorial(number).</think>\n[get_weather(city="Paris"), math_factorial(number=5)]',
    );
    expect(done.steps).toEqual(both);
  });

  it("plans a Mistral answer written with CRLF line ends", async () => {
    const { done } = await planWith(
      '[TOOL_CALLS] [\r\n{"name": "get_weather", "arguments": {"city": "Paris"}},\r\n{"name": "math_factorial", "arguments": {"number": 5}}\r\n]</s>',
    );
    expect(done.steps).toEqual(both);
  });

  it("plans calls quoted as strings in a list", async () => {
    const { done } = await planWith(`["get_weather(city='Paris')", 'math.factorial(number=5)']`);
    expect(done.steps).toEqual(both);
  });

  it("plans the first fenced block of calls, not the examples and tests the model writes after it", async () => {
    const { done, issues } = await planWith(
      '```python\nget_weather(city="Paris")\nmath.factorial(number=5)\n```\n\nExplanation: the first call gets the forecast.\n\n### Instruction:\nNow write a unit test.\n```python\nassert_equal(actual=1, expected=1)\nrun_tests(verbose=True)\n```',
    );
    expect(done.steps).toEqual(both);
    // Only the reply the answer lacks is added: no call of the test code is read, so nothing is dropped.
    expect(issues).toEqual([
      'The plan did not end with a reply step; reply "reply" quoting "s1", "s2" was added (/steps/2)',
    ]);
    expect(done.clean).toBe(true);
  });

  it("plans a python fence with comments", async () => {
    const { done } = await planWith(
      '```python\n# the forecast\nget_weather(city="Paris")  # today\nmath.factorial(number=5)\n```',
    );
    expect(done.steps).toEqual(both);
  });

  it("plans a tool name line and its arguments written with CRLF", async () => {
    const { done } = await planWith('get_weather\r\n{"city": "Paris"}\r\n');
    expect(done.steps).toEqual([paris, { id: "reply", type: "reply", text: "{{s1}}" }]);
  });

  it("plans a DeepSeek V3 answer: prose, fenced arguments, an underscored name, the end-of-sentence token", async () => {
    const { done, issues } = await planWith(
      'Checking both.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>math_factorial\n```json\n{"number": 5}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>',
    );
    // The closing reply is added: no call was cut off or dropped.
    expect(issues).toEqual([expect.stringContaining("did not end with a reply step")]);
    expect(done.steps).toEqual(both);
  });

  it("plans a DeepSeek V3.1 answer with ASCII bars", async () => {
    const { done } = await planWith(
      '<|tool▁calls▁begin|><|tool▁call▁begin|>get_weather<|tool▁sep|>{"city": "Paris"}<|tool▁call▁end|><|tool▁call▁begin|>math_factorial<|tool▁sep|>{"number": 5}<|tool▁call▁end|><|tool▁calls▁end|>',
    );
    expect(done.steps).toEqual(both);
  });

  it("runs no DeepSeek call cut off in its arguments or before them, and says so", async () => {
    for (const [cut, what] of [
      ['{"number": ', "its JSON"],
      ["", 'the call "math_factorial"'],
    ]) {
      const { done, issues } = await planWith(
        `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>math_factorial<｜tool▁sep｜>${cut}`,
      );
      expect(done.steps.filter((step) => step.type === "tool")).toEqual([paris]);
      expect(issues).toContain(`Step 2 was cut off before ${what} closed and was dropped (/steps/1)`);
    }
  });

  it("runs no call whose JSON breaks off at a value it cannot read, and says which call and where", async () => {
    const { done, issues } = await planWith(
      '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": ~3}}</tool_call>',
    );
    expect(done.steps.some((step) => step.type === "tool")).toBe(false);
    expect(issues).toEqual([
      'The call "get_weather" breaks off at an unexpected "~" at offset 74 before its JSON closed, so its arguments are incomplete; it was dropped (/steps/0)',
    ]);
  });

  it("keeps a reply that mentions a function a reply", async () => {
    const text = "I have no live data. You could call get_weather(city) with your city, or ask me about 5! instead.";
    const { done } = await planWith(text);
    expect(done.steps).toEqual([{ id: "s1", type: "reply", text }]);
  });
});
