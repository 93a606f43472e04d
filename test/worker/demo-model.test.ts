import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentRuntime, LLMPlanner, type PlanStep, type RuntimeEvent, understandRequest } from "../../src/index.ts";
import { validatePlan } from "../../src/plan.ts";
import { buildPlanPrompt } from "../../src/planner/build-plan-prompt.ts";
import { answerDemoPrompt } from "../../worker/demo/answer-demo-prompt.ts";
import { createDemoModel } from "../../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";
import { createNoteStore } from "../../worker/demo/create-note-store.ts";
import { extractExpression } from "../../worker/demo/extract-expression.ts";
import { findConversion } from "../../worker/demo/find-conversion.ts";
import { findSubjects } from "../../worker/demo/find-subjects.ts";
import { patchDemoPlan } from "../../worker/demo/patch-demo-plan.ts";
import { declineText, planDemoRequest } from "../../worker/demo/plan-demo-request.ts";

/** Every demo tool's name. */
const allTools: ReadonlySet<string> = new Set(
  createDemoTools()
    .list()
    .map((tool) => tool.name),
);

function plan(query: string, tools: ReadonlySet<string> = allTools, maxSteps?: number): PlanStep[] {
  return planDemoRequest(maxSteps === undefined ? { query, tools } : { query, tools, maxSteps });
}

function toolCalls(steps: readonly PlanStep[]): [string, Record<string, unknown>][] {
  return steps.flatMap((step) =>
    step.type === "tool" ? [[step.name, step.arguments] as [string, Record<string, unknown>]] : [],
  );
}

async function runDemo(
  query: string,
  options: { timeoutMs?: number; retries?: number; slowLookupDelayMs?: number } = {},
): Promise<RuntimeEvent[]> {
  const model = createDemoModel({ tokensPerSecond: Infinity });
  const planner = new LLMPlanner({ model, knowledgeBaseTool: "kb_search" });
  const runtime = new AgentRuntime({
    planner,
    registry: createDemoTools({
      slowLookupDelayMs: options.slowLookupDelayMs ?? 5,
      now: () => Date.UTC(2026, 0, 1, 12),
    }),
    model,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    retries: options.retries ?? 0,
    backoff: { initialMs: 1, maxMs: 2 },
  });
  const events: RuntimeEvent[] = [];
  for await (const event of runtime.run(query)) events.push(event);
  return events;
}

function replyOf(events: readonly RuntimeEvent[]): string {
  const reply = events.find((event) => event.type === "reply");
  return reply?.type === "reply" ? reply.text : "";
}

describe("findSubjects and extractExpression", () => {
  it("finds subjects in order, preferring the longer name", () => {
    expect(
      findSubjects("Is the Tokyo Skytree taller than the Eiffel Tower in Paris?").map((mention) => mention.subject),
    ).toEqual(["Tokyo Skytree", "Eiffel Tower", "Paris"]);
    expect(findSubjects("paris vs TOKYO vs nyc").map((mention) => mention.subject)).toEqual([
      "Paris",
      "Tokyo",
      "New York City",
    ]);
    expect(findSubjects("Compare São Paulo and Sao Paulo").map((mention) => mention.subject)).toEqual(["São Paulo"]);
    expect(findSubjects("nothing here")).toEqual([]);
  });

  it("finds arithmetic in words and symbols", () => {
    expect(extractExpression("What is 21*2+5?")).toBe("21*2+5");
    expect(extractExpression("what is 12 times 7 plus 1")).toBe("12 * 7 + 1");
    expect(extractExpression("what's 15% of 80")).toBe("(15 / 100 * 80)");
    expect(extractExpression("square root of 2")).toBe("sqrt(2)");
    expect(extractExpression("1,000 + 2,500")).toBe("1000 + 2500");
    expect(extractExpression("the year 2026")).toBeUndefined();
    expect(extractExpression("how many times bigger is Tokyo")).toBeUndefined();
    expect(extractExpression("2 to the power of 10")).toBe("2 ^ 10");
    expect(extractExpression("what is 7 squared")).toBe("7 ^ 2");
    expect(extractExpression("cube root of 27")).toBe("cbrt(27)");
    expect(extractExpression("2的10次方是多少")).toBe("2 ^ 10");
    expect(extractExpression("144的平方根")).toBe("sqrt(144)");
  });

  it("reads conversions written as questions, in English and Chinese", () => {
    expect(findConversion("How many seconds are in 3.5 days?")).toEqual({ value: 3.5, from: "d", to: "s" });
    expect(findConversion("how many hours in a week")).toEqual({ value: 1, from: "wk", to: "h" });
    expect(findConversion("10公里等于多少英里")).toEqual({ value: 10, from: "km", to: "mi" });
    expect(findConversion("convert 5 kg to celsius")).toBeUndefined();
    expect(findConversion("How many days until Friday?")).toBeUndefined();
  });
});

describe("planDemoRequest", () => {
  it("compares two populations: two independent lookups, a calculator step referencing both, a reply", () => {
    const steps = plan("compare the populations of Tokyo and Paris and compute their ratio");
    expect(steps).toEqual([
      { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "population of Tokyo" } },
      { id: "s2", type: "tool", name: "kb_lookup", arguments: { query: "population of Paris" } },
      { id: "s3", type: "tool", name: "calculator", arguments: { expr: "round({{s1.value}} / {{s2.value}}, 2)" } },
      {
        id: "s4",
        type: "reply",
        text: "{{s1.text}} {{s2.text}} So Tokyo's population is {{s3.text}} times that of Paris. Sources: {{s1.source}}; {{s2.source}}.",
      },
    ]);
  });

  it("follows what the request asks to the tools", () => {
    expect(toolCalls(plan("What is 21*2+5?"))).toEqual([["calculator", { expr: "21*2+5" }]]);
    expect(toolCalls(plan("Convert 10 km to miles"))).toEqual([["convert_units", { value: 10, from: "km", to: "mi" }]]);
    expect(toolCalls(plan("How many seconds are in 3.5 days?"))).toEqual([
      ["convert_units", { value: 3.5, from: "d", to: "s" }],
    ]);
    expect(toolCalls(plan("How tall is the Eiffel Tower in feet?"))).toEqual([
      ["kb_lookup", { query: "height of Eiffel Tower" }],
      ["convert_units", { value: "{{s1.value}}", from: "{{s1.unit}}", to: "ft" }],
    ]);
    expect(toolCalls(plan("What time is it in Tokyo?"))).toEqual([
      ["kb_lookup", { query: "time zone of Tokyo" }],
      ["current_time", { timeZone: "{{s1.value}}" }],
    ]);
    expect(toolCalls(plan("what time is it"))).toEqual([["current_time", {}]]);
    expect(toolCalls(plan("Deep archive lookup: height of Mount Everest minus Mount Fuji"))).toEqual([
      ["slow_lookup", { query: "height of Mount Everest" }],
      ["slow_lookup", { query: "height of Mount Fuji" }],
      ["calculator", { expr: "round(abs({{s1.value}} - {{s2.value}}), 2)" }],
    ]);
    expect(toolCalls(plan("total population of London, Paris and Berlin")).at(-1)).toEqual([
      "calculator",
      { expr: "round({{s1.value}} + {{s2.value}} + {{s3.value}}, 2)" },
    ]);
  });

  it("takes a note's title and text from the request, and saves nothing without a text", () => {
    expect(toolCalls(plan("Save a note titled groceries with the text milk and eggs"))).toEqual([
      ["save_note", { title: "groceries", text: "milk and eggs" }],
    ]);
    expect(toolCalls(plan('Create a note called "Trip" saying: book the train {{s1}}'))).toEqual([
      ["save_note", { title: "Trip", text: "book the train { {s1} }" }],
    ]);
    expect(plan("Save a note")).toEqual([
      { id: "s1", type: "reply", text: expect.stringContaining("I saved nothing") },
    ]);
  });

  it("declines what it does not understand with a reply alone, naming what it can do and how to connect a real model", () => {
    for (const query of [
      "Write a haiku about Mount Fuji",
      "Tell me something about rivers",
      "Book a flight to Tokyo",
      "What will the weather be in Paris tomorrow?",
      "summarize the news",
    ]) {
      const steps = plan(query);
      expect(steps).toEqual([{ id: "s1", type: "reply", text: declineText.en }]);
    }
    expect(plan("明天巴黎天气怎么样？")).toEqual([{ id: "s1", type: "reply", text: declineText.zh }]);
    expect(plan("hello")[0]).toMatchObject({
      type: "reply",
      text: expect.stringMatching(/^Hello! I am plankit's offline demo model/),
    });
  });

  it("looks up an unknown subject or attribute anyway, so the lookup can say the knowledge base has nothing", () => {
    expect(toolCalls(plan("What is the population of Atlantis?"))).toEqual([
      ["kb_lookup", { query: "population of Atlantis" }],
    ]);
    expect(toolCalls(plan("What is the GDP of France?"))).toEqual([["kb_lookup", { query: "GDP of France" }]]);
  });

  it("uses only the tools it is given and keeps to maxSteps, saying what it left out or declining", () => {
    expect(
      plan("compare the populations of Tokyo and Paris", new Set(["kb_lookup", "calculator"])).map((step) => step.type),
    ).toEqual(["tool", "tool", "tool", "reply"]);
    expect(plan("compare the populations of Tokyo and Paris", new Set(["kb_lookup"]))).toEqual([
      { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "population of Tokyo" } },
      { id: "s2", type: "tool", name: "kb_lookup", arguments: { query: "population of Paris" } },
      {
        id: "s3",
        type: "reply",
        text: "{{s1.text}} {{s2.text}} Sources: {{s1.source}}; {{s2.source}}. I left out the calculation: this request does not allow calculator.",
      },
    ]);
    expect(plan("What is 21*2+5?", new Set(["kb_lookup"]))).toEqual([
      {
        id: "s1",
        type: "reply",
        text: "This request needs the tool calculator, which this request does not allow, so I ran no tool.",
      },
    ]);
    expect(plan("What is 21*2+5?", new Set(["calculator"]), 1)).toEqual([
      { id: "s1", type: "reply", text: "This request needs 2 steps, more than the limit of 1, so I ran no tool." },
    ]);
    expect(plan("total population of London, Paris, Berlin, Tokyo and Sydney", allTools, 3)).toEqual([
      { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "population of London" } },
      { id: "s2", type: "tool", name: "kb_lookup", arguments: { query: "population of Paris" } },
      {
        id: "s3",
        type: "reply",
        text: "{{s1.text}} {{s2.text}} Sources: {{s1.source}}; {{s2.source}}. I left out the calculation: the plan may have at most 3 steps. I looked up only 2 of the 5 facts: the plan may have at most 3 steps.",
      },
    ]);
  });

  it("always writes a plan that validates against the demo tools, ending with one reply", () => {
    const tools = createDemoTools();
    const requests = fc.oneof(
      fc.string({ minLength: 1, maxLength: 300 }),
      fc
        .array(
          fc.constantFrom(
            "population",
            "height",
            "Tokyo",
            "Paris",
            "Eiffel Tower",
            "Mount Fuji",
            "ratio",
            "difference",
            "sum",
            "in feet",
            "km to miles",
            "what time is it in",
            "save a note",
            "summarize",
            "haiku",
            "12 * 7",
            "15% of 80",
            "{{s1}}",
            "deep lookup",
            "Atlantis",
            "of",
            "hello",
          ),
          { minLength: 1, maxLength: 8 },
        )
        .map((words) => words.join(" ")),
    );
    fc.assert(
      fc.property(requests, fc.integer({ min: 1, max: 8 }), (query, maxSteps) => {
        const steps = planDemoRequest({ query, tools: allTools, maxSteps });
        expect(steps.length).toBeLessThanOrEqual(maxSteps);
        expect(steps.filter((step) => step.type === "reply")).toHaveLength(1);
        expect(steps.at(-1)?.type).toBe("reply");
        expect(validatePlan(steps, tools, { maxSteps }).issues).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("patchDemoPlan", () => {
  it("replaces a failed slow lookup with the regular lookup and carries the dependent steps over", () => {
    const patch = patchDemoPlan({
      completed: [
        {
          id: "s1",
          type: "tool",
          name: "kb_lookup",
          arguments: { query: "height of Mount Fuji" },
          result: { value: 3776 },
        },
      ],
      failed: [
        {
          id: "s2",
          type: "tool",
          name: "slow_lookup",
          arguments: { query: "height of Mount Everest" },
          error: "timeout: took too long",
        },
      ],
      remaining: [
        { id: "s3", type: "tool", name: "calculator", arguments: { expr: "{{s2.value}} - {{s1.value}}" } },
        { id: "s4", type: "reply", text: "{{s1.text}} {{s2.text}} Difference: {{s3.value}} m." },
      ],
      tools: allTools,
    });
    expect(patch).toEqual([
      { id: "s5", type: "tool", name: "kb_lookup", arguments: { query: "height of Mount Everest" } },
      { id: "s6", type: "tool", name: "calculator", arguments: { expr: "{{s5.value}} - {{s1.value}}" } },
      {
        id: "s7",
        type: "reply",
        text: 'The archive lookup of "height of Mount Everest" failed, so I used the regular knowledge base instead. {{s1.text}} {{s5.text}} Difference: {{s6.value}} m.',
      },
    ]);
  });

  it("reports a subject the knowledge base does not know, quoting what did work", () => {
    const patch = patchDemoPlan({
      completed: [
        { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "population of Paris" }, result: {} },
      ],
      failed: [
        {
          id: "s2",
          type: "tool",
          name: "kb_lookup",
          arguments: { query: "population of Atlantis" },
          error: 'tool-error: No fact about "population of Atlantis"',
        },
      ],
      remaining: [
        { id: "s3", type: "tool", name: "calculator", arguments: { expr: "{{s1.value}} / {{s2.value}}" } },
        { id: "s4", type: "reply", text: "{{s3.value}}" },
      ],
      tools: allTools,
    });
    expect(patch).toEqual([
      {
        id: "s5",
        type: "reply",
        text: '{{s1.text}} The knowledge base has no fact about "population of Atlantis". I skipped calculator, which needed a result I do not have.',
      },
    ]);
  });
});

describe("answerDemoPrompt", () => {
  it("answers a plan call with the plan as a JSON array, one step per line", () => {
    const prompt = buildPlanPrompt({ query: "What is 21*2+5?", tools: createDemoTools().list() });
    const text = answerDemoPrompt({ purpose: "plan", ...prompt });
    expect(text.split("\n")).toHaveLength(4);
    expect(JSON.parse(text)).toEqual(plan("What is 21*2+5?"));
  });

  it("dispatches on the purpose, never on the wording: a planning prompt without a purpose gets no plan", () => {
    const prompt = buildPlanPrompt({ query: "What is 21*2+5?", tools: createDemoTools().list() });
    expect(answerDemoPrompt({ ...prompt })).toMatch(/^The offline demo model cannot write free text/);
    expect(answerDemoPrompt({ purpose: "llm-step", ...prompt })).toMatch(
      /^The offline demo model cannot write free text/,
    );
    expect(answerDemoPrompt({ purpose: "integrate", prompt: "# Results\ns1 (calculator): 47" })).toMatch(
      /OPENAI_BASE_URL/,
    );
    expect(JSON.parse(answerDemoPrompt({ purpose: "reflect", prompt: "anything" }))).toMatchObject({
      action: "new_plan",
    });
    expect(JSON.parse(answerDemoPrompt({ purpose: "repair", ...prompt }))).toEqual(plan("What is 21*2+5?"));
  });

  it("names the skipped steps when integrating, and writes nothing else", () => {
    const table = (lines: string, request = "Save a note titled groceries with the text milk") =>
      `# Request\n${request}\n\n# Results\n${lines}\n\n# Task\nWrite the final answer.`;
    expect(answerDemoPrompt({ purpose: "integrate", prompt: table("s1 (save_note) was skipped") })).toBe(
      "Not done: step s1 (save_note) was skipped, so it did not run.",
    );
    expect(
      answerDemoPrompt({
        purpose: "integrate",
        prompt: table('s1 (kb_lookup): {"value":1}\ns2 (save_note) was skipped\ns3 (calculator) was skipped'),
      }),
    ).toBe("Not done: step s2 (save_note) and step s3 (calculator) were skipped, so they did not run.");
    expect(
      answerDemoPrompt({
        purpose: "integrate",
        prompt: table("s1 (save_note) was skipped", "保存一条笔记，标题是购物，内容是牛奶"),
      }),
    ).toBe("未完成：步骤 s1（save_note）被跳过，没有执行。");
    // Why a step was not done is passed on.
    expect(
      answerDemoPrompt({
        purpose: "integrate",
        prompt: table(
          's1 (save_note) was not done: denied (not today)\ns2 (calculator) was not done: it needed "s1", which was not done',
        ),
      }),
    ).toBe(
      'Not done: step s1 (save_note) did not run — denied (not today); step s2 (calculator) did not run — it needed "s1", which was not done.',
    );
    expect(
      answerDemoPrompt({
        purpose: "integrate",
        prompt: table("s1 (save_note) was not done: denied (不要)", "保存一条笔记"),
      }),
    ).toBe("未完成：步骤 s1（save_note）没有执行（denied (不要)）。");
    // A result whose text merely contains the words is not a skipped step.
    expect(answerDemoPrompt({ purpose: "integrate", prompt: table('s1 (kb_lookup): "s2 (x) was skipped"') })).toMatch(
      /^The offline demo model cannot write free text/u,
    );
    expect(answerDemoPrompt({ purpose: "llm-step", prompt: table("s1 (save_note) was skipped") })).toMatch(
      /^The offline demo model cannot write free text/u,
    );
  });

  it("reads the tools and the step limit from the prompt", () => {
    const prompt = buildPlanPrompt({
      query: "compare the populations of Tokyo and Paris",
      tools: createDemoTools({ only: ["kb_lookup"] }).list(),
      maxSteps: 2,
    });
    expect(JSON.parse(answerDemoPrompt({ purpose: "plan", ...prompt }))).toEqual(
      plan("compare the populations of Tokyo and Paris", new Set(["kb_lookup"]), 2),
    );
  });

  it("thinks aloud in sketch mode and understands goals", async () => {
    const planner = new LLMPlanner({ model: createDemoModel({ tokensPerSecond: Infinity }), mode: "sketch" });
    let done: { steps: PlanStep[]; reasoning?: string } | undefined;
    for await (const event of planner.stream({
      query: "compare the populations of Tokyo and Paris",
      tools: createDemoTools(),
    })) {
      if (event.type === "done") done = event;
    }
    expect(done?.reasoning).toMatch(/^1\. Goal: answer "compare the populations of Tokyo and Paris"\./);
    expect(done?.reasoning).toMatch(/steps 1, 2 need nothing else and can run in parallel/);
    expect(done?.steps.map((step) => step.type)).toEqual(["tool", "tool", "tool", "reply"]);
    const { model } = planner;
    const goal = await understandRequest({ model, query: "compare the populations of Tokyo and Paris" });
    expect(goal.objective).toBe("compare the populations of Tokyo and Paris");
    expect(goal.uncertainty).toBe("low");
    expect((await understandRequest({ model, query: "Write me a poem" })).uncertainty).toBe("high");
  });
});

describe("createDemoModel", () => {
  it("streams at the configured rate, in chunks of four characters, after the first-token delay", async () => {
    const waits: number[] = [];
    const model = createDemoModel({ tokensPerSecond: 50, firstTokenMs: 300, sleep: async (ms) => void waits.push(ms) });
    const chunks: string[] = [];
    let finish: unknown;
    for await (const part of model.stream({
      purpose: "plan",
      ...buildPlanPrompt({ query: "What is 21*2+5?", tools: createDemoTools().list() }),
    })) {
      if (part.type === "text") chunks.push(part.text);
      else finish = part;
    }
    const text = chunks.join("");
    expect(JSON.parse(text)).toEqual(plan("What is 21*2+5?"));
    expect(chunks.slice(0, -1).every((chunk) => chunk.length === 4)).toBe(true);
    expect(waits[0]).toBe(300);
    expect(waits.slice(1).every((ms) => Math.abs(ms - 20) < 1e-9)).toBe(true);
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeCloseTo(300 + (chunks.length - 1) * 20, 6);
    expect(finish).toMatchObject({ type: "finish", reason: "stop" });
  });

  it("answers a decline briefly and at once after the first-token delay, and keeps the pace for a plan", async () => {
    const waited = async (query: string): Promise<{ ms: number; reply: string; calls: number }> => {
      let ms = 0;
      const model = createDemoModel({ sleep: async (wait) => void (ms += wait) });
      const runtime = new AgentRuntime({ planner: new LLMPlanner({ model }), registry: createDemoTools(), model });
      let reply = "";
      for await (const event of runtime.run(query)) if (event.type === "reply") reply = event.text;
      return { ms, reply, calls: model.calls };
    };
    const declined = await waited("Write me a haiku about Tokyo");
    expect(declined.ms).toBeLessThanOrEqual(350);
    expect(declined.reply).toBe(declineText.en);
    expect(declined.reply.split(/(?<=\.) /u).length).toBeLessThanOrEqual(2);
    expect(declined.calls).toBe(1);
    const answered = await waited("How much taller is Everest than Fuji?");
    // About 45 tokens per second: the plan of three steps and a reply takes seconds to stream.
    expect(answered.ms).toBeGreaterThan(2000);
    expect(answered.reply).toMatch(/5,072\.86 m/u);
  });
});

describe("the demo model in the runtime", () => {
  it("answers the Tokyo and Paris comparison, starting lookups while the plan still streams", async () => {
    const events = await runDemo("compare the populations of Tokyo and Paris and compute their ratio");
    expect(replyOf(events)).toBe(
      "Tokyo (the Tokyo Metropolis) has about 14,040,000 inhabitants (2023). Paris has 2,133,111 inhabitants (2021). So Tokyo's population is 6.58 times that of Paris. Sources: Tokyo Metropolitan Government, population estimate 2023; INSEE, legal populations 2021.",
    );
    const firstStart = events.findIndex((event) => event.type === "step-start");
    const planEnd = events.findIndex((event) => event.type === "plan-end");
    expect(firstStart).toBeGreaterThan(-1);
    expect(firstStart).toBeLessThan(planEnd);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  it("holds the side-effecting save_note back until the plan is complete", async () => {
    const events = await runDemo("Save a note titled groceries with the text milk and eggs");
    const planEnd = events.findIndex((event) => event.type === "plan-end");
    const saveStart = events.findIndex((event) => event.type === "step-start" && event.tool === "save_note");
    expect(
      events.find(
        (event) => event.type === "step-planned" && event.step.type === "tool" && event.step.name === "save_note",
      ),
    ).toMatchObject({ safe: false });
    expect(saveStart).toBeGreaterThan(planEnd);
    expect(replyOf(events)).toBe('I saved the note "groceries" (13 characters).');
  });

  it("re-plans around a subject the knowledge base does not know", async () => {
    const events = await runDemo("What is the population of Atlantis?");
    expect(events.map((event) => event.type)).toContain("replan");
    expect(replyOf(events)).toBe('The knowledge base has no fact about "population of Atlantis".');
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  it("re-plans a timed-out slow lookup with the regular lookup", async () => {
    const events = await runDemo("deep lookup of the height of Mount Fuji", {
      timeoutMs: 300,
      slowLookupDelayMs: 1000,
    });
    expect(events.find((event) => event.type === "step-error")).toMatchObject({ error: { code: "timeout" } });
    expect(events.map((event) => event.type)).toContain("replan");
    expect(replyOf(events)).toBe(
      'The archive lookup of "height of Mount Fuji" failed, so I used the regular knowledge base instead. Mount Fuji is 3,776 m high. Sources: Geospatial Information Authority of Japan.',
    );
  });

  it("answers in several tools' words: time and conversion", async () => {
    expect(replyOf(await runDemo("What time is it in Tokyo?"))).toBe(
      "In Tokyo it is Thursday, January 1, 2026 at 21:00 (Asia/Tokyo, UTC+09:00). Source: IANA time zone database.",
    );
    expect(replyOf(await runDemo("How tall is the Eiffel Tower in feet?"))).toBe(
      "The Eiffel Tower is 330 m tall, antennas included. That is 330 m = 1,082.68 ft. Sources: Société d'Exploitation de la Tour Eiffel.",
    );
  });

  it("keeps notes in the store it is given", async () => {
    const notes = createNoteStore();
    const model = createDemoModel({ tokensPerSecond: Infinity });
    const runtime = new AgentRuntime({
      planner: new LLMPlanner({ model }),
      registry: createDemoTools({ notes }),
      model,
    });
    await runtime.run("remember that Mount Fuji is 3,776 m high").done;
    expect(notes.list()).toEqual([
      expect.objectContaining({ title: "Mount Fuji is 3,776 m", text: "Mount Fuji is 3,776 m high" }),
    ]);
  });
});
