import { describe, expect, it } from "vitest";
import { integrateAnswer } from "../../../src/runtime/run/integrate-answer.ts";
import { createScriptedModel } from "../../../src/test.ts";

describe("integrateAnswer", () => {
  it("writes the answer after a leading <think> block, trimmed, piece by piece", async () => {
    const model = createScriptedModel({
      responses: ["<think>sum it up</think>\n\nTokyo is larger.  "],
      charsPerToken: 4,
    });
    const written: string[] = [];
    const text = await integrateAnswer(
      model,
      { purpose: "integrate", prompt: "p" },
      (delta) => written.push(delta),
      () => false,
      () => "template",
    );
    expect(text).toBe("Tokyo is larger.");
    expect(written.join("")).toBe("Tokyo is larger.");
    expect(written.length).toBeGreaterThan(1);
  });

  it("gives undefined when the model fails before writing, and appends the fallback when it fails after", async () => {
    const silent = createScriptedModel({ responses: [{ text: "", error: new Error("down") }] });
    expect(
      await integrateAnswer(
        silent,
        { purpose: "integrate", prompt: "p" },
        () => undefined,
        () => false,
        () => "template",
      ),
    ).toBeUndefined();
    const partial = createScriptedModel({ responses: [{ text: "Tokyo is", error: new Error("cut") }] });
    const written: string[] = [];
    expect(
      await integrateAnswer(
        partial,
        { purpose: "integrate", prompt: "p" },
        (delta) => written.push(delta),
        () => false,
        () => "template",
      ),
    ).toBe("Tokyo is\n\ntemplate");
    expect(written.join("")).toBe("Tokyo is\n\ntemplate");
  });
});
