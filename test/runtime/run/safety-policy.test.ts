import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { createSafetyPolicy } from "../../../src/runtime/run/safety-policy.ts";
import { ToolRegistry } from "../../../src/tools/tool-registry.ts";

const registry = new ToolRegistry().register(
  (
    [
      ["plain", undefined],
      ["reader", { readOnlyHint: true }],
      ["idempotent", { idempotentHint: true }],
      ["gentle", { idempotentHint: true, destructiveHint: false }],
      ["readerClaimingDestructive", { readOnlyHint: true, destructiveHint: true }],
    ] as const
  ).map(([name, annotations]) => ({ name, inputSchema: { type: "object" }, ...(annotations === undefined ? {} : { annotations }), execute: () => null })),
);
const call = (name: string, extra: Partial<PlanStep> = {}): PlanStep => ({ id: "s1", type: "tool", name, arguments: {}, ...extra }) as PlanStep;
const policy = createSafetyPolicy({ registry, eager: "safe", retries: 2, timeoutMs: 30_000, tools: { plain: { retries: 1, timeoutMs: 1_000 }, gentle: { readOnly: true } } });

describe("createSafetyPolicy", () => {
  it("applies MCP's cautious defaults when annotations are absent", () => {
    expect(policy.traitsOf(call("plain"))).toEqual({ readOnly: false, idempotent: false, destructive: true, openWorld: true });
    expect(policy.traitsOf(call("idempotent"))).toEqual({ readOnly: false, idempotent: true, destructive: true, openWorld: true });
    expect(policy.traitsOf(call("reader"))).toEqual({ readOnly: true, idempotent: true, destructive: false, openWorld: true });
    expect(policy.traitsOf(call("unknown"))).toMatchObject({ readOnly: false, destructive: true });
  });

  it("starts only read-only steps early; idempotence never does", () => {
    expect(["plain", "reader", "idempotent", "readerClaimingDestructive", "unknown"].map((name) => policy.mayStartEarly(call(name)))).toEqual([false, true, false, true, false]);
    expect(policy.mayStartEarly({ id: "s1", type: "llm", prompt: "x" })).toBe(true);
    const none = createSafetyPolicy({ registry, eager: "none", retries: 2, timeoutMs: 1, tools: {} });
    const all = createSafetyPolicy({ registry, eager: "all", retries: 2, timeoutMs: 1, tools: {} });
    expect([none.mayStartEarly(call("reader")), all.mayStartEarly(call("plain"))]).toEqual([false, true]);
  });

  it("lets the application's policy override annotations", () => {
    expect(policy.mayStartEarly(call("gentle"))).toBe(true);
    expect(policy.mayCache(call("gentle"))).toBe(true);
  });

  it("caches read-only tools only", () => {
    expect(["plain", "reader", "idempotent"].map((name) => policy.mayCache(call(name)))).toEqual([false, true, false]);
    const off = createSafetyPolicy({ registry, eager: "safe", retries: 2, timeoutMs: 1, tools: { reader: { cache: false } } });
    expect(off.mayCache(call("reader"))).toBe(false);
  });

  it("lets a plan lower retries and timeouts, never raise them", () => {
    expect(policy.retriesOf(call("plain"))).toBe(1);
    expect(policy.retriesOf(call("plain", { retries: 25 }))).toBe(1);
    expect(policy.retriesOf(call("idempotent", { retries: 25 }))).toBe(2);
    expect(policy.retriesOf(call("idempotent", { retries: 0 }))).toBe(0);
    expect(policy.retriesOf(call("unknown", { retries: 3 }))).toBe(0);
    expect(policy.timeoutOf(call("plain", { timeoutMs: 1e12 }))).toBe(1_000);
    expect(policy.timeoutOf(call("reader", { timeoutMs: 1e12 }))).toBe(30_000);
    expect(policy.timeoutOf(call("reader", { timeoutMs: 50 }))).toBe(50);
    const huge = createSafetyPolicy({ registry, eager: "safe", retries: 2, timeoutMs: 1e15, tools: {} });
    expect(huge.timeoutOf(call("reader"))).toBe(2_147_483_647);
  });
});
