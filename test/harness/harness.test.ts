import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test } from "vitest";

// These semantics are shared by vitest and the portable harness, so this
// suite pins the harness to vitest's behaviour in every runtime.

const log: string[] = [];

describe("hooks and order", () => {
  beforeAll(() => {
    log.push("beforeAll");
  });
  afterAll(() => {
    log.push("afterAll");
  });
  beforeEach(() => {
    log.push("outer beforeEach");
  });
  afterEach(() => {
    log.push("outer afterEach");
  });

  it("runs beforeAll once, then beforeEach, before the first test", () => {
    expect(log).toEqual(["beforeAll", "outer beforeEach"]);
    log.push("test 1");
  });

  describe("nested", () => {
    beforeEach(() => {
      log.push("inner beforeEach");
    });
    afterEach(() => {
      log.push("inner afterEach");
    });

    it("runs outer beforeEach before inner beforeEach, and afterEach inner first", () => {
      expect(log).toEqual([
        "beforeAll",
        "outer beforeEach",
        "test 1",
        "outer afterEach",
        "outer beforeEach",
        "inner beforeEach",
      ]);
      log.push("test 2");
    });
  });

  test("runs tests and nested suites in definition order", () => {
    expect(log.slice(6)).toEqual(["test 2", "inner afterEach", "outer afterEach", "outer beforeEach"]);
  });
});

describe("after a suite", () => {
  it("has run that suite's afterEach and afterAll hooks", () => {
    expect(log.slice(-2)).toEqual(["outer afterEach", "afterAll"]);
  });
});

describe("async", () => {
  let ready = false;
  beforeAll(async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    ready = true;
  });

  it("awaits async hooks", () => {
    expect(ready).toBe(true);
  });

  it("awaits async tests", async () => {
    const value = await new Promise<number>((resolve) => setTimeout(() => resolve(42), 5));
    expect(value).toBe(42);
  });

  it("checks rejections and resolutions", async () => {
    await expect(Promise.reject(new TypeError("boom"))).rejects.toThrow(TypeError);
    await expect(Promise.reject(new TypeError("boom"))).rejects.toThrow("boom");
    await expect(Promise.resolve({ a: 1, b: 2 })).resolves.toMatchObject({ a: 1 });
  });

  it("counts assertions", () => {
    expect.assertions(2);
    expect(1).toBe(1);
    expect("a").toBe("a");
  });
});

describe("matchers", () => {
  it("compares deeply and partially", () => {
    expect({ a: [1, { b: 2 }], c: undefined }).toEqual({ a: [1, { b: 2 }] });
    expect({ a: [1, { b: 2 }], c: undefined }).not.toStrictEqual({ a: [1, { b: 2 }] });
    expect({ id: "s1", type: "tool", arguments: { q: "x" } }).toMatchObject({ type: "tool", arguments: {} });
    expect(new Map([["k", 1]])).toEqual(new Map([["k", 1]]));
  });

  it("supports asymmetric matchers", () => {
    expect({ id: "s1", at: 12.5, tags: ["a", "b"] }).toEqual({
      id: expect.any(String),
      at: expect.any(Number),
      tags: expect.arrayContaining(["b"]),
    });
    expect({ message: "Step s3 failed" }).toEqual(expect.objectContaining({ message: expect.stringContaining("s3") }));
  });

  it("checks thrown errors", () => {
    const fail = () => {
      throw new RangeError("out of range: 7");
    };
    expect(fail).toThrow(RangeError);
    expect(fail).toThrow(/range: \d/);
    expect(fail).toThrowError("out of range");
    expect(() => undefined).not.toThrow();
    expect(new RangeError("x")).toBeInstanceOf(Error);
  });

  it("reports a failing assertion as a thrown error with a message", () => {
    let caught: unknown;
    try {
      expect({ a: 1 }).toEqual({ a: 2 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toContain("expected { a: 1 } to deeply equal { a: 2 }");
  });
});
