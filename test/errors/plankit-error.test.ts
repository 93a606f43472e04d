import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import { JsonStreamError } from "../../src/json/json-stream-error.ts";

describe("PlankitError", () => {
  it("carries its code, message and name", () => {
    const error = new PlankitError("unknown-tool", 'Step "s1" calls unknown tool "nope" (/steps/0/name)');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(PlankitError);
    expect(error.code).toBe("unknown-tool");
    expect(error.message).toBe('Step "s1" calls unknown tool "nope" (/steps/0/name)');
    expect(error.name).toBe("PlankitError");
  });

  it("keeps the cause it was given", () => {
    const cause = new TypeError("socket closed");
    const error = new PlankitError("model-error", "The model stream failed", { cause });
    expect(error.cause).toBe(cause);
  });

  it("has no own cause when none is given", () => {
    expect(Object.hasOwn(new PlankitError("timeout", "Step timed out"), "cause")).toBe(false);
    expect(Object.hasOwn(new PlankitError("timeout", "Step timed out", {}), "cause")).toBe(false);
  });

  it("is thrown and caught like any error", () => {
    const fail = () => {
      throw new PlankitError("empty-plan", "The plan has no steps");
    };
    expect(fail).toThrow(PlankitError);
    expect(fail).toThrow("The plan has no steps");
    expect(fail).toThrow(expect.objectContaining({ code: "empty-plan" }));
  });

  it("rejects promises with its code", async () => {
    await expect(Promise.reject(new PlankitError("aborted", "Run aborted"))).rejects.toMatchObject({
      code: "aborted",
      message: "Run aborted",
    });
  });

  describe("isInstance", () => {
    it("is true for instances", () => {
      expect(PlankitError.isInstance(new PlankitError("cycle", "Steps form a cycle"))).toBe(true);
    });

    it("is true for a plain object carrying the shared marker", () => {
      const foreign = { code: "cycle", message: "from another copy", [Symbol.for("plankit.error")]: true };
      expect(PlankitError.isInstance(foreign)).toBe(true);
    });

    it("is false for a marker that is not exactly true", () => {
      expect(PlankitError.isInstance({ [Symbol.for("plankit.error")]: 1 })).toBe(false);
      expect(PlankitError.isInstance({ [Symbol("plankit.error")]: true })).toBe(false);
    });

    it("is false for plain errors and non-objects", () => {
      for (const value of [new Error("plain"), new TypeError("type"), null, undefined, "PlankitError", 42, {}]) {
        expect(PlankitError.isInstance(value)).toBe(false);
      }
    });
  });

  describe("JsonStreamError.isInstance", () => {
    it("is true for JSON stream errors, also from another copy, and false for other plankit errors", () => {
      const error = new JsonStreamError("json-syntax", "Unexpected character", 3, "a value");
      expect(JsonStreamError.isInstance(error)).toBe(true);
      expect(PlankitError.isInstance(error)).toBe(true);
      expect(
        JsonStreamError.isInstance({
          [Symbol.for("plankit.json-stream-error")]: true,
          [Symbol.for("plankit.error")]: true,
        }),
      ).toBe(true);
      expect(JsonStreamError.isInstance(new PlankitError("json-syntax", "not from the parser"))).toBe(false);
      expect(JsonStreamError.isInstance(new PlankitError("timeout", "slow"))).toBe(false);
      expect(JsonStreamError.isInstance(null)).toBe(false);
    });
  });
});
