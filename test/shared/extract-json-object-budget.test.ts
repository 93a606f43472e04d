import { describe, expect, it } from "vitest";
import { extractJsonObject } from "../../src/shared/extract-json-object.ts";

describe("extractJsonObject within its reading budget", () => {
  it("still finds the object after code full of braces that never parse", () => {
    const code = "function f(x) { if (x) { return { y: x }; } else { return {}; } }\n".repeat(200);
    expect(
      extractJsonObject(`Here is the code:\n${code}\nand the answer: {"action":"retry","reason":"flaky"}`, "action"),
    ).toEqual({ action: "retry", reason: "flaky" });
  });

  it("gives up on braces nested deeper than the text can afford, with what it found before", () => {
    const nested = `${"{".repeat(40_000)}${"}".repeat(40_000)}`;
    expect(extractJsonObject(`${nested}{"action":"retry"}`, "action")).toBeUndefined();
    expect(extractJsonObject(`{"note":1} ${nested}{"action":"retry"}`, "action")).toEqual({ note: 1 });
  });
});
