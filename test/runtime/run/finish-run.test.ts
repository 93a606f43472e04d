/**
 * The end of a run on its own: the template answer, what the integration
 * prompt is shown, the failure that marks the run, and what memory keeps.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RuntimeErrorInfo, StepSkipCode } from "../../../src/events/runtime-event.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import {
  buildMemoryEntries,
  findRunFailure,
  integrationResults,
  renderTemplateReply,
} from "../../../src/runtime/run/finish-run.ts";
import { type StepEntry, StepTable } from "../../../src/runtime/run/step-table.ts";
import { llm, reply, tool } from "../fake-planner.ts";
import { planSource } from "./part-fixtures.ts";

type Outcome =
  | { status: "succeeded"; result: unknown }
  | { status: "failed"; error?: RuntimeErrorInfo; superseded?: boolean; heard?: boolean }
  | { status: "skipped"; code?: StepSkipCode; reason?: string; heard?: boolean };

/** A table whose steps ended as given, in order. */
function tableOf(steps: [PlanStep, Outcome][]): StepTable {
  const table = new StepTable({});
  const source = planSource();
  for (const [step, outcome] of steps) {
    const entry: StepEntry = table.add(step, source);
    if (outcome.status === "succeeded") {
      table.succeed(entry, outcome.result);
      continue;
    }
    entry.status = outcome.status;
    if (outcome.heard !== undefined) entry.heard = outcome.heard;
    if (outcome.status === "failed") {
      entry.error = outcome.error;
      if (outcome.superseded !== undefined) entry.superseded = outcome.superseded;
    } else {
      entry.skipCode = outcome.code;
      entry.skipReason = outcome.reason;
      if (outcome.code === "denied")
        entry.approval = { mode: "plan", status: "denied", requestId: "a1", reason: outcome.reason };
    }
  }
  return table;
}

const ok = (result: unknown): Outcome => ({ status: "succeeded", result });
const failed = (message?: string, extra: { superseded?: boolean; heard?: boolean; code?: string } = {}): Outcome => ({
  status: "failed",
  ...(message === undefined ? {} : { error: { code: extra.code ?? "tool-error", message } }),
  ...(extra.superseded === undefined ? {} : { superseded: extra.superseded }),
  ...(extra.heard === undefined ? {} : { heard: extra.heard }),
});
const skipped = (code?: StepSkipCode, reason?: string, heard?: boolean): Outcome => ({
  status: "skipped",
  ...(code === undefined ? {} : { code }),
  ...(reason === undefined ? {} : { reason }),
  ...(heard === undefined ? {} : { heard }),
});

describe("renderTemplateReply", () => {
  it("lists each step but the reply: results, failures, and what was not done, leaving out replaced steps", () => {
    const table = tableOf([
      [tool("s1", "read", { city: "Paris" }), ok({ temp: 21 })],
      [tool("s2", "pay"), failed("card declined")],
      [llm("s3", "summarize"), skipped("budget", "The step budget of 2 is spent")],
      [tool("s4", "read"), skipped("replaced", "Re-plan 1 replaced it")],
      [tool("s5", "read"), skipped()],
      [reply("s6", "{{s1}}"), ok("21")],
    ]);
    expect(renderTemplateReply(table)).toBe(
      [
        "Results:",
        '- s1 (read): {"temp":21}',
        "- s2 (pay) failed: card declined",
        "- s3 was not done (budget)",
        "- s5 (read) was not done (skipped)",
      ].join("\n"),
    );
  });

  it("says why a declined step was not done, and names the declined steps a skipped one needed", () => {
    const table = tableOf([
      [tool("s1", "pay"), skipped("denied", "too much")],
      [tool("s2", "pay"), skipped("denied")],
      [tool("s3", "read", { x: "{{s1}}" }), skipped("dependency-failed")],
      [tool("s4", "read", { x: "{{s1}}", y: "{{s2}}" }), skipped("dependency-failed")],
      [tool("s5", "read"), failed("down")],
      [tool("s6", "read", { x: "{{s1}}", y: "{{s5}}" }), skipped("dependency-failed")],
    ]);
    // A denial without a reason reads as "denied".
    expect(renderTemplateReply(table).split("\n")).toEqual([
      "Results:",
      "- s1 (pay) was not done: denied (too much)",
      "- s2 (pay) was not done: denied",
      '- s3 (read) was not done: it needed "s1", which was not done',
      '- s4 (read) was not done: it needed "s1", "s2", which were not done',
      "- s5 (read) failed: down",
      "- s6 (read) was not done (dependency-failed)",
    ]);
  });

  it("cuts a long result short, and says what went wrong when there is nothing to list", () => {
    const long = renderTemplateReply(tableOf([[tool("s1", "read"), ok({ text: "x".repeat(2_000) })]]));
    expect(long.length).toBeLessThan(600);
    expect(long).toMatch(/^Results:\n- s1 \(read\): \{"text":"x+… \[\d+ more characters\]$/);
    const onlyReply = tableOf([[reply("s1", "hi"), ok("hi")]]);
    expect(renderTemplateReply(onlyReply)).toBe("(no valid reply)");
    expect(renderTemplateReply(new StepTable({}), { code: "model-error", message: "The planner failed" })).toBe(
      "No answer: The planner failed",
    );
    // A failure says nothing when there are results to show.
    expect(renderTemplateReply(tableOf([[tool("s1", "read"), ok(1)]]), { code: "model-error", message: "x" })).toBe(
      "Results:\n- s1 (read): 1",
    );
  });
});

describe("integrationResults", () => {
  it("shows each step but the reply with its tool, its outcome, and a reason only for a declined one", () => {
    const table = tableOf([
      [tool("s1", "read"), ok([1, 2])],
      [llm("s2", "why?"), failed()],
      [tool("s3", "pay"), skipped("denied", "no")],
      [tool("s4", "read"), skipped("cycle", "It waits for itself")],
      [reply("s5", "x"), ok("x")],
    ]);
    const results = integrationResults(table);
    expect(results).toEqual([
      { id: "s1", status: "succeeded", tool: "read", result: [1, 2] },
      { id: "s2", status: "failed", error: "unknown error" },
      { id: "s3", status: "skipped", tool: "pay", reason: "denied (no)" },
      { id: "s4", status: "skipped", tool: "read" },
    ]);
    expect(Object.keys(results[1] ?? {})).toEqual(["id", "status", "error"]);
  });

  it("shows a step still pending or running as skipped", () => {
    const table = new StepTable({});
    const source = planSource();
    table.add(tool("s1", "read"), source);
    const running = table.add(tool("s2", "read"), source);
    running.status = "running";
    expect(integrationResults(table)).toEqual([
      { id: "s1", status: "skipped", tool: "read" },
      { id: "s2", status: "skipped", tool: "read" },
    ]);
  });
});

describe("findRunFailure", () => {
  it("puts an internal stop first, then the planner's error, then the steps", () => {
    const stop = { code: "tool-error", message: "Internal error: boom" };
    const planner = { code: "model-error", message: "The planner failed" };
    const table = tableOf([[tool("s1", "read"), failed("down")]]);
    expect(findRunFailure(table, stop, planner)).toBe(stop);
    expect(findRunFailure(table, undefined, planner)).toBe(planner);
    expect(findRunFailure(table, undefined, undefined)).toEqual({ code: "tool-error", message: "down" });
    expect(findRunFailure(tableOf([[tool("s1", "read"), ok(1)]]), undefined, undefined)).toBeUndefined();
  });

  it("fails the run for the first step, in plan order, that failed or was skipped for a reason of its own", () => {
    expect(
      findRunFailure(
        tableOf([
          [tool("s1", "read"), ok(1)],
          [tool("s2", "read"), skipped("unsafe-plan", "It has side effects")],
          [tool("s3", "read"), failed("down")],
        ]),
        undefined,
        undefined,
      ),
    ).toEqual({ code: "invalid-step", message: 'Step "s2" was skipped (unsafe-plan): It has side effects' });
    expect(findRunFailure(tableOf([[tool("s1", "read"), failed()]]), undefined, undefined)).toEqual({
      code: "tool-error",
      message: 'Step "s1" failed',
    });
  });

  it("gives each skip the error code that names it, and tool-error for the rest", () => {
    const codes: [StepSkipCode, string][] = [
      ["unsafe-plan", "invalid-step"],
      ["unknown-dependency", "unknown-reference"],
      ["cycle", "cycle"],
      ["budget", "budget-exceeded"],
      ["dependency-failed", "tool-error"],
      ["aborted", "tool-error"],
    ];
    for (const [skip, code] of codes) {
      expect(findRunFailure(tableOf([[tool("s1", "read"), skipped(skip)]]), undefined, undefined)).toEqual({
        code,
        message: `Step "s1" was skipped (${skip})`,
      });
    }
    expect(findRunFailure(tableOf([[tool("s1", "read"), skipped()]]), undefined, undefined)).toEqual({
      code: "tool-error",
      message: 'Step "s1" was skipped (skipped)',
    });
  });

  it("does not fail the run for a replaced step, a superseded failure, a denial, or what needed only denied steps", () => {
    expect(
      findRunFailure(
        tableOf([
          [tool("s1", "read"), skipped("replaced")],
          [tool("s2", "read"), failed("down", { superseded: true })],
          [tool("s3", "pay"), skipped("denied", "no")],
          [tool("s4", "read", { x: "{{s3}}" }), skipped("dependency-failed")],
          [tool("s5", "read"), ok(1)],
          [tool("s6", "read", { x: "{{s3}}", y: "{{s5}}" }), skipped("dependency-failed")],
        ]),
        undefined,
        undefined,
      ),
    ).toBeUndefined();
    // A step that also needed a failed one failed for that failure.
    expect(
      findRunFailure(
        tableOf([
          [tool("s1", "pay"), skipped("denied")],
          [tool("s2", "read"), failed("down", { superseded: true })],
          [tool("s3", "read", { x: "{{s1}}", y: "{{s2}}" }), skipped("dependency-failed", "It depends on s2")],
        ]),
        undefined,
        undefined,
      ),
    ).toEqual({ code: "tool-error", message: 'Step "s3" was skipped (dependency-failed): It depends on s2' });
  });

  it("leaves what the planner heard to its model, except an outcome nobody can know", () => {
    expect(
      findRunFailure(
        tableOf([
          [tool("s1", "read"), failed("down", { heard: true })],
          [tool("s2", "read"), skipped("budget", undefined, true)],
        ]),
        undefined,
        undefined,
      ),
    ).toBeUndefined();
    expect(
      findRunFailure(
        tableOf([[tool("s1", "pay"), failed("may have acted", { heard: true, code: "outcome-unknown" })]]),
        undefined,
        undefined,
      ),
    ).toEqual({ code: "outcome-unknown", message: "may have acted" });
  });

  it("names the first step that counts, whatever ended around it, and an internal stop always wins", () => {
    const outcome = fc.oneof(
      fc.constant(ok(1)),
      fc.record({ superseded: fc.boolean(), heard: fc.boolean() }).map((extra) => failed("down", extra)),
      fc
        .record({
          code: fc.constantFrom<StepSkipCode>("replaced", "budget", "cycle", "unsafe-plan", "aborted", "denied"),
          heard: fc.boolean(),
        })
        .map(({ code, heard }) => skipped(code, "why", heard)),
    );
    fc.assert(
      fc.property(fc.array(outcome, { maxLength: 10 }), fc.boolean(), (outcomes, stopped) => {
        const table = tableOf(outcomes.map((each, index) => [tool(`s${index + 1}`, "read"), each]));
        const counts = (each: Outcome): boolean =>
          each.status !== "succeeded" &&
          each.heard !== true &&
          ((each.status === "failed" && each.superseded !== true) ||
            (each.status === "skipped" && each.code !== "replaced" && each.code !== "denied"));
        const first = outcomes.findIndex(counts);
        const stop = { code: "aborted", message: "stop" };
        const failure = findRunFailure(table, stopped ? stop : undefined, undefined);
        if (stopped) expect(failure).toBe(stop);
        else if (first === -1) expect(failure).toBeUndefined();
        else expect(failure?.message).toMatch(new RegExp(`^(down|Step "s${first + 1}" was skipped)`));
        if (!stopped && first !== -1 && outcomes[first]?.status === "failed")
          expect(failure).toBe(table.order[first]?.error);
      }),
      { numRuns: 200 },
    );
  });
});

describe("buildMemoryEntries", () => {
  it("keeps the reflections first, in order, then the result with each step's outcome", () => {
    const table = tableOf([
      [tool("s1", "read", { city: "Paris" }), ok({ temp: 21 })],
      [tool("s2", "pay"), failed("card declined")],
      [llm("s3", "why?"), skipped("budget")],
      [reply("s4", "It is {{s1.temp}}"), ok("It is 21")],
    ]);
    const reflections = [
      { stepId: "s2", action: "new_plan" as const, reason: "declined" },
      { stepId: "s2", action: "abort" as const, reason: "again" },
    ];
    const entries = buildMemoryEntries(
      { runId: "r7", query: "weather", reason: "failed", reply: "It is 21", reflections },
      table,
      1234,
    );
    // Strictly: a step that did not succeed has no result key, one that did not fail no error key.
    expect(entries).toStrictEqual([
      { kind: "reflection", runId: "r7", query: "weather", content: reflections[0], at: 1234 },
      { kind: "reflection", runId: "r7", query: "weather", content: reflections[1], at: 1234 },
      {
        kind: "result",
        runId: "r7",
        query: "weather",
        content: {
          reason: "failed",
          reply: "It is 21",
          steps: [
            { id: "s1", tool: "read", status: "succeeded", result: { temp: 21 } },
            { id: "s2", tool: "pay", status: "failed", error: "card declined" },
            { id: "s3", status: "skipped" },
            { id: "s4", status: "succeeded", result: "It is 21" },
          ],
        },
        at: 1234,
      },
    ]);
    // The entry holds a copy: the run's state can change after it was written.
    expect(entries[0]?.content).not.toBe(reflections[0]);
    expect(Object.keys(entries[0]?.content as object)[0]).toBe("stepId");
  });

  it("writes only the result when there are no reflections, and an error only for a failed step", () => {
    const table = tableOf([[tool("s1", "read"), skipped("aborted")]]);
    const entry = table.get("s1") as StepEntry;
    entry.error = { code: "aborted", message: "The run was aborted" };
    const entries = buildMemoryEntries(
      { runId: "r", query: "q", reason: "aborted", reply: undefined, reflections: [] },
      table,
      0,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]?.content).toEqual({
      reason: "aborted",
      reply: undefined,
      steps: [{ id: "s1", tool: "read", status: "skipped" }],
    });
  });
});
