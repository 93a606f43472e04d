import { describe, expect, it } from "vitest";
import { buildGuidedReplyPrompt } from "../../src/decide/build-guided-reply-prompt.ts";
import type { GuidedReplyInput } from "../../src/decide/guided-reply-input.ts";

const input: GuidedReplyInput = {
  action: "respond",
  phase: { id: "collect", description: "Where and when" },
  missing: [{ goal: "dates", hint: "Read the travel dates" }, { goal: "profile.name" }],
  recorded: [{ path: "destination", value: "Tokyo", skill: "read_destination" }],
  reason: '"read_dates" recorded nothing new',
  message: "I want to go to Tokyo",
  state: { data: { read_destination: { destination: "Tokyo" } }, current_task_id: "collect" },
};

describe("buildGuidedReplyPrompt", () => {
  it("lists the kind, phase, what is needed with hints, what was recorded, the reason, the message and the state", () => {
    const { system, prompt } = buildGuidedReplyPrompt(input);
    expect(system).toContain("guided conversation");
    expect(system).toContain("never invent");
    expect(prompt.split("\n")).toEqual([
      "Kind: respond",
      "Phase: collect — Where and when",
      "Still needed:",
      "- dates: Read the travel dates",
      "- profile.name",
      "Recorded this turn:",
      '- destination: "Tokyo"',
      'Reason: "read_dates" recorded nothing new',
      "User message: I want to go to Tokyo",
      'State: {"profile":{},"data":{"read_destination":{"destination":"Tokyo"}},"decisions":{}}',
    ]);
  });

  it("says nothing is needed or recorded, and cuts long values and a long state", () => {
    const long = "x".repeat(9_000);
    const { prompt } = buildGuidedReplyPrompt({
      ...input,
      action: "finish",
      missing: [],
      recorded: [{ path: "summary", value: long, skill: "s" }],
      state: { profile: { note: long } },
    });
    expect(prompt).toContain(
      'Kind: finish\nPhase: collect — Where and when\nStill needed: nothing\nRecorded this turn:\n- summary: "xxx',
    );
    const recordedLine = prompt.split("\n").find((line) => line.startsWith("- summary: ")) ?? "";
    expect(recordedLine.endsWith("… (cut)")).toBe(true);
    expect(recordedLine.length).toBeLessThan(2_100);
    const stateLine = prompt.split("\n").at(-1) ?? "";
    expect(stateLine.endsWith("… (cut)")).toBe(true);
    expect(stateLine.length).toBeLessThan(8_100);
    expect(buildGuidedReplyPrompt({ ...input, recorded: [] }).prompt).toContain("\nRecorded this turn: nothing\n");
  });
});
