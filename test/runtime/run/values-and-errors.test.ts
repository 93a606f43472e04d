import { describe, expect, it } from "vitest";
import { PlankitError } from "../../../src/errors/plankit-error.ts";
import { toErrorInfo } from "../../../src/events/to-error-info.ts";
import { snapshotValue } from "../../../src/runtime/run/snapshot-value.ts";

/** An object `depth` levels deep. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = { v: value };
  return value;
}

describe("snapshotValue", () => {
  it("copies plain data, reads getters once, applies toJSON, keeps __proto__ a plain key, and freezes when asked", () => {
    let reads = 0;
    const source = JSON.parse('{"__proto__":{"x":1},"list":[1,{"a":2}]}') as Record<string, unknown>;
    Object.defineProperty(source, "lazy", { enumerable: true, get: () => ++reads });
    source["when"] = new Date(0);
    const copy = snapshotValue(source, { freeze: true, what: "v" }) as Record<string, unknown>;
    expect(copy).toEqual({ ["__proto__"]: { x: 1 }, list: [1, { a: 2 }], lazy: 1, when: "1970-01-01T00:00:00.000Z" });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(reads).toBe(1);
    expect(Object.isFrozen(copy) && Object.isFrozen(copy["list"])).toBe(true);
    const loose = snapshotValue({ a: [1] }, { freeze: false, what: "v" }) as { a: number[] };
    loose.a.push(2);
    expect(loose.a).toEqual([1, 2]);
  });

  it("shares no object with its source", () => {
    const inner = { n: 1 };
    const copy = snapshotValue({ inner, again: inner }, { freeze: false, what: "v" }) as {
      inner: { n: number };
      again: { n: number };
    };
    inner.n = 2;
    expect(copy).toEqual({ inner: { n: 1 }, again: { n: 1 } });
  });

  it("refuses functions, BigInts, symbols, cycles and throwing getters, naming the path", () => {
    const cycle: Record<string, unknown> = {};
    cycle["me"] = [cycle];
    const cases: [unknown, string][] = [
      [{ f: () => 1 }, "a function at /f"],
      [{ deep: [{ n: 1n }] }, "a BigInt at /deep/0/n"],
      [{ s: Symbol("x") }, "a symbol at /s"],
      [cycle, "a cycle at /me/0"],
      [
        Object.defineProperty({}, "bad", {
          enumerable: true,
          get: () => {
            throw new Error("no");
          },
        }),
        "a property that throws when read at /bad",
      ],
      [
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error("trap");
            },
          },
        ),
        "reading it threw",
      ],
      [nested(50_000), "it nests deeper than the stack allows"],
    ];
    for (const [value, message] of cases) {
      let caught: unknown;
      try {
        snapshotValue(value, { freeze: true, what: 'The result of step "s1"' });
      } catch (error) {
        caught = error;
      }
      expect(PlankitError.isInstance(caught)).toBe(true);
      expect(caught).toMatchObject({
        code: "invalid-result",
        message: `The result of step "s1" cannot be copied: ${message}`,
      });
    }
  });
});

describe("toErrorInfo", () => {
  it("reads plankit errors, errors and anything else without throwing", () => {
    expect(toErrorInfo(new PlankitError("timeout", "slow"), "tool-error")).toEqual({
      code: "timeout",
      message: "slow",
    });
    expect(toErrorInfo(new Error("boom"), "tool-error")).toEqual({ code: "tool-error", message: "boom" });
    expect(toErrorInfo(new RangeError(), "tool-error")).toEqual({ code: "tool-error", message: "RangeError" });
    expect(toErrorInfo("plain text", "x").message).toBe("plain text");
    expect(toErrorInfo(undefined, "x").message).toBe("undefined was thrown");
    expect(toErrorInfo(null, "x").message).toBe("null was thrown");
    expect(toErrorInfo(42, "x").message).toBe("number 42 was thrown");
    expect(toErrorInfo({ reason: "quota" }, "x").message).toBe('a non-Error value was thrown: {"reason":"quota"}');
    expect(toErrorInfo(Object.create(null), "x").message).toBe("a non-Error value was thrown ([object Object])");
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("trap");
        },
        getPrototypeOf: () => {
          throw new Error("trap");
        },
        ownKeys: () => {
          throw new Error("trap");
        },
      },
    );
    expect(toErrorInfo(hostile, "x").code).toBe("x");
    const throwingMessage = Object.create(Error.prototype, {
      message: {
        get: () => {
          throw new Error("no");
        },
      },
    }) as Error;
    expect(toErrorInfo(throwingMessage, "x").code).toBe("x");
  });
});
