import { describe, expect, it } from "vitest";
import { createGuidedConversation } from "../../src/decide/create-guided-conversation.ts";
import type { DecisionState } from "../../src/decide/decision-state.ts";
import type { DecisionStrategy } from "../../src/decide/decision-strategy.ts";
import type { GuidedTurn } from "../../src/decide/guided-conversation.ts";
import type { GuidedEvent } from "../../src/decide/guided-event.ts";
import { createScriptedModel, type ScriptedModel } from "../../src/model/create-scripted-model.ts";
import type { PlanModelRequest } from "../../src/model/plan-model.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { catchPlankitError } from "../fixtures/catch-plankit-error.ts";
import { guidedPlaybook, guidedSkills, guidedTools } from "./guided-fixture.ts";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The `- item` lines of a section of the reply prompt. */
function sectionItems(prompt: string, heading: string): string[] {
  const start = prompt.indexOf(`\n${heading}:\n`);
  if (start === -1) return [];
  const items: string[] = [];
  for (const line of prompt.slice(start + heading.length + 3).split("\n")) {
    if (!line.startsWith("- ")) break;
    items.push(line.slice(2).split(":")[0] ?? "");
  }
  return items;
}

/**
 * A scripted model: `decide` calls get the next of `choices`; `guided-reply` calls
 * get a line that echoes the kind, what is still needed and what was recorded.
 */
function guidedModel(choices: readonly string[]): ScriptedModel {
  const queue = [...choices];
  return createScriptedModel({
    charsPerToken: 5,
    responses: (request: PlanModelRequest) => {
      if (request.purpose === "decide") {
        const choice = queue.shift();
        if (choice === undefined) throw new Error("the script has no planner answer left");
        return choice;
      }
      if (request.purpose !== "guided-reply") throw new Error(`unexpected purpose ${String(request.purpose)}`);
      const kind = /^Kind: (\w+)$/mu.exec(request.prompt)?.[1] ?? "?";
      const needed = sectionItems(request.prompt, "Still needed").join(", ") || "-";
      const recorded = sectionItems(request.prompt, "Recorded this turn").join(", ") || "-";
      return `${kind} | needed: ${needed} | recorded: ${recorded}`;
    },
  });
}

function summarize(turn: GuidedTurn): string[] {
  return turn.decisions.map((decision) =>
    [decision.phase, decision.strategy, decision.action, decision.skill ?? decision.next_phase ?? ""].join(" "),
  );
}

describe("createGuidedConversation", () => {
  it("drives a multi-phase conversation to finish with a scripted model, the client holding the state", async () => {
    const model = guidedModel([
      '{"action":"respond","reason":"a greeting gives none of the goals"}',
      '{"action":"call_skill","skill":"ask_name","reason":"the user gives a name"}',
      '```json\n{"action":"call_skill","skill":"read_destination","reason":"the user names a city"}\n```',
    ]);
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools(),
      model,
    });
    const turns: GuidedTurn[] = [];
    let state: DecisionState = deepFreeze({});
    const say = async (message: string, patch: Partial<DecisionState> = {}): Promise<GuidedTurn> => {
      const turn = await conversation.turn(message, { state: deepFreeze({ ...state, ...patch }) });
      turns.push(turn);
      state = deepFreeze(turn.state);
      return turn;
    };

    const hello = await say("hi");
    expect(summarize(hello)).toEqual(["collect llm_planner respond "]);
    expect(hello.reply).toBe("respond | needed: profile.name, destination, dates | recorded: -");
    expect(hello.state).toEqual({ current_task_id: "collect" });

    const name = await say("My name is Ada and I want to go to Lisbon");
    expect(summarize(name)).toEqual([
      "collect llm_planner call_skill ask_name",
      "collect llm_planner call_skill read_destination",
      "collect deterministic call_skill read_dates",
    ]);
    expect(name.reply).toBe("respond | needed: dates | recorded: profile.name, destination");
    expect(name.action).toBe("respond");

    const question = await say("How heavy can my bag be?", { _query_mode: true });
    expect(summarize(question)).toEqual([
      "collect query_mode call_skill luggage_faq",
      "collect query_mode call_skill luggage_faq",
    ]);
    expect(question.reply).toBe("respond | needed: dates | recorded: answer");
    expect(question.events.find((event) => event.type === "reply")).toMatchObject({
      reason: '"luggage_faq" already ran this turn and was chosen again, so it waits for the user',
    });

    const dates = await say("From 2026-05-01 to 2026-05-08", { _query_mode: null });
    expect(summarize(dates)).toEqual([
      "collect deterministic call_skill read_dates",
      "collect phase_complete replan options",
      "options deterministic call_skill find_flights",
      "options phase_complete replan confirm",
      "confirm deterministic call_skill confirm_trip",
    ]);
    expect(dates.phase).toBe("confirm");
    expect(dates.reply).toBe("respond | needed: decisions.confirmed | recorded: dates, flight_options");

    const yes = await say("yes, book it");
    expect(summarize(yes)).toEqual(["confirm deterministic call_skill confirm_trip", "confirm phase_complete finish "]);
    expect(yes.finished).toBe(true);
    expect(yes.action).toBe("finish");
    expect(yes.reply).toBe("finish | needed: - | recorded: decisions.confirmed");

    expect(state).toEqual({
      current_task_id: "confirm",
      _query_mode: null,
      profile: { name: "Ada" },
      decisions: { confirmed: true },
      data: {
        read_destination: { destination: "Lisbon" },
        luggage_faq: { answer: "One checked bag of up to 23 kg is included." },
        read_dates: { dates: ["2026-05-01", "2026-05-08"] },
        find_flights: { flight_options: [{ id: "TP123", to: "Lisbon", on: "2026-05-01" }] },
      },
    });
    expect(
      model.requests
        .filter((request) => request.system?.includes("You choose the next action"))
        .map((request) => /User message: (.*)/u.exec(request.prompt)?.[1]),
    ).toEqual(["hi", "My name is Ada and I want to go to Lisbon", "My name is Ada and I want to go to Lisbon"]);
    expect(turns.map((turn) => turn.events.at(-1))).toEqual(
      turns.map((turn) =>
        expect.objectContaining({
          type: "turn-end",
          reply: turn.reply,
          state: turn.state,
          finished: turn.finished,
          phase: turn.phase,
        }),
      ),
    );
    expect(turns.map((turn) => (turn.events.at(-1) as { usage: unknown }).usage)).toEqual([
      { decisions: 1, modelCalls: 2, toolCalls: 0 },
      { decisions: 3, modelCalls: 3, toolCalls: 3 },
      { decisions: 2, modelCalls: 1, toolCalls: 1 },
      { decisions: 5, modelCalls: 1, toolCalls: 3 },
      { decisions: 2, modelCalls: 1, toolCalls: 1 },
    ]);
    expect(conversation.state).toEqual({});
  });

  it("emits plain-JSON events in order, with the decision traces, skill calls and phase changes", async () => {
    let clock = 0;
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools(),
      now: () => (clock += 2),
      idGenerator: () => "turn-1",
      state: { profile: { name: "Ada" }, data: { trip: { destination: "Porto" } } },
    });
    const seen: GuidedEvent[] = [];
    const turn = await conversation.turn("on 2026-06-01", { onEvent: (event) => seen.push(event) });
    expect(seen).toEqual(turn.events);
    expect(JSON.parse(JSON.stringify(turn.events))).toEqual(turn.events);
    expect(turn.events.map((event) => event.type)).toEqual([
      "turn-start",
      "decision",
      "skill-start",
      "skill-end",
      "decision",
      "phase-change",
      "decision",
      "skill-start",
      "skill-end",
      "decision",
      "phase-change",
      "decision",
      "skill-start",
      "skill-end",
      "reply",
      "turn-end",
    ]);
    expect(turn.events.every((event) => event.turnId === "turn-1")).toBe(true);
    const times = turn.events.map((event) => event.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(turn.events[0]).toEqual({
      type: "turn-start",
      turnId: "turn-1",
      t: 2,
      message: "on 2026-06-01",
      phase: "collect",
    });
    expect(turn.events[1]).toMatchObject({
      type: "decision",
      trace: {
        type: "decision-made",
        phase: "collect",
        strategy: "deterministic",
        skill: "read_dates",
        missing_goals: ["dates"],
      },
    });
    expect(turn.events[2]).toMatchObject({
      type: "skill-start",
      skill: "read_dates",
      input: { message: "on 2026-06-01", inputs: {} },
    });
    expect(turn.events[3]).toMatchObject({
      type: "skill-end",
      skill: "read_dates",
      result: { dates: ["2026-06-01"] },
      written: ["dates"],
      changed: ["dates"],
    });
    expect(turn.events[5]).toMatchObject({ type: "phase-change", from: "collect", to: "options" });
    expect(turn.events[7]).toMatchObject({
      type: "skill-start",
      skill: "find_flights",
      input: { inputs: { destination: "Porto", dates: ["2026-06-01"] } },
    });
    expect(turn.events[13]).toMatchObject({ type: "skill-end", skill: "confirm_trip", written: [], changed: [] });
    expect(turn.events[14]).toMatchObject({
      type: "reply",
      action: "respond",
      source: "template",
      reason: '"confirm_trip" recorded nothing new, so the turn asks the user',
    });
    expect(turn.reply).toBe(
      'Noted — dates: ["2026-06-01"]; flight options: [{"id":"TP123","to":"Porto","on":"2026-06-01"}]. Still needed: confirmed.',
    );
    expect(turn.events.at(-1)).toMatchObject({
      type: "turn-end",
      phase: "confirm",
      finished: false,
      usage: { decisions: 5, modelCalls: 0, toolCalls: 3 },
    });
    expect(conversation.state).toBe(turn.state);
    expect(conversation.state.data?.["trip"]).toEqual({ destination: "Porto" });
  });

  it("keeps its own state across turns without changing any state in place", async () => {
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools(),
      state: { profile: { name: "Ada" }, data: { trip: { destination: "Oslo" } } },
    });
    const first = await conversation.turn("hello");
    expect(first.reply).toBe("Still needed: dates.");
    deepFreeze(first.state);
    const snapshot = JSON.stringify(first.state);
    const second = await conversation.turn("on 2026-07-01, yes");
    expect(JSON.stringify(first.state)).toBe(snapshot);
    expect(second.state).not.toBe(first.state);
    expect(summarize(second)).toEqual([
      "collect deterministic call_skill read_dates",
      "collect phase_complete replan options",
      "options deterministic call_skill find_flights",
      "options phase_complete replan confirm",
      "confirm deterministic call_skill confirm_trip",
      "confirm phase_complete finish ",
    ]);
    expect(second.finished).toBe(true);
    expect(second.reply).toMatch(
      /^Noted — dates: \["2026-07-01"\]; flight options: .*; confirmed: true\. That completes this conversation\.$/u,
    );
    const after = await conversation.turn("thanks!");
    expect(after.reply).toBe("All done: every phase of this conversation is complete.");
    expect(after.finished).toBe(true);
  });

  it("answers a tie without a model by responding, never by guessing", async () => {
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools(),
    });
    const turn = await conversation.turn("My name is Ada");
    expect(summarize(turn)).toEqual(["collect no_available_skills respond "]);
    expect(turn.reply).toBe("Still needed: name, destination and dates.");
  });

  it("runs a forced skill once and clears force_skill", async () => {
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools(),
    });
    const turn = await conversation.turn("to Rome", { state: { force_skill: "read_destination" } });
    expect(summarize(turn)[0]).toBe("collect force_skill call_skill read_destination");
    expect(turn.state.force_skill).toBeUndefined();
    expect(turn.state.data?.["read_destination"]).toEqual({ destination: "Rome" });
  });

  it("passes custom tool arguments and uses the model's reply only when it finishes cleanly", async () => {
    const inputs: unknown[] = [];
    const registry = guidedTools({
      ask_name: (args) => {
        inputs.push(args);
        return { "profile.name": "Grace" };
      },
    });
    const model = createScriptedModel({
      responses: [
        '{"action":"call_skill","skill":"ask_name","reason":"names first"}',
        '{"action":"respond","reason":"nothing else in the message"}',
        { text: "cut short", finishReason: "length" },
      ],
    });
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry,
      model,
      skillArguments: (skill, { message }) => ({ message: `${skill.name}: ${message}`, inputs: {} }),
    });
    const turn = await conversation.turn("hello");
    expect(inputs).toEqual([{ message: "ask_name: hello", inputs: {} }]);
    const reply = turn.events.find((event) => event.type === "reply");
    expect(reply).toMatchObject({ source: "template", error: { code: "model-error" } });
    expect(turn.reply).toBe("Noted — name: Grace. Still needed: destination and dates.");
  });

  it("falls back to the template when the model throws while replying", async () => {
    const model = createScriptedModel({
      responses: ['{"action":"respond","reason":"greeting"}', { text: "", error: new Error("rate limited") }],
    });
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools(),
      model,
    });
    const turn = await conversation.turn("hi");
    expect(turn.events.find((event) => event.type === "reply")).toMatchObject({
      source: "template",
      error: { code: "model-error", message: "The guided reply failed: the model stream threw Error: rate limited" },
    });
    expect(turn.reply).toBe("Still needed: name, destination and dates.");
  });

  it("fails a turn whose tool throws: skill-error, turn-end with the error, state unchanged", async () => {
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools({
        read_dates: () => {
          throw new Error("calendar offline");
        },
      }),
      state: { profile: { name: "Ada" }, data: { trip: { destination: "Porto" } } },
    });
    const before = conversation.state;
    const events: GuidedEvent[] = [];
    const error = await catchPlankitError(() => conversation.turn("soon", { onEvent: (event) => events.push(event) }));
    expect(error.code).toBe("tool-error");
    expect(error.message).toBe('Skill "read_dates" failed: calendar offline');
    expect(events.map((event) => event.type)).toEqual([
      "turn-start",
      "decision",
      "skill-start",
      "skill-error",
      "turn-end",
    ]);
    expect(events[3]).toMatchObject({
      skill: "read_dates",
      error: { code: "tool-error", message: "calendar offline" },
    });
    expect(events[4]).toMatchObject({
      type: "turn-end",
      finished: false,
      state: before,
      error: { code: "tool-error" },
    });
    expect(conversation.state).toBe(before);
  });

  it("fails on a result the skill cannot write and on arguments the tool's schema refuses", async () => {
    const badOutput = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools({ ask_name: () => ({ name: "Ada" }) }),
      state: { data: { trip: { destination: "Porto", dates: ["2026-01-01"] } } },
    });
    const output = await catchPlankitError(() => badOutput.turn("I am Ada"));
    expect(output.code).toBe("invalid-output");
    expect(output.message).toContain('returned the key "name"');

    const badArguments = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools(),
      skillArguments: () => ({ text: "hi" }),
      state: { data: { trip: { destination: "Porto", dates: ["2026-01-01"] } } },
    });
    const argumentsError = await catchPlankitError(() => badArguments.turn("hi"));
    expect(argumentsError.code).toBe("invalid-argument");
    expect(argumentsError.message).toContain('Tool "ask_name"');
  });

  it("refuses an invalid playbook, a skill without a tool, a bad limit and a bad state", async () => {
    const playbook = guidedPlaybook();
    const invalid = await catchPlankitError(() =>
      createGuidedConversation({
        playbook: { ...playbook, phases: [{ id: "x", allowed_skills: ["nope"] }] },
        skills: guidedSkills,
        registry: guidedTools(),
      }),
    );
    expect(invalid.code).toBe("invalid-playbook");
    expect(invalid.message).toContain('"nope"');

    const registry = guidedTools();
    const partial = new ToolRegistry().register(
      registry
        .list()
        .filter((tool) => tool.name !== "luggage_faq")
        .map((tool) => ({ ...tool, execute: () => ({}) })),
    );
    const missingTool = await catchPlankitError(() =>
      createGuidedConversation({ playbook, skills: guidedSkills, registry: partial }),
    );
    expect(missingTool.code).toBe("unknown-tool");
    expect(missingTool.message).toContain('Skill "luggage_faq"');

    const limit = await catchPlankitError(() =>
      createGuidedConversation({ playbook, skills: guidedSkills, registry, maxDecisions: 0 }),
    );
    expect(limit.code).toBe("invalid-options");

    const conversation = createGuidedConversation({ playbook, skills: guidedSkills, registry });
    const state = await catchPlankitError(() =>
      conversation.turn("hi", { state: { profile: "Ada" } as unknown as DecisionState }),
    );
    expect(state.code).toBe("invalid-options");
    expect(state.message).toContain("profile");
    const phase = await catchPlankitError(() => conversation.turn("hi", { state: { current_task_id: "pay" } }));
    expect(phase.code).toBe("unknown-phase");
  });

  it("stops a chain that never replies at maxDecisions", async () => {
    const loop: DecisionStrategy = {
      name: "loop",
      run: ({ phase }) => ({ hit: true, action: "replan", next_phase: phase.id, reason: "stay" }),
    };
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools(),
      strategies: [loop],
      maxDecisions: 3,
    });
    const events: GuidedEvent[] = [];
    const error = await catchPlankitError(() => conversation.turn("hi", { onEvent: (event) => events.push(event) }));
    expect(error.code).toBe("budget-exceeded");
    expect(error.message).toContain("3 decisions");
    expect(events.filter((event) => event.type === "decision")).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", error: { code: "budget-exceeded" } });
  });

  it("throws aborted for an aborted signal, and refuses a second turn on its own state while one runs", async () => {
    const conversation = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools(),
    });
    const controller = new AbortController();
    controller.abort();
    expect((await catchPlankitError(() => conversation.turn("hi", { signal: controller.signal }))).code).toBe(
      "aborted",
    );

    let release: (() => void) | undefined;
    const slow = createGuidedConversation({
      playbook: guidedPlaybook(),
      skills: guidedSkills,
      registry: guidedTools({
        ask_name: () => new Promise((resolve) => (release = () => resolve({ "profile.name": "Ada" }))),
      }),
      state: { data: { trip: { destination: "Porto", dates: ["2026-01-01"] } } },
    });
    const running = slow.turn("My name is Ada");
    const busy = await catchPlankitError(() => slow.turn("again"));
    expect(busy.code).toBe("invalid-options");
    expect(busy.message).toContain("already running");
    const independent = await slow.turn("to Oslo", {
      state: { profile: { name: "Bo" }, data: { trip: { dates: ["2026-01-01"] } } },
    });
    expect(independent.state.data?.["read_destination"]).toEqual({ destination: "Oslo" });
    for (let wait = 0; wait < 100 && release === undefined; wait++)
      await new Promise((resolve) => setTimeout(resolve, 0));
    release?.();
    expect((await running).state.profile).toEqual({ name: "Ada" });
    expect(slow.state.profile).toEqual({ name: "Ada" });
  });
});
