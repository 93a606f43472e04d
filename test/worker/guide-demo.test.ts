import { describe, expect, it } from "vitest";
import { buildPlannerPrompt } from "../../src/decide/build-planner-prompt.ts";
import { PhaseManager } from "../../src/decide/phase-manager.ts";
import {
  buildGuidedReplyPrompt,
  createGuidedConversation,
  type StrategyContext,
  validatePlaybook,
} from "../../src/decide.ts";
import { answerDemoPrompt } from "../../worker/demo/answer-demo-prompt.ts";
import { createDemoModel } from "../../worker/demo/create-demo-model.ts";
import { createGuideTools } from "../../worker/demo/create-guide-tools.ts";
import { findDestination } from "../../worker/demo/find-destination.ts";
import { findTravelDates } from "../../worker/demo/find-travel-dates.ts";
import { tripGuidePlaybook } from "../../worker/demo/trip-guide-playbook.ts";
import { tripGuideSkills } from "../../worker/demo/trip-guide-skills.ts";
import { streamGuidedTurn } from "../../worker/stream-guided-turn.ts";

function plannerPrompt(
  message: string,
  available = ["read_destination", "read_dates"],
): { system: string; prompt: string } {
  const skills = new Map(tripGuideSkills.map((skill) => [skill.name, skill]));
  const context: StrategyContext = {
    state: {},
    playbook: tripGuidePlaybook,
    phases: new PhaseManager(tripGuidePlaybook),
    phase: tripGuidePlaybook.phases[0] ?? { id: "collect" },
    skills,
    available: available.map((name) => skills.get(name) ?? { name }),
    missingGoals: ["destination", "dates"],
    complete: false,
    allowRespond: true,
    message,
  };
  return buildPlannerPrompt(context);
}

describe("the trip guide demo", () => {
  it("has a valid playbook whose every skill has a tool of the same name", () => {
    expect(validatePlaybook(tripGuidePlaybook, tripGuideSkills)).toEqual([]);
    const tools = createGuideTools();
    expect(tripGuideSkills.map((skill) => tools.has(skill.name))).toEqual(tripGuideSkills.map(() => true));
    expect(tools.list().every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("finds destinations: places of the knowledge base in any case, else a name after a travel word, never a month", () => {
    expect(findDestination("I'd like to see tokyo in May")).toBe("Tokyo");
    expect(findDestination("what about nyc?")).toBe("New York City");
    expect(findDestination("Flying to Lisbon next week")).toBe("Lisbon");
    expect(findDestination("Let's visit Mexico City")).toBe("Mexico City");
    expect(findDestination("from May 1 to May 8")).toBeUndefined();
    expect(findDestination("in March to Porto")).toBe("Porto");
    expect(findDestination("hello there")).toBeUndefined();
  });

  it("finds travel dates: ISO dates and dates with a month name, first the start, then the end", () => {
    expect(findTravelDates("from 2026-05-01 to 2026-05-08")).toEqual({ from: "2026-05-01", to: "2026-05-08" });
    expect(findTravelDates("May 3 to 10 May")).toEqual({ from: "May 3", to: "May 10" });
    expect(findTravelDates("Sept 4th, 2026 until sep 9")).toEqual({ from: "September 4, 2026", to: "September 9" });
    expect(findTravelDates("the 1st of May")).toEqual({ from: "May 1" });
    expect(findTravelDates("2026-05-01 and back 2026-05-01")).toEqual({ from: "2026-05-01" });
    expect(findTravelDates("may I ask something?")).toBeUndefined();
  });

  it("runs its tools offline: readers record nothing when the message has nothing, facts always say something", async () => {
    const tools = createGuideTools();
    expect(await tools.call("read_destination", { message: "hi", inputs: {} })).toEqual({});
    expect(await tools.call("read_dates", { message: "May 1 to May 8", inputs: {} })).toEqual({
      dates: { from: "May 1", to: "May 8" },
    });
    const tokyo = (await tools.call("look_up_facts", { message: "", inputs: { destination: "Tokyo" } })) as {
      facts: { text: string; source: string }[];
    };
    expect(tokyo.facts.map((fact) => fact.text)).toContain("Tokyo uses the Asia/Tokyo time zone (UTC+9).");
    expect(tokyo.facts.length).toBeLessThanOrEqual(4);
    expect(await tools.call("look_up_facts", { message: "", inputs: { destination: "Atlantis" } })).toEqual({
      facts: [{ text: "The knowledge base has no facts about Atlantis.", source: "plankit demo knowledge base" }],
    });
    const summary = (await tools.call("summarize_trip", {
      message: "",
      inputs: {
        destination: "Tokyo",
        dates: { from: "2026-05-01", to: "2026-05-08" },
        facts: [{ text: "Tokyo uses UTC+9.", source: "IANA" }],
      },
    })) as { summary: string };
    expect(summary.summary).toBe(
      "Trip to Tokyo from 2026-05-01 to 2026-05-08 (7 nights). Good to know: Tokyo uses UTC+9 [IANA].",
    );
    expect(await tools.call("answer_question", { message: "How tall is Mount Fuji?", inputs: {} })).toEqual({
      answer: "Mount Fuji is 3,776 m high. (Source: Geospatial Information Authority of Japan)",
    });
    const missing = await tools.call("look_up_facts", { message: "", inputs: {} }).then(
      () => "resolved",
      (error: unknown) => (error as { code?: string }).code,
    );
    expect(missing).toBe("invalid-argument");
  });

  it("lets the demo model answer the llm_planner prompt by keyword, always with a reason", () => {
    const answer = (message: string, available?: string[]): unknown =>
      JSON.parse(answerDemoPrompt({ purpose: "decide", ...plannerPrompt(message, available) }));
    expect(answer("I'd like to go to Tokyo from May 1 to May 8")).toEqual({
      action: "call_skill",
      skill: "read_destination",
      reason: "the message names a destination (Tokyo)",
    });
    expect(answer("2026-05-01 to 2026-05-08")).toEqual({
      action: "call_skill",
      skill: "read_dates",
      reason: "the message gives travel dates (2026-05-01 to 2026-05-08)",
    });
    expect(answer("to Tokyo", ["read_dates"])).toEqual({
      action: "respond",
      reason: "the message gives none of the missing goals (destination, dates), so ask the traveller for them",
    });
    expect(answer("let me think about the dates")).toEqual({
      action: "call_skill",
      skill: "read_dates",
      reason: "the message mentions the dates",
    });
    expect(answer("hello!")).toMatchObject({ action: "respond" });
  });

  it("lets the demo model answer the reply prompt: greet, acknowledge, ask for what is missing, close with the summary", () => {
    const base = { phase: tripGuidePlaybook.phases[0] ?? { id: "collect" }, reason: "r", state: {} };
    const reply = (input: Partial<Parameters<typeof buildGuidedReplyPrompt>[0]>): string =>
      answerDemoPrompt({
        purpose: "guided-reply",
        ...buildGuidedReplyPrompt({ action: "respond", missing: [], recorded: [], message: "", ...base, ...input }),
      });
    expect(reply({ message: "Hi!", missing: [{ goal: "destination" }, { goal: "dates" }] })).toBe(
      "Hello! I'm the offline demo trip guide. Where would you like to go, and when?",
    );
    expect(
      reply({
        recorded: [{ path: "destination", value: "Tokyo", skill: "read_destination" }],
        missing: [{ goal: "dates" }],
      }),
    ).toBe("Tokyo — noted. When are you travelling? For example 2026-05-01 to 2026-05-08.");
    expect(reply({ missing: [{ goal: "destination" }] })).toBe("Where would you like to go?");
    expect(reply({ recorded: [{ path: "answer", value: "Fuji is 3,776 m high.", skill: "answer_question" }] })).toBe(
      "Fuji is 3,776 m high.",
    );
    expect(
      reply({ action: "finish", recorded: [{ path: "summary", value: "Trip to Oslo.", skill: "summarize_trip" }] }),
    ).toBe("Here is your trip: Trip to Oslo. That's everything I need — have a good trip!");
    expect(reply({ action: "finish", state: { data: { summarize_trip: { summary: "Trip to Oslo." } } } })).toBe(
      "Your trip is planned: Trip to Oslo. That's everything I need — have a good trip!",
    );
  });

  it("guides a conversation with the demo model from a greeting to the summary", async () => {
    const conversation = createGuidedConversation({
      playbook: tripGuidePlaybook,
      skills: tripGuideSkills,
      registry: createGuideTools(),
      model: createDemoModel({ tokensPerSecond: Infinity }),
    });
    const hello = await conversation.turn("Hi!");
    expect(hello.reply).toBe("Hello! I'm the offline demo trip guide. Where would you like to go, and when?");
    const place = await conversation.turn("I'd like to go to Tokyo");
    expect(place.decisions.map((decision) => `${decision.strategy}:${decision.skill ?? ""}`)).toEqual([
      "llm_planner:read_destination",
      "deterministic:read_dates",
    ]);
    expect(place.reply).toBe("Tokyo — noted. When are you travelling? For example 2026-05-01 to 2026-05-08.");
    const dates = await conversation.turn("from 2026-05-01 to 2026-05-08");
    expect(dates.decisions.map((decision) => decision.action)).toEqual([
      "call_skill",
      "replan",
      "call_skill",
      "replan",
      "call_skill",
      "finish",
    ]);
    expect(dates.finished).toBe(true);
    expect(dates.reply).toMatch(
      /^Dates: 2026-05-01 to 2026-05-08\. Here is your trip: Trip to Tokyo from 2026-05-01 to 2026-05-08 \(7 nights\)\. Good to know: .*Asia\/Tokyo.*have a good trip!$/u,
    );
    expect(conversation.state.current_task_id).toBe("summarize");
  });

  it("streams a turn's events in order, ends a failed turn with turn-end, and throws a failure that came before any event", async () => {
    const conversation = createGuidedConversation({
      playbook: tripGuidePlaybook,
      skills: tripGuideSkills,
      registry: createGuideTools(),
    });
    const types: string[] = [];
    for await (const event of streamGuidedTurn(conversation, "hi", {
      state: { data: { trip: { destination: "Oslo" } } },
    }))
      types.push(event.type);
    expect(types).toEqual(["turn-start", "decision", "skill-start", "skill-end", "reply", "turn-end"]);
    const failed: string[] = [];
    for await (const event of streamGuidedTurn(conversation, "go", { state: { force_skill: "summarize_trip" } }))
      failed.push(event.type);
    expect(failed).toEqual(["turn-start", "turn-end"]);
    const early = async (): Promise<string> => {
      try {
        for await (const _event of streamGuidedTurn(conversation, "go", { state: { current_task_id: "nowhere" } }))
          return "yielded";
        return "ended";
      } catch (error) {
        return (error as { code?: string }).code ?? "unknown";
      }
    };
    expect(await early()).toBe("unknown-phase");
  });
});
