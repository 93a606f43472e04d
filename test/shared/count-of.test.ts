import { describe, expect, it } from "vitest";
import { keptForReply } from "../../src/planner/kept-for-reply.ts";
import { countOf } from "../../src/shared/count-of.ts";

describe("countOf", () => {
  it("writes the noun plural unless the count is 1", () => {
    expect(countOf(1, "step")).toBe("1 step");
    expect(countOf(0, "step")).toBe("0 steps");
    expect(countOf(3, "more step")).toBe("3 more steps");
  });

  it("gives the step-limit messages their count", () => {
    expect(`Step "s7" ${keptForReply(1)}`).toBe(
      'Step "s7" exceeds the limit of 1 step (the last place is kept for the reply)',
    );
  });
});
