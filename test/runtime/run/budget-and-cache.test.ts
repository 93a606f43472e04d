import { describe, expect, it } from "vitest";
import { createMemoryCache } from "../../../src/runtime/create-memory-cache.ts";
import { createRunResultCache } from "../../../src/runtime/run/run-result-cache.ts";
import { UsageLimits } from "../../../src/runtime/run/usage-limits.ts";

describe("UsageLimits", () => {
  it("counts and refuses tool calls, steps and model calls, marking the run as stopped by a budget", () => {
    const limits = new UsageLimits({ toolCalls: 1, steps: 1, modelCalls: 1 }, 2);
    expect([limits.refuseToolCall(), limits.refuseStep(), limits.refuseModelCall()]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(limits.hit).toBe(false);
    expect(limits.refuseToolCall()).toBe("The tool call budget of 1 is spent");
    expect(limits.refuseStep()).toBe("The step budget of 1 is spent");
    expect(limits.modelCallRefusal()).toBe("The model call budget of 1 is spent");
    expect(limits.hit).toBe(true);
    expect(limits.usage).toMatchObject({ toolCalls: 1, modelCalls: 1 });
  });

  it("tells maxReplans apart from a budget", () => {
    const limited = new UsageLimits({ replans: 1 }, 3);
    expect(limited.replanAllowed()).toBe(true);
    limited.countReplan();
    expect([limited.replanAllowed(), limited.replanBudgetSpent()]).toEqual([false, true]);
    const capped = new UsageLimits({}, 1);
    capped.countReplan();
    expect([capped.replanAllowed(), capped.replanBudgetSpent()]).toEqual([false, false]);
  });
});

describe("createRunResultCache", () => {
  it("reuses a result until a side effect ends, and drops a result whose call began before one", () => {
    const cache = createRunResultCache(undefined);
    const before = cache.epoch;
    cache.set("k", 1, before);
    expect(cache.get("k")).toEqual({ value: 1 });
    cache.invalidate();
    expect(cache.get("k")).toBeUndefined();
    cache.set("k", 2, before);
    expect(cache.get("k")).toBeUndefined();
    cache.set("k", 3, cache.epoch);
    expect(cache.get("k")).toEqual({ value: 3 });
  });

  it("reads a shared cache only while the run has had no side effect, and writes it every time", () => {
    const shared = createMemoryCache();
    shared.set("old", "stale");
    const cache = createRunResultCache(shared);
    expect(cache.get("old")).toEqual({ value: "stale" });
    cache.invalidate();
    expect(cache.get("old")).toBeUndefined();
    cache.set("new", "fresh", cache.epoch);
    expect(shared.get("new")).toEqual({ value: "fresh" });
  });

  it("survives a shared cache that throws", () => {
    const cache = createRunResultCache({
      get: () => {
        throw new Error("down");
      },
      set: () => {
        throw new Error("down");
      },
      clear: () => {
        throw new Error("down");
      },
    });
    expect(cache.get("k")).toBeUndefined();
    expect(() => cache.set("k", 1, cache.epoch)).not.toThrow();
    expect(() => cache.invalidate()).not.toThrow();
    const rejecting = createRunResultCache({
      get: () => undefined,
      set: () => Promise.reject(new Error("down")),
      clear: () => Promise.reject(new Error("down")),
    });
    expect(() => rejecting.set("k", 1, rejecting.epoch)).not.toThrow();
    expect(() => rejecting.invalidate()).not.toThrow();
  });

  it("a side effect clears the shared cache, so a later run is not served a read from before it", () => {
    const shared = createMemoryCache();
    const counter = { count: 0 };
    const first = createRunResultCache(shared, counter);
    first.set("read", "before", first.epoch);
    const writer = createRunResultCache(shared, counter);
    expect(writer.get("read")).toEqual({ value: "before" });
    writer.invalidate();
    expect(shared.size).toBe(0);
    const later = createRunResultCache(shared, counter);
    expect(later.get("read")).toBeUndefined();
    later.set("read", "after", later.epoch);
    expect(createRunResultCache(shared, counter).get("read")).toEqual({ value: "after" });
  });

  it("a side effect in one run drops what another run of the runtime read before it, and a read that overlapped it is not stored", () => {
    const shared = createMemoryCache();
    const counter = { count: 0 };
    const reader = createRunResultCache(shared, counter);
    const writer = createRunResultCache(shared, counter);
    reader.set("early", 1, reader.epoch);
    const startedAt = reader.epoch;
    writer.invalidate();
    expect(reader.get("early")).toBeUndefined();
    reader.set("overlapping", 2, startedAt);
    expect(reader.get("overlapping")).toBeUndefined();
    expect(shared.get("overlapping")).toBeUndefined();
    // The reader itself had no side effect: it still reads the shared cache.
    shared.set("fresh", 3);
    expect(reader.get("fresh")).toEqual({ value: 3 });
  });
});
