import { describe, expect, it } from "vitest";
import { AgentRuntime, LLMPlanner, type RuntimeEvent } from "../../src/index.ts";
import { createDemoModel } from "../../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";
import { declineText } from "../../worker/demo/plan-demo-request.ts";

/**
 * What a request must get:
 * - `figures`: every figure, within a tolerance, in a reply that ran exactly these tools (as a set) without error;
 * - `decline`: no tool planned or run, and no figure in the reply;
 * - `partial`: the figures of the parts it could do, and the missing part named.
 */
type Expected =
  | { figures: readonly number[]; tools: readonly string[]; says?: RegExp; never?: RegExp }
  | { decline: true }
  | { partial: { figures: readonly number[]; says?: RegExp; names: string } };

/**
 * Requests as someone new to the demo might type them: thousands separators,
 * several questions at once, parts the offline model cannot do. Figures come
 * from the demo tools; the clock is fixed at 2026-01-01 12:00 UTC.
 */
const table: readonly [string, Expected][] = [
  // Numbers as people write them.
  ["what is 15% of 2,340", { figures: [351], tools: ["calculator"] }],
  ["Whats 12.5 percent of 1,048,576?", { figures: [131_072], tools: ["calculator"] }],
  ["could you add up 1,200 and 3,450.75 for me", { figures: [4650.75], tools: ["calculator"] }],
  ["How much is 2,000,000 divided by 1,250?", { figures: [1600], tools: ["calculator"] }],
  ["Increase 2,340 by 15%", { figures: [2691], tools: ["calculator"] }],
  ["351 is what percent of 2,340?", { figures: [15], tools: ["calculator"] }],
  ["pls turn 2,500 feet into metres", { figures: [762], tools: ["convert_units"] }],
  ["how many grams are there in 1,250.5 kg?", { figures: [1_250_500], tools: ["convert_units"] }],
  // Calendars.
  [
    "is 2028 a leap year",
    { figures: [], tools: ["calculator"], says: /2028 is a leap year/u, never: /not a leap year/u },
  ],
  ["Was 1900 a leap year or not?", { figures: [], tools: ["calculator"], says: /1900 (?:is|was) not a leap year/u }],
  ["Will 2100 be a leap year?", { figures: [], tools: ["calculator"], says: /2100 (?:is|will be) not a leap year/u }],
  // Rates: pace, speed, time.
  ["I ran 5 km in 27 minutes, what's my pace per mile?", { figures: [8.69], tools: ["convert_units", "calculator"] }],
  ["I walked 8 km in 96 minutes, what pace per km is that?", { figures: [12], tools: ["calculator"] }],
  ["Cycled 42 km in 1 hour 30 minutes - what was my average speed?", { figures: [28], tools: ["calculator"] }],
  [
    "We drove 150 miles in 2.5 hours. What was our average speed in km/h?",
    { figures: [96.56], tools: ["convert_units", "calculator"] },
  ],
  ["How long does it take to drive 300 km at 80 km/h?", { figures: [3.75], tools: ["calculator"] }],
  ["Finished a 21.1 km half in 1:52:30. Pace per km?", { figures: [5.33], tools: ["calculator"] }],
  [
    "I did a half marathon in 1:45:00, pace per mile?",
    { figures: [8.01], tools: ["kb_lookup", "convert_units", "calculator"] },
  ],
  ["ran a marathon in 4 hours, what's my pace per km?", { figures: [5.69], tools: ["kb_lookup", "calculator"] }],
  ["If I run 10k in 52 minutes what is my pace per mile", { figures: [8.37], tools: ["convert_units", "calculator"] }],
  ["It is 300 K outside, what is that in celsius", { figures: [26.85], tools: ["convert_units"] }],
  // Measurements given in the request, combined.
  [
    "My height is 5'11\" and hers is 165 cm, how tall are we together in meters?",
    { figures: [3.4534], tools: ["convert_units", "calculator"] },
  ],
  [
    "I weigh 80 kg and my brother is 176 lbs, what's our combined weight in pounds?",
    { figures: [352.37], tools: ["convert_units", "calculator"] },
  ],
  ["5'11\" and 165 cm - total height in cm?", { figures: [345.34], tools: ["convert_units", "calculator"] }],
  [
    "He is 180cm and she is 5 foot 6, combined height in feet?",
    { figures: [11.4055], tools: ["convert_units", "calculator"] },
  ],
  ["5k in 25 minutes — what's that per mile?", { figures: [8.05], tools: ["convert_units", "calculator"] }],
  [
    "What's the total of 12.5 kg, 3 lb and 500 g in kg?",
    { figures: [14.3608], tools: ["convert_units", "calculator"] },
  ],
  ["what's the difference between 10 km and 5 miles", { figures: [1.9533], tools: ["convert_units", "calculator"] }],
  // Several questions at once, all of which it can do.
  ["convert 3 miles to km and 10 lbs to kg", { figures: [4.828, 4.5359], tools: ["convert_units"] }],
  ["What's 10 km in miles and what is that in feet?", { figures: [6.2137, 32_808.4], tools: ["convert_units"] }],
  ["What is 7.5% of 80,000 and what is 2^16?", { figures: [6000, 65_536], tools: ["calculator"] }],
  [
    "Is 2024 a leap year, and how many days are in 6 weeks?",
    { figures: [42], tools: ["calculator", "convert_units"], says: /2024 is a leap year/u },
  ],
  [
    "How far away is the Moon, and is 2032 a leap year?",
    { figures: [384_400], tools: ["kb_lookup", "calculator"], says: /2032 is a leap year/u },
  ],
  [
    "I need 3.5 cups of flour in millilitres and 350 °F in Celsius",
    { figures: [828.06, 176.67], tools: ["convert_units"] },
  ],
  ["Which is taller, Everest or Fuji, and by how much?", { figures: [5072.86], tools: ["kb_lookup", "calculator"] }],
  [
    "What's the population of New York, and what time is it there?",
    { figures: [8_804_190], tools: ["kb_lookup", "current_time"], says: /07:00/u },
  ],
  ["Out of curiosity, how tall is Everest?", { figures: [8848.86], tools: ["kb_lookup"] }],
  ["Tokyo and Paris populations added together?", { figures: [16_173_111], tools: ["kb_lookup", "calculator"] }],
  ["How tall is the Eiffel Tower and when was it built?", { figures: [330, 1889], tools: ["kb_lookup"] }],
  [
    "What's the boiling point of water in Fahrenheit and the speed of light?",
    { figures: [212, 299_792_458], tools: ["kb_lookup", "convert_units"] },
  ],
  [
    "Were 1996 and 2000 both leap years?",
    {
      figures: [],
      tools: ["calculator"],
      says: /1996 is a leap year.*2000 is a leap year/u,
      never: /not a leap year/u,
    },
  ],
  [
    "10公里等于多少英里，2028年是闰年吗？",
    { figures: [6.2137], tools: ["convert_units", "calculator"], says: /2028 年是闰年/u },
  ],
  [
    "How much taller is Everest than Fuji, and how many seconds are in 2 weeks?",
    { figures: [5072.86, 1_209_600], tools: ["kb_lookup", "calculator", "convert_units"], says: /5,072\.86 m/u },
  ],
  [
    "What time is it in Tokyo and what is the population of Paris?",
    {
      figures: [2_133_111],
      tools: ["kb_lookup", "current_time"],
      says: /In Tokyo it is .*21:00/u,
      never: /In Paris it is/u,
    },
  ],
  [
    "How many minutes are in 2.5 hours and what is 3 squared?",
    { figures: [150, 9], tools: ["convert_units", "calculator"] },
  ],
  [
    "What is the population of Tokyo divided by the population of Paris?",
    { figures: [6.58], tools: ["kb_lookup", "calculator"] },
  ],
  [
    "What is 2 to the power of 10, and save a note titled power with the text 1024",
    { figures: [1024], tools: ["calculator", "save_note"], says: /2\^10 = 1,024\. I saved the note "power"/u },
  ],
  ["Convert 10 km to miles, and what is 15% of 80?", { figures: [6.2137, 12], tools: ["convert_units", "calculator"] }],
  [
    "How tall is Mount Fuji and what time is it in Paris?",
    { figures: [3776], tools: ["kb_lookup", "current_time"], says: /In Paris it is .*13:00/u },
  ],
  [
    "What's 12 times 7 and how many feet are in 100 m?",
    { figures: [84, 328.084], tools: ["calculator", "convert_units"] },
  ],
  // Numbers read whole, and calculations written as a person would.
  ["What is 1.5e3 plus 2?", { figures: [1502], tools: ["calculator"], says: /1,500 \+ 2 = 1,502/u }],
  ["What is 5 minus -3?", { figures: [8], tools: ["calculator"], says: /5 − \(−3\) = 8/u }],
  ["What is 15% of 240?", { figures: [36], tools: ["calculator"], says: /^15% of 240 = 36\.$/u }],
  ["what is 2½ times 4", { figures: [10], tools: ["calculator"] }],
  [
    "2的10次方是多少，保存一条笔记，标题是幂，内容是1024",
    { figures: [1024], tools: ["calculator", "save_note"], says: /已保存笔记“幂”/u },
  ],
  // A part it cannot do: answered in part, and the part named.
  ["What is 1e309 plus 1, and convert 2 km to miles", { partial: { figures: [1.2427], names: "1e309" } }],
  ["What is the population of Tokyo times 2?", { partial: { figures: [14_040_000], names: "times 2" } }],
  [
    "What is the population of Tokyo plus the population of Paris divided by 2?",
    { partial: { figures: [16_173_111], names: '"divided by 2"' } },
  ],
  ["Is the Eiffel Tower taller than 1,000 feet?", { partial: { figures: [330], names: '"1,000 feet"' } }],
  [
    "How tall are the Eiffel Tower and the Statue of Liberty combined, in feet?",
    { figures: [1387.8], tools: ["kb_lookup", "calculator", "convert_units"] },
  ],
  ["What was the population of Tokyo back in 1950?", { partial: { figures: [14_040_000], names: "1950" } }],
  ["What's the population and the GDP of France?", { partial: { figures: [68_373_000], names: "GDP of France" } }],
  ["What's the population of Paris and the GDP of France?", { partial: { figures: [2_133_111], names: "GDP" } }],
  [
    "How tall is the Eiffel Tower, and what is the population of Atlantis?",
    { partial: { figures: [330], names: "Atlantis" } },
  ],
  [
    "What's the population of Mumbai, Shanghai and El Dorado?",
    { partial: { figures: [12_442_373, 24_870_895], names: "El Dorado" } },
  ],
  [
    "How tall is the Eiffel Tower and the Leaning Tower of Pisa, and write a song",
    // The lookup that fails makes a re-plan, whose reply keeps what the first plan said it would not do.
    { partial: { figures: [330], says: /no fact about "height of Leaning Tower of Pisa"/u, names: "write a song" } },
  ],
  ["What are the populations of Sydney and Atlantis?", { partial: { figures: [5_231_150], names: "Atlantis" } }],
  ["What's the height of Mount Fuji and the population of Gotham?", { partial: { figures: [3776], names: "Gotham" } }],
  [
    "Convert 26.2 miles to kilometres and write me a limerick about it",
    { partial: { figures: [42.1648], names: "limerick" } },
  ],
  ["what's 3 kilos in pounds and what's the capital of Peru", { partial: { figures: [6.6139], names: "Peru" } }],
  ["Convert 5 km to miles and 3 parsecs to light years", { partial: { figures: [3.1069], names: "parsecs" } }],
  ["How tall is Everest in feet, and how old is it?", { partial: { figures: [29_031.69], names: "how old" } }],
  ["What's the population of Tokyo and the weather there?", { partial: { figures: [14_040_000], names: "weather" } }],
  [
    "What time is it in Sydney, and will it rain there tomorrow?",
    { partial: { figures: [], says: /23:00/u, names: "rain" } },
  ],
  // Nothing it can do: no tool, no figure.
  [
    "Can you book me a hotel in Tokyo and tell me the time there?",
    { partial: { figures: [], says: /21:00/u, names: "book me a hotel" } },
  ],
  ["The weather in Paris, and what time is it there?", { partial: { figures: [], says: /13:00/u, names: "weather" } }],
  ["Write a haiku about autumn", { decline: true }],
  ["Write me a haiku about Tokyo", { decline: true }],
  ["Who won the World Cup in 2018?", { decline: true }],
  ["Order me a pizza for 7 pm", { decline: true }],
  ["What time will I arrive if I drive 300 km at 80 km/h?", { decline: true }],
  ["how many leap years are there between 2000 and 2100?", { decline: true }],
];

async function run(query: string): Promise<RuntimeEvent[]> {
  const model = createDemoModel({ tokensPerSecond: Infinity });
  const runtime = new AgentRuntime({
    planner: new LLMPlanner({ model, knowledgeBaseTool: "kb_search" }),
    registry: createDemoTools({ now: () => Date.UTC(2026, 0, 1, 12), slowLookupDelayMs: 1 }),
    model,
    retries: 0,
  });
  const events: RuntimeEvent[] = [];
  for await (const event of runtime.run(query)) events.push(event);
  return events;
}

function replyOf(events: readonly RuntimeEvent[]): string {
  const reply = events.filter((event) => event.type === "reply").at(-1);
  return reply?.type === "reply" ? reply.text : "";
}

function toolsRun(events: readonly RuntimeEvent[]): string[] {
  return events.flatMap((event) => (event.type === "step-start" && event.tool !== undefined ? [event.tool] : []));
}

/** The numbers a text writes, thousands separators removed. */
function numbersIn(text: string): number[] {
  return [...text.replace(/(\d),(?=\d{3}\b)/gu, "$1").matchAll(/\d+(?:\.\d+)?/gu)].map((match) => Number(match[0]));
}

/** Checks that a reply states a figure: some number in it within 0.2% (and at least 0.01) of the figure. */
function expectFigure(reply: string, figure: number): void {
  const tolerance = Math.max(0.01, Math.abs(figure) * 0.002);
  const closest = numbersIn(reply).reduce(
    (best, value) => (Math.abs(value - figure) < Math.abs(best - figure) ? value : best),
    Number.POSITIVE_INFINITY,
  );
  expect(Math.abs(closest - figure), `${figure} in "${reply}"`).toBeLessThanOrEqual(tolerance);
}

describe("the offline demo model, asked as a stranger would, through the planner and the runtime", () => {
  it("has at least 30 requests, each different, of each kind", () => {
    expect(table.length).toBeGreaterThanOrEqual(30);
    expect(new Set(table.map(([query]) => query)).size).toBe(table.length);
    expect(table.filter(([, expected]) => "partial" in expected).length).toBeGreaterThanOrEqual(6);
    expect(table.filter(([, expected]) => "decline" in expected).length).toBeGreaterThanOrEqual(3);
  });

  for (const [query, expected] of table) {
    it(query, async () => {
      const events = await run(query);
      const reply = replyOf(events);
      expect(events.at(-1)?.type).toBe("run-end");
      expect(reply).not.toMatch(/\{\{|\}\}/u);
      const tools = toolsRun(events);
      if ("figures" in expected) {
        expect([...new Set(tools)].sort()).toEqual([...expected.tools].sort());
        expect(events.some((event) => event.type === "step-error")).toBe(false);
        expect(reply).not.toMatch(/Not done|no fact|did not understand/u);
        for (const figure of expected.figures) expectFigure(reply, figure);
        if (expected.says !== undefined) expect(reply).toMatch(expected.says);
        if (expected.never !== undefined) expect(reply).not.toMatch(expected.never);
      } else if ("decline" in expected) {
        expect(events.some((event) => event.type === "step-planned" && event.step.type !== "reply")).toBe(false);
        expect(tools).toEqual([]);
        // The decline's own examples aside ("What is 2 to the power of 10?"), the reply states no number.
        expect(reply.replace(/"[^"]*"/gu, "")).not.toMatch(/\d/u);
        expect(reply).toBe(declineText.en);
      } else {
        expect(tools.length).toBeGreaterThan(0);
        for (const figure of expected.partial.figures) expectFigure(reply, figure);
        if (expected.partial.says !== undefined) expect(reply).toMatch(expected.partial.says);
        // The part it could not do is named, as not done or not found.
        expect(reply.toLowerCase()).toContain(expected.partial.names.toLowerCase());
        expect(reply).toMatch(/Not done|no fact/u);
      }
    });
  }
});
