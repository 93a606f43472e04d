import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { createSafetyPolicy } from "../../../src/runtime/run/safety-policy.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
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
  ).map(([name, annotations]) => ({
    name,
    inputSchema: { type: "object" },
    ...(annotations === undefined ? {} : { annotations }),
    execute: () => null,
  })),
);
const call = (name: string, extra: Partial<PlanStep> = {}): PlanStep =>
  ({ id: "s1", type: "tool", name, arguments: {}, ...extra }) as PlanStep;
const policy = createSafetyPolicy({
  registry,
  eager: "safe",
  retries: 2,
  timeoutMs: 30_000,
  tools: { plain: { retries: 1, timeoutMs: 1_000 }, gentle: { readOnly: true } },
});

describe("createSafetyPolicy", () => {
  it("applies MCP's cautious defaults when annotations are absent", () => {
    expect(policy.traitsOf(call("plain"))).toEqual({
      readOnly: false,
      idempotent: false,
      destructive: true,
      openWorld: true,
    });
    expect(policy.traitsOf(call("idempotent"))).toEqual({
      readOnly: false,
      idempotent: true,
      destructive: true,
      openWorld: true,
    });
    expect(policy.traitsOf(call("reader"))).toEqual({
      readOnly: true,
      idempotent: true,
      destructive: false,
      openWorld: true,
    });
    expect(policy.traitsOf(call("unknown"))).toMatchObject({ readOnly: false, destructive: true });
  });

  it("starts only read-only steps early; idempotence never does", () => {
    expect(
      ["plain", "reader", "idempotent", "readerClaimingDestructive", "unknown"].map((name) =>
        policy.mayStartEarly(call(name)),
      ),
    ).toEqual([false, true, false, true, false]);
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
    const off = createSafetyPolicy({
      registry,
      eager: "safe",
      retries: 2,
      timeoutMs: 1,
      tools: { reader: { cache: false } },
    });
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

  describe("verdictOf: may a step whose dependencies are met start now", () => {
    const source = (state: StepSource["state"]): StepSource => ({ kind: "plan", attempt: 1, state });

    it("lets an early step start while its source streams", () => {
      expect(policy.verdictOf(call("reader"), source("streaming"), undefined)).toEqual({ kind: "ready" });
    });

    it("holds a step that may not start early until its source ended, and skips it when the source ended unclean", () => {
      for (const [state, expected] of [
        ["streaming", { kind: "wait", reason: "source" }],
        ["clean", { kind: "ready" }],
        ["unclean", { kind: "skip", code: "unsafe-plan" }],
      ] as const) {
        expect(policy.verdictOf(call("plain"), source(state), undefined)).toMatchObject(expected);
      }
    });

    it("lets a read-only step of an unclean source run once the source ended, even when it may not start early", () => {
      const none = createSafetyPolicy({ registry, eager: "none", retries: 2, timeoutMs: 1, tools: {} });
      expect(none.verdictOf(call("reader"), source("unclean"), undefined)).toEqual({ kind: "ready" });
    });

    it("skips a side-effecting step of an unclean source even when the application lets everything start early", () => {
      const all = createSafetyPolicy({ registry, eager: "all", retries: 2, timeoutMs: 1, tools: {} });
      expect(all.verdictOf(call("plain"), source("unclean"), undefined)).toMatchObject({
        kind: "skip",
        code: "unsafe-plan",
      });
    });

    it("holds a step that needs approval until it is approved, and skips it once denied, even when read-only", () => {
      expect(policy.verdictOf(call("reader"), source("streaming"), { mode: "plan", status: "unasked" })).toEqual({
        kind: "wait",
        reason: "source",
      });
      expect(
        policy.verdictOf(call("reader"), source("clean"), {
          mode: "plan",
          status: "requested",
          requestId: "a1",
          shown: {},
        }),
      ).toEqual({ kind: "wait", reason: "approval" });
      expect(
        policy.verdictOf(call("reader"), source("clean"), {
          mode: "plan",
          status: "denied",
          requestId: "a1",
          reason: "no",
        }),
      ).toEqual({ kind: "skip", code: "denied", reason: "no" });
      // A denial without a reason is said as such, with no reason made up.
      expect(
        policy.verdictOf(call("reader"), source("clean"), {
          mode: "plan",
          status: "denied",
          requestId: "a1",
          reason: undefined,
        }),
      ).toEqual({ kind: "skip", code: "denied", reason: "It was denied" });
      expect(
        policy.verdictOf(call("plain"), source("clean"), {
          mode: "step",
          status: "approved",
          requestId: "a1",
          shown: {},
        }),
      ).toEqual({ kind: "ready" });
    });

    it("skips the reply of an unclean source once a side-effecting step of it was skipped", () => {
      const answer: PlanStep = { id: "r", type: "reply", text: "done" };
      expect(policy.verdictOf(answer, source("unclean"), undefined)).toEqual({ kind: "ready" });
      expect(policy.verdictOf(answer, { ...source("unclean"), withheld: 2 }, undefined)).toMatchObject({
        kind: "skip",
        code: "unsafe-plan",
        reason: expect.stringContaining("2 side-effecting steps did not run"),
      });
      expect(policy.verdictOf(answer, { ...source("clean"), withheld: 2 }, undefined)).toEqual({ kind: "ready" });
    });
  });

  it("repeats only what may be repeated: read-only and idempotent tools, model steps, and tools the application gave retries", () => {
    expect(["plain", "reader", "idempotent", "unknown"].map((name) => policy.mayRepeat(call(name)))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    const strict = createSafetyPolicy({ registry, eager: "safe", retries: 2, timeoutMs: 1, tools: {} });
    expect(strict.mayRepeat(call("plain"))).toBe(false);
    expect(strict.mayRepeat({ id: "s1", type: "llm", prompt: "x" })).toBe(true);
  });

  describe("each answer at its edges", () => {
    const llm: PlanStep = { id: "s9", type: "llm", prompt: "x" };
    const answer: PlanStep = { id: "r", type: "reply", text: "done" };
    const withTraits = new ToolRegistry().register([
      {
        name: "quiet",
        inputSchema: { type: "object" },
        annotations: { destructiveHint: false, openWorldHint: false },
        execute: () => null,
      },
      {
        name: "loud",
        inputSchema: { type: "object" },
        annotations: { destructiveHint: true, openWorldHint: true },
        execute: () => null,
      },
    ]);
    // A tool may be called "undefined": an `llm` step, which has no tool, must never take its policy.
    const odd = createSafetyPolicy({
      registry: withTraits,
      eager: "safe",
      retries: 2,
      timeoutMs: 1_000,
      tools: { undefined: { retries: 9, timeoutMs: 5, cache: true, approval: "step" }, zero: { retries: 0 } },
    });

    it("gives model steps their own traits, and reads destructiveHint and openWorldHint as written", () => {
      expect(odd.traitsOf(llm)).toEqual({ readOnly: true, idempotent: true, destructive: false, openWorld: false });
      expect(odd.traitsOf(call("quiet"))).toEqual({
        readOnly: false,
        idempotent: false,
        destructive: false,
        openWorld: false,
      });
      expect(odd.traitsOf(call("loud"))).toEqual({
        readOnly: false,
        idempotent: false,
        destructive: true,
        openWorld: true,
      });
    });

    it("repeats a tool the application gave retries only when they are above 0", () => {
      expect(odd.mayRepeat(call("zero"))).toBe(false);
      expect(odd.mayRepeat(llm)).toBe(true);
    });

    it("ignores a plan's retries and timeouts that are no count: fractions, negatives, strings, zero time", () => {
      expect(policy.retriesOf(call("idempotent", { retries: 1.5 }))).toBe(2);
      expect(policy.retriesOf(call("idempotent", { retries: -1 }))).toBe(2);
      expect(policy.retriesOf(call("idempotent", { retries: "1" as unknown as number }))).toBe(2);
      expect(policy.retriesOf(call("idempotent", { retries: 0 }))).toBe(0);
      expect(policy.timeoutOf(call("plain", { timeoutMs: 0 }))).toBe(1_000);
      expect(policy.timeoutOf(call("plain", { timeoutMs: -5 }))).toBe(1_000);
      expect(policy.timeoutOf(call("plain", { timeoutMs: "10" as unknown as number }))).toBe(1_000);
      expect(policy.timeoutOf(call("plain", { timeoutMs: 10 }))).toBe(10);
    });

    it("never gives an llm step the policy of a tool, even one called undefined", () => {
      expect(odd.retriesOf(llm)).toBe(2);
      expect(odd.timeoutOf(llm)).toBe(1_000);
      expect(odd.mayCache(llm)).toBe(false);
      expect(odd.approvalOf(llm, {}, false)).toBeUndefined();
      expect(odd.approvalVaries(llm)).toBe(false);
    });

    it("reads a function policy's answers: none or nothing asks nobody, plan asks once, anything else per step", () => {
      const answers: unknown[] = ["none", undefined, "plan", "step", "always", 1];
      const expected = [undefined, undefined, "plan", "step", "step", "step"];
      answers.forEach((value, index) => {
        const asked = createSafetyPolicy({
          registry,
          eager: "safe",
          retries: 0,
          timeoutMs: 1,
          tools: { plain: { approval: () => value as "none" } },
        });
        expect(asked.approvalOf(call("plain"), {}, true), String(value)).toBe(expected[index]);
        expect(asked.approvalVaries(call("plain"))).toBe(true);
      });
      const fixed = createSafetyPolicy({
        registry,
        eager: "safe",
        retries: 0,
        timeoutMs: 1,
        tools: { plain: { approval: "plan" } },
      });
      expect(fixed.approvalVaries(call("plain"))).toBe(false);
      expect(fixed.approvalOf(call("plain"), {}, false)).toBe("plan");
    });

    it("lets a reply start while its source streams, whatever eager says", () => {
      const none = createSafetyPolicy({ registry, eager: "none", retries: 0, timeoutMs: 1, tools: {} });
      expect(none.verdictOf(answer, { kind: "plan", attempt: 1, state: "streaming" }, undefined)).toEqual({
        kind: "ready",
      });
      expect(none.verdictOf(llm, { kind: "plan", attempt: 1, state: "streaming" }, undefined)).toEqual({
        kind: "wait",
        reason: "source",
      });
    });

    it("names the source and counts the steps in what it says", () => {
      const patch = { kind: "replan", attempt: 2, state: "unclean" } as const;
      expect(policy.unsafeSource(call("plain"), patch)).toBe(
        "It has side effects and the re-plan 2 patch did not finish cleanly",
      );
      expect(policy.unsafeSource(call("plain"), { ...patch, kind: "plan" })).toBe(
        "It has side effects and the plan did not finish cleanly",
      );
      expect(policy.unsafeSource(answer, { ...patch, withheld: 1 })).toBe(
        "It reports on a plan whose 1 side-effecting step did not run: the re-plan 2 patch did not finish cleanly",
      );
      expect(policy.unsafeSource(answer, { ...patch, withheld: 3 })).toBe(
        "It reports on a plan whose 3 side-effecting steps did not run: the re-plan 2 patch did not finish cleanly",
      );
      expect(policy.unsafeSource(answer, { ...patch, dropped: 2 })).toBe(
        "It reports on a plan that lost 2 steps: the re-plan 2 patch did not finish cleanly",
      );
      expect(policy.unsafeSource(answer, { ...patch, withheld: 1, dropped: 2 })).toBe(
        "It reports on a plan whose 1 side-effecting step did not run: the re-plan 2 patch did not finish cleanly",
      );
      expect(policy.unsafeSource(answer, { ...patch, state: "clean", dropped: 2 })).toBeUndefined();
    });
  });
});
