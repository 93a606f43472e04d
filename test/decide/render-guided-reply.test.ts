import { describe, expect, it } from "vitest";
import type { GuidedReplyInput } from "../../src/decide/guided-reply-input.ts";
import { renderGuidedReply } from "../../src/decide/render-guided-reply.ts";

const base: GuidedReplyInput = {
  action: "respond",
  phase: { id: "collect" },
  missing: [],
  recorded: [],
  reason: "",
  message: "hi",
  state: {},
};

describe("renderGuidedReply", () => {
  it("names what is still needed as a list", () => {
    expect(renderGuidedReply({ ...base, missing: [{ goal: "dates" }] })).toBe("Still needed: dates.");
    expect(
      renderGuidedReply({
        ...base,
        missing: [{ goal: "profile.full_name" }, { goal: "dates" }, { goal: "decisions.plan_confirmed" }],
      }),
    ).toBe("Still needed: full name, dates and plan confirmed.");
  });

  it("acknowledges what was recorded: texts as they are, fact lists by their texts, other values as JSON", () => {
    const recorded = [
      { path: "destination", value: "Tokyo", skill: "a" },
      { path: "facts", value: [{ text: "Tokyo uses UTC+9.", source: "IANA" }, { text: "It is big." }], skill: "b" },
      { path: "dates", value: { from: "2026-05-01" }, skill: "c" },
    ];
    expect(renderGuidedReply({ ...base, recorded, missing: [{ goal: "budget" }] })).toBe(
      'Noted — destination: Tokyo; facts: Tokyo uses UTC+9. It is big; dates: {"from":"2026-05-01"}. Still needed: budget.',
    );
  });

  it("closes on finish, with or without something recorded, and has a line for nothing at all", () => {
    expect(renderGuidedReply({ ...base, action: "finish" })).toBe(
      "All done: every phase of this conversation is complete.",
    );
    expect(
      renderGuidedReply({
        ...base,
        action: "finish",
        recorded: [{ path: "summary", value: "A week in Tokyo.", skill: "s" }],
      }),
    ).toBe("Noted — summary: A week in Tokyo. That completes this conversation.");
    expect(renderGuidedReply(base)).toBe("There is nothing more I need right now.");
  });
});
