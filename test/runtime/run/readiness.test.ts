import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { readinessOf, type ReadinessView } from "../../../src/runtime/run/readiness.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
import { StepTable } from "../../../src/runtime/run/step-table.ts";

const tool = (id: string, args: Record<string, unknown> = {}): PlanStep => ({ id, type: "tool", name: "t", arguments: args });

function setup(state: StepSource["state"] = "streaming") {
  const table = new StepTable({});
  const source: StepSource = { kind: "plan", attempt: 1, state };
  const view = (overrides: Partial<ReadinessView> = {}): ReadinessView => ({
    statusOf: (id) => table.get(id)?.status,
    mayBeReplanned: () => false,
    planEnded: state !== "streaming",
    othersSettled: false,
    ...overrides,
  });
  return { table, source, view };
}

describe("readinessOf", () => {
  it("waits for dependencies, then lets an early step start while its source streams", () => {
    const { table, source, view } = setup();
    const first = table.add(tool("s1"), source, { early: true, readOnly: true });
    const second = table.add(tool("s2", { x: "{{s1}}" }), source, { early: true, readOnly: true });
    expect(readinessOf(first, view())).toEqual({ kind: "ready" });
    expect(readinessOf(second, view())).toEqual({ kind: "wait", reason: "dependencies" });
    table.succeed(first, 1);
    expect(readinessOf(second, view())).toEqual({ kind: "ready" });
  });

  it("holds a step that may not start early until its source ended, and skips it when the source ended unclean", () => {
    for (const [state, expected] of [
      ["streaming", { kind: "wait", reason: "source" }],
      ["clean", { kind: "ready" }],
      ["unclean", { kind: "skip", code: "unsafe-plan" }],
    ] as const) {
      const { table, source, view } = setup(state);
      const entry = table.add(tool("s1"), source, { early: false, readOnly: false });
      expect(readinessOf(entry, view())).toMatchObject(expected);
    }
  });

  it("lets a read-only step of an unclean source run once the source ended, even when it may not start early", () => {
    const { table, source, view } = setup("unclean");
    const entry = table.add(tool("s1"), source, { early: false, readOnly: true });
    expect(readinessOf(entry, view())).toEqual({ kind: "ready" });
  });

  it("skips a side-effecting step of an unclean source even when the application lets everything start early", () => {
    const { table, source, view } = setup("unclean");
    const entry = table.add(tool("s1"), source, { early: true, readOnly: false });
    expect(readinessOf(entry, view())).toMatchObject({ kind: "skip", code: "unsafe-plan" });
  });

  it("an unknown id waits while the plan streams and skips once it ended", () => {
    const streaming = setup();
    const waiting = streaming.table.add(tool("s2", { x: "{{s9}}" }), streaming.source, { early: true, readOnly: true });
    expect(readinessOf(waiting, streaming.view())).toEqual({ kind: "wait", reason: "dependencies" });
    const ended = setup("clean");
    const skipped = ended.table.add(tool("s2", { x: "{{s9}}" }), ended.source, { early: true, readOnly: true });
    expect(readinessOf(skipped, ended.view())).toMatchObject({ kind: "skip", code: "unknown-dependency", reason: 'It depends on step "s9", which is not in the plan' });
  });

  it("a failed dependency waits for a re-plan that may still come, else skips", () => {
    const { table, source, view } = setup("clean");
    const first = table.add(tool("s1"), source, { early: true, readOnly: true });
    const second = table.add(tool("s2", { x: "{{s1}}" }), source, { early: true, readOnly: true });
    first.status = "failed";
    expect(readinessOf(second, view({ mayBeReplanned: () => true }))).toEqual({ kind: "wait", reason: "replan" });
    expect(readinessOf(second, view())).toMatchObject({ kind: "skip", code: "dependency-failed" });
    first.status = "skipped";
    expect(readinessOf(second, view())).toMatchObject({ kind: "skip", code: "dependency-failed" });
    // A skipped step a re-plan may still replace is one denied with a re-plan asked for: its dependents wait.
    expect(readinessOf(second, view({ mayBeReplanned: () => true }))).toEqual({ kind: "wait", reason: "replan" });
  });

  it("a reply waits until every other step settled; a streaming reply is never skipped", () => {
    const { table, source, view } = setup("clean");
    const first = table.add(tool("s1"), source, { early: true, readOnly: true });
    const answer = table.add({ id: "r", type: "reply", text: "{{s1}}" }, source, { early: true, readOnly: true });
    table.succeed(first, 1);
    expect(readinessOf(answer, view())).toEqual({ kind: "wait", reason: "reply-last" });
    expect(readinessOf(answer, view({ othersSettled: true }))).toEqual({ kind: "ready" });
    first.status = "failed";
    expect(readinessOf(answer, view({ othersSettled: true }))).toMatchObject({ kind: "skip" });
    answer.fixed = true;
    expect(readinessOf(answer, view({ othersSettled: true }))).toEqual({ kind: "ready" });
  });
});
