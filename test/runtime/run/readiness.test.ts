import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { type ReadinessView, readinessOf } from "../../../src/runtime/run/readiness.ts";
import type { StepSource } from "../../../src/runtime/run/step-source.ts";
import { StepTable } from "../../../src/runtime/run/step-table.ts";

const tool = (id: string, args: Record<string, unknown> = {}): PlanStep => ({
  id,
  type: "tool",
  name: "t",
  arguments: args,
});

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
  it("waits for dependencies, then lets the step start as far as they go (the safety policy decides the rest)", () => {
    const { table, source, view } = setup();
    const first = table.add(tool("s1"), source);
    const second = table.add(tool("s2", { x: "{{s1}}" }), source);
    expect(readinessOf(first, view())).toEqual({ kind: "ready" });
    expect(readinessOf(second, view())).toEqual({ kind: "wait", reason: "dependencies" });
    table.succeed(first, 1);
    expect(readinessOf(second, view())).toEqual({ kind: "ready" });
  });

  it("an unknown id waits while the plan streams and skips once it ended", () => {
    const streaming = setup();
    const waiting = streaming.table.add(tool("s2", { x: "{{s9}}" }), streaming.source);
    expect(readinessOf(waiting, streaming.view())).toEqual({ kind: "wait", reason: "dependencies" });
    const ended = setup("clean");
    const skipped = ended.table.add(tool("s2", { x: "{{s9}}" }), ended.source);
    expect(readinessOf(skipped, ended.view())).toMatchObject({
      kind: "skip",
      code: "unknown-dependency",
      reason: 'It depends on step "s9", which is not in the plan',
    });
  });

  it("a failed dependency waits for a re-plan that may still come, else skips", () => {
    const { table, source, view } = setup("clean");
    const first = table.add(tool("s1"), source);
    const second = table.add(tool("s2", { x: "{{s1}}" }), source);
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
    const first = table.add(tool("s1"), source);
    const answer = table.add({ id: "r", type: "reply", text: "{{s1}}" }, source);
    table.succeed(first, 1);
    expect(readinessOf(answer, view())).toEqual({ kind: "wait", reason: "reply-last" });
    expect(readinessOf(answer, view({ othersSettled: true }))).toEqual({ kind: "ready" });
    first.status = "failed";
    expect(readinessOf(answer, view({ othersSettled: true }))).toMatchObject({ kind: "skip" });
    answer.fixed = true;
    expect(readinessOf(answer, view({ othersSettled: true }))).toEqual({ kind: "ready" });
  });
});
