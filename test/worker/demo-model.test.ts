import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentRuntime, buildPlanPrompt, LLMPlanner, validatePlan, type PlanStep, type RuntimeEvent } from "../../src/index.ts";
import { answerDemoPrompt } from "../../worker/demo/answer-demo-prompt.ts";
import { createDemoModel } from "../../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";
import { createNoteStore } from "../../worker/demo/create-note-store.ts";
import { extractExpression } from "../../worker/demo/extract-expression.ts";
import { findSubjects } from "../../worker/demo/find-subjects.ts";
import { patchDemoPlan } from "../../worker/demo/patch-demo-plan.ts";
import { planDemoRequest } from "../../worker/demo/plan-demo-request.ts";

const allTools = new Set(["kb_lookup", "kb_search", "calculator", "convert_units", "current_time", "slow_lookup", "save_note"]);

function plan(query: string, tools: ReadonlySet<string> = allTools, maxSteps?: number): PlanStep[] {
  return planDemoRequest(maxSteps === undefined ? { query, tools } : { query, tools, maxSteps });
}

function toolCalls(steps: readonly PlanStep[]): [string, Record<string, unknown>][] {
  return steps.flatMap((step) => (step.type === "tool" ? [[step.name, step.arguments] as [string, Record<string, unknown>]] : []));
}

async function runDemo(query: string, options: { timeoutMs?: number; retries?: number; slowLookupDelayMs?: number } = {}): Promise<RuntimeEvent[]> {
  const model = createDemoModel({ tokensPerSecond: Infinity });
  const planner = new LLMPlanner({ model, topK: 7, knowledgeBaseTool: "kb_search" });
  const runtime = new AgentRuntime({
    planner,
    registry: createDemoTools({ slowLookupDelayMs: options.slowLookupDelayMs ?? 5, now: () => Date.UTC(2026, 0, 1, 12) }),
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
    expect(findSubjects("Is the Tokyo Skytree taller than the Eiffel Tower in Paris?").map((mention) => mention.subject)).toEqual(["Tokyo Skytree", "Eiffel Tower", "Paris"]);
    expect(findSubjects("paris vs TOKYO vs nyc").map((mention) => mention.subject)).toEqual(["Paris", "Tokyo", "New York City"]);
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
        text: "{{s1.text}} {{s2.text}} So Tokyo's population is {{s3.value}} times that of Paris. Sources: {{s1.source}}; {{s2.source}}.",
      },
    ]);
  });

  it("follows the request's keywords to other tools", () => {
    expect(toolCalls(plan("What is 21*2+5?"))).toEqual([["calculator", { expr: "21*2+5" }]]);
    expect(toolCalls(plan("Convert 10 km to miles"))).toEqual([["convert_units", { value: 10, from: "km", to: "mi" }]]);
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
      ["calculator", { expr: "{{s1.value}} - {{s2.value}}" }],
    ]);
    expect(toolCalls(plan("total population of London, Paris and Berlin")).at(-1)).toEqual(["calculator", { expr: "{{s1.value}} + {{s2.value}} + {{s3.value}}" }]);
    expect(toolCalls(plan("average height of Mount Fuji and Mount Everest")).at(-1)).toEqual(["calculator", { expr: "round(({{s1.value}} + {{s2.value}}) / 2, 2)" }]);
  });

  it("saves a note only when asked, after the steps whose results it quotes", () => {
    const steps = plan("Look up the population of Berlin and save it as a note");
    expect(toolCalls(steps)).toEqual([
      ["kb_lookup", { query: "population of Berlin" }],
      ["save_note", { title: "Look up the population of Berlin", text: "{{s1.text}}" }],
    ]);
    expect(toolCalls(plan("population of Berlin")).map(([name]) => name)).toEqual(["kb_lookup"]);
  });

  it("writes with an llm step over the facts", () => {
    const steps = plan("Write a haiku about Mount Fuji");
    expect(steps[1]).toEqual({ id: "s2", type: "llm", prompt: "Write a haiku for the user about these facts: {{s1.text}}" });
    expect(steps[2]).toEqual({ id: "s3", type: "reply", text: "{{s2}} Sources: {{s1.source}}." });
  });

  it("searches and answers from the search when nothing else matches; greets without tools", () => {
    expect(plan("Tell me something about rivers").map((step) => step.type)).toEqual(["tool", "llm", "reply"]);
    expect(toolCalls(plan("Tell me something about rivers"))).toEqual([["kb_search", { query: "Tell me something about rivers", limit: 3 }]]);
    const greeting = plan("hello");
    expect(greeting).toHaveLength(1);
    expect(greeting[0]).toMatchObject({ type: "reply", text: expect.stringMatching(/^Hello! I am the offline demo model/) });
  });

  it("looks up an unknown subject anyway, so the run can re-plan", () => {
    expect(toolCalls(plan("What is the population of Atlantis?"))).toEqual([["kb_lookup", { query: "population of Atlantis" }]]);
  });

  it("uses only the tools it is given and keeps to maxSteps", () => {
    expect(toolCalls(plan("compare the populations of Tokyo and Paris", new Set(["kb_lookup"])))).toEqual([
      ["kb_lookup", { query: "population of Tokyo" }],
      ["kb_lookup", { query: "population of Paris" }],
    ]);
    expect(toolCalls(plan("What is 21*2+5?", new Set(["kb_lookup"])))).toEqual([]);
    const short = plan("total population of London, Paris, Berlin, Tokyo and Sydney", allTools, 3);
    expect(short).toHaveLength(3);
    expect(short.at(-1)?.type).toBe("reply");
  });

  it("always writes a plan that validates against the demo tools, ending with one reply", () => {
    const tools = createDemoTools();
    const requests = fc.oneof(
      fc.string({ minLength: 1, maxLength: 300 }),
      fc
        .array(
          fc.constantFrom(
            "population", "height", "Tokyo", "Paris", "Eiffel Tower", "Mount Fuji", "ratio", "difference", "sum", "in feet", "km to miles",
            "what time is it in", "save a note", "summarize", "haiku", "12 * 7", "15% of 80", "{{s1}}", "deep lookup", "Atlantis", "of", "hello",
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
      completed: [{ id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "height of Mount Fuji" }, result: { value: 3776 } }],
      failed: [{ id: "s2", type: "tool", name: "slow_lookup", arguments: { query: "height of Mount Everest" }, error: "timeout: took too long" }],
      remaining: [
        { id: "s3", type: "tool", name: "calculator", arguments: { expr: "{{s2.value}} - {{s1.value}}" } },
        { id: "s4", type: "reply", text: "{{s1.text}} {{s2.text}} Difference: {{s3.value}} m." },
      ],
      tools: allTools,
    });
    expect(patch).toEqual([
      { id: "s5", type: "tool", name: "kb_lookup", arguments: { query: "height of Mount Everest" } },
      { id: "s6", type: "tool", name: "calculator", arguments: { expr: "{{s5.value}} - {{s1.value}}" } },
      { id: "s7", type: "reply", text: 'The archive lookup of "height of Mount Everest" failed, so I used the regular knowledge base instead. {{s1.text}} {{s5.text}} Difference: {{s6.value}} m.' },
    ]);
  });

  it("reports a subject the knowledge base does not know, quoting what did work", () => {
    const patch = patchDemoPlan({
      completed: [{ id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "population of Paris" }, result: {} }],
      failed: [{ id: "s2", type: "tool", name: "kb_lookup", arguments: { query: "population of Atlantis" }, error: 'tool-error: No fact about "population of Atlantis"' }],
      remaining: [
        { id: "s3", type: "tool", name: "calculator", arguments: { expr: "{{s1.value}} / {{s2.value}}" } },
        { id: "s4", type: "reply", text: "{{s3.value}}" },
      ],
      tools: allTools,
    });
    expect(patch).toEqual([
      { id: "s5", type: "reply", text: '{{s1.text}} The knowledge base has no fact about "population of Atlantis". I skipped calculator, which needed a result I do not have.' },
    ]);
  });
});

describe("answerDemoPrompt", () => {
  it("answers a planning prompt with the plan as a JSON array, one step per line", () => {
    const prompt = buildPlanPrompt({ query: "What is 21*2+5?", tools: createDemoTools().list() });
    const text = answerDemoPrompt(prompt);
    expect(text.split("\n")).toHaveLength(4);
    expect(JSON.parse(text)).toEqual(plan("What is 21*2+5?"));
  });

  it("reads the tools and the step limit from the prompt", () => {
    const prompt = buildPlanPrompt({ query: "compare the populations of Tokyo and Paris", tools: createDemoTools({ only: ["kb_lookup"] }).list(), maxSteps: 2 });
    expect(JSON.parse(answerDemoPrompt(prompt))).toEqual(plan("compare the populations of Tokyo and Paris", new Set(["kb_lookup"]), 2));
  });

  it("gives reflection verdicts: a faster retry for a timed-out slow lookup, a new plan otherwise", () => {
    const reflection = (step: object, error: string): unknown =>
      JSON.parse(answerDemoPrompt({ prompt: `# Request\nq\n\n# Failed step\n${JSON.stringify(step)}\n\n# Error after 3 attempt(s)\n${error}\n\n# Answer\nOne JSON object:` }));
    expect(reflection({ id: "s1", type: "tool", name: "slow_lookup", arguments: { query: "x" } }, "timeout: Step s1 timed out")).toEqual({
      action: "retry",
      arguments: { delayMs: 200 },
      reason: "The archive lookup timed out; a faster lookup should fit the time limit.",
    });
    expect(reflection({ id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "x" } }, "tool-error: No fact")).toMatchObject({ action: "new_plan" });
  });

  it("integrates results into an answer, and writes llm step texts from facts", () => {
    const integrated = answerDemoPrompt({
      prompt: [
        "# Request\nq",
        '# Results\ns1 (kb_lookup): {"text":"Paris has 2,133,111 inhabitants (2021).","value":2133111}\ns2 (calculator): {"expr":"1+1","value":2}\ns3 (current_time) failed: boom',
        "# Task\nWrite the final answer.",
      ].join("\n\n"),
    });
    expect(integrated).toBe("Paris has 2,133,111 inhabitants (2021). 1+1 = 2. I could not complete step s3 (current_time): boom.");
    expect(answerDemoPrompt({ prompt: "Write a haiku for the user about these facts: Mount Fuji is 3,776 m high." })).toBe("Mount Fuji stands still —\n3,776 m, written down;\nthe number holds true.");
    expect(answerDemoPrompt({ prompt: 'Answer the question "rivers?" using only these facts from the knowledge base, and name the source: []' })).toMatch(/^The knowledge base has no fact that answers "rivers\?"/);
    expect(answerDemoPrompt({ prompt: "Anything else" })).toBe("I am the offline demo model, so I can only restate what I was given: Anything else");
  });

  it("thinks aloud in sketch mode and understands goals", async () => {
    const planner = new LLMPlanner({ model: createDemoModel({ tokensPerSecond: Infinity }), mode: "sketch", topK: 7 });
    let done: { steps: PlanStep[]; reasoning?: string } | undefined;
    for await (const event of planner.stream({ query: "compare the populations of Tokyo and Paris", tools: createDemoTools() })) {
      if (event.type === "done") done = event;
    }
    expect(done?.reasoning).toMatch(/^1\. Goal: answer "compare the populations of Tokyo and Paris"\./);
    expect(done?.reasoning).toMatch(/steps 1, 2 need nothing else and can run in parallel/);
    expect(done?.steps.map((step) => step.type)).toEqual(["tool", "tool", "tool", "reply"]);
    const goal = await planner.understand({ query: "compare the populations of Tokyo and Paris" });
    expect(goal.objective).toBe("compare the populations of Tokyo and Paris");
    expect(goal.uncertainty).toBe("low");
  });
});

describe("createDemoModel", () => {
  it("streams at the configured rate, in chunks of four characters, after the first-token delay", async () => {
    const waits: number[] = [];
    const model = createDemoModel({ tokensPerSecond: 50, firstTokenMs: 300, sleep: async (ms) => void waits.push(ms) });
    const chunks: string[] = [];
    let finish: unknown;
    for await (const part of model.stream(buildPlanPrompt({ query: "What is 21*2+5?", tools: createDemoTools().list() }))) {
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
    const events = await runDemo("Look up the population of Berlin and save it as a note");
    const planEnd = events.findIndex((event) => event.type === "plan-end");
    const saveStart = events.findIndex((event) => event.type === "step-start" && event.tool === "save_note");
    expect(events.find((event) => event.type === "step-planned" && event.step.type === "tool" && event.step.name === "save_note")).toMatchObject({ safe: false });
    expect(saveStart).toBeGreaterThan(planEnd);
    expect(replyOf(events)).toBe('Berlin has 3,755,251 inhabitants (end of 2022). I saved this as the note "Look up the population of Berlin". Sources: Amt für Statistik Berlin-Brandenburg.');
  });

  it("re-plans around a subject the knowledge base does not know", async () => {
    const events = await runDemo("What is the population of Atlantis?");
    expect(events.map((event) => event.type)).toContain("replan");
    expect(events.find((event) => event.type === "reflection")).toMatchObject({ action: "new_plan" });
    expect(replyOf(events)).toBe('The knowledge base has no fact about "population of Atlantis".');
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  it("retries a timed-out slow lookup with the faster arguments the reflection asks for", async () => {
    const events = await runDemo("deep lookup of the height of Mount Fuji", { timeoutMs: 300, slowLookupDelayMs: 1000 });
    expect(events.find((event) => event.type === "step-error")).toMatchObject({ error: { code: "timeout" } });
    expect(events.find((event) => event.type === "step-retry")).toMatchObject({ cause: "reflection", arguments: { delayMs: 200 } });
    expect(replyOf(events)).toBe("Mount Fuji is 3,776 m high. Sources: Geospatial Information Authority of Japan.");
  });

  it("answers in several tools' words: time, conversion, search, writing", async () => {
    expect(replyOf(await runDemo("What time is it in Tokyo?"))).toBe("In Tokyo it is Thursday, January 1, 2026 at 21:00 (Asia/Tokyo, UTC+09:00).");
    expect(replyOf(await runDemo("How tall is the Eiffel Tower in feet?"))).toBe(
      "The Eiffel Tower is 330 m tall, antennas included. That is 330 m = 1,082.68 ft. Sources: Société d'Exploitation de la Tour Eiffel.",
    );
    expect(replyOf(await runDemo("Tell me something about rivers"))).toBe(
      "From the knowledge base: The Nile is about 6,650 km long (source: Encyclopaedia Britannica). Related: The Amazon River is about 6,400 km long.",
    );
    expect(replyOf(await runDemo("Write a haiku about Mount Fuji"))).toBe("Mount Fuji stands still —\n3,776 m, written down;\nthe number holds true. Sources: Geospatial Information Authority of Japan.");
  });

  it("keeps notes in the store it is given", async () => {
    const notes = createNoteStore();
    const model = createDemoModel({ tokensPerSecond: Infinity });
    const runtime = new AgentRuntime({ planner: new LLMPlanner({ model, topK: 7 }), registry: createDemoTools({ notes }), model });
    await runtime.run("remember the height of Mount Fuji").done;
    expect(notes.list()).toEqual([expect.objectContaining({ title: "The height of Mount Fuji", text: "Mount Fuji is 3,776 m high." })]);
  });
});
