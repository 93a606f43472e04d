import { describe, expect, it } from "vitest";
import type { PlanModel, PlanModelPart } from "../../src/model.ts";
import { createScriptedModel } from "../../src/test.ts";
import { lazyModel } from "../../worker/lazy-model.ts";

async function collect(model: PlanModel): Promise<PlanModelPart[]> {
  const parts: PlanModelPart[] = [];
  for await (const part of model.stream({ prompt: "p" })) parts.push(part);
  return parts;
}

describe("lazyModel", () => {
  it("loads on the first stream, once, and streams with the loaded model", async () => {
    let loads = 0;
    const model = lazyModel(async () => {
      loads++;
      return createScriptedModel({ responses: ["[]", "[1]"] });
    });
    expect(loads).toBe(0);
    const first = await collect(model);
    const second = await collect(model);
    expect(loads).toBe(1);
    expect(
      first
        .filter((part) => part.type === "text")
        .map((part) => part.text)
        .join(""),
    ).toBe("[]");
    expect(
      second
        .filter((part) => part.type === "text")
        .map((part) => part.text)
        .join(""),
    ).toBe("[1]");
    expect(second.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
  });

  it("a failed load fails that stream and is tried again on the next", async () => {
    let loads = 0;
    const model = lazyModel(async () => {
      loads++;
      if (loads === 1) throw new Error("no provider module");
      return createScriptedModel({ responses: ["[]"] });
    });
    await expect(collect(model)).rejects.toThrow("no provider module");
    expect((await collect(model)).at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    expect(loads).toBe(2);
  });
});
