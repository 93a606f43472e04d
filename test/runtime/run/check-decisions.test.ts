/**
 * The one check of approval decisions, against a hand-built table of steps
 * in every state a decision can meet: nothing passes unless the whole batch
 * does, and each refusal names the step and what was wrong.
 */
import { describe, expect, it } from "vitest";
import { PlankitError } from "../../../src/errors/plankit-error.ts";
import type { PlanStep } from "../../../src/plan/plan-step-schema.ts";
import { checkDecisions, type DecisionTarget } from "../../../src/runtime/run/check-decisions.ts";
import type { ApprovalState } from "../../../src/runtime/run/step-table.ts";
import { ToolRegistry } from "../../../src/tools/tool-registry.ts";

const registry = new ToolRegistry().register([
  {
    name: "send",
    description: "Send a message",
    inputSchema: {
      type: "object",
      properties: {
        to: { type: "string" },
        text: { type: "string" },
        priority: { type: "integer" },
        when: { type: "string", format: "date" },
      },
      required: ["to"],
    },
    execute: () => ({ sent: true }),
  },
  {
    name: "tag",
    description: "Tag something",
    inputSchema: { type: "object", minProperties: 1, properties: { label: { type: "string" } } },
    execute: () => ({ tagged: true }),
  },
]);

const requested = (requestId: string): ApprovalState => ({ mode: "plan", status: "requested", requestId, shown: {} });
const send = (id: string, to = "ann"): PlanStep => ({ id, type: "tool", name: "send", arguments: { to } });

const table = new Map<string, DecisionTarget>([
  ["a", { step: send("a"), status: "pending", skipCode: undefined, deps: ["s0"], approval: requested("r-a") }],
  [
    "b",
    {
      step: send("b"),
      status: "pending",
      skipCode: undefined,
      deps: [],
      approval: { mode: "plan", status: "approved", requestId: "r-b", shown: {} },
    },
  ],
  [
    "c",
    {
      step: send("c"),
      status: "pending",
      skipCode: undefined,
      deps: [],
      approval: { mode: "step", status: "denied", requestId: "r-c", reason: "no" },
    },
  ],
  [
    "d",
    {
      step: send("d"),
      status: "pending",
      skipCode: undefined,
      deps: [],
      approval: { mode: "plan", status: "unasked" },
    },
  ],
  ["e", { step: send("e"), status: "skipped", skipCode: "dependency-failed", deps: [], approval: requested("r-e") }],
  ["f", { step: send("f"), status: "running", skipCode: undefined, deps: [], approval: requested("r-f") }],
  [
    "g",
    {
      step: { id: "g", type: "llm", prompt: "Summarize" },
      status: "pending",
      skipCode: undefined,
      deps: [],
      approval: requested("r-g"),
    },
  ],
  ["h", { step: send("h"), status: "pending", skipCode: undefined, deps: [], approval: undefined }],
  [
    "t",
    {
      step: { id: "t", type: "tool", name: "tag", arguments: { label: "x" } },
      status: "pending",
      skipCode: undefined,
      deps: [],
      approval: requested("r-t"),
    },
  ],
]);
const find = (stepId: string): DecisionTarget | undefined => table.get(stepId);

/** The error a check throws. */
function refusal(input: unknown): PlankitError {
  try {
    checkDecisions(input, find, registry);
  } catch (error) {
    if (PlankitError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** The `code: message` of the error a check throws. */
function refused(input: unknown): string {
  const error = refusal(input);
  return `${error.code}: ${error.message}`;
}

describe("checkDecisions", () => {
  it("passes approvals and denials with their steps and request ids", () => {
    expect(checkDecisions({ stepId: "a", approved: true }, find, registry)).toEqual([
      { entry: table.get("a"), requestId: "r-a", approved: true, arguments: undefined },
    ]);
    expect(
      checkDecisions(
        [
          { stepId: "a", approved: false },
          { stepId: "g", approved: false, reason: "not now", replan: true },
        ],
        find,
        registry,
      ),
    ).toEqual([
      { entry: table.get("a"), requestId: "r-a", approved: false, reason: undefined, replan: false },
      { entry: table.get("g"), requestId: "r-g", approved: false, reason: "not now", replan: true },
    ]);
    // A blank reason is no reason; one with text is kept as written.
    expect(checkDecisions({ stepId: "a", approved: false, reason: " \n" }, find, registry)[0]).toMatchObject({
      reason: undefined,
    });
    expect(checkDecisions({ stepId: "a", approved: false, reason: " no " }, find, registry)[0]).toMatchObject({
      reason: " no ",
    });
    // Only replan: true asks for a new plan.
    expect(checkDecisions({ stepId: "a", approved: false, replan: "yes" }, find, registry)[0]).toMatchObject({
      replan: false,
    });
    // A denial's edited arguments are not looked at.
    expect(checkDecisions({ stepId: "a", approved: false, arguments: "anything" }, find, registry)[0]).toMatchObject({
      approved: false,
    });
  });

  it("refuses malformed decisions, saying which one in a batch", () => {
    expect(refused("go")).toBe('invalid-approval: The decision must be an object with stepId and approved, got "go"');
    expect(refused(null)).toBe("invalid-approval: The decision must be an object with stepId and approved, got null");
    expect(refused([{ stepId: "a", approved: true }, ["a"]])).toBe(
      'invalid-approval: Decision 1 must be an object with stepId and approved, got ["a"]',
    );
    expect(refused({ approved: true })).toBe("invalid-approval: The decision needs a stepId string, got undefined");
    expect(refused([{ stepId: 1, approved: true }])).toBe("invalid-approval: Decision 0 needs a stepId string, got 1");
    expect(refused({ stepId: "a", approved: "yes" })).toBe(
      'invalid-approval: The decision for step "a" needs approved: true or false, got "yes"',
    );
    expect(refused({ stepId: "a", approved: false, reason: 5 })).toBe(
      'invalid-approval: The reason for step "a" must be a string, got 5',
    );
  });

  it("refuses a step that is unknown, not gated, decided, unasked, ended or decided twice", () => {
    expect(refused({ stepId: "z", approved: true })).toBe('invalid-approval: No step "z" in this run');
    expect(refused({ stepId: "h", approved: true })).toBe('invalid-approval: Step "h" does not need approval');
    expect(refused({ stepId: "b", approved: false })).toBe('invalid-approval: Step "b" was already approved');
    expect(refused({ stepId: "c", approved: true })).toBe('invalid-approval: Step "c" was already denied');
    expect(refused({ stepId: "d", approved: true })).toBe(
      'invalid-approval: Step "d" has not been asked for approval yet: the source that wrote it is still streaming',
    );
    expect(refused({ stepId: "e", approved: true })).toBe(
      'invalid-approval: Step "e" already ended (skipped: dependency-failed)',
    );
    expect(refused({ stepId: "f", approved: true })).toBe('invalid-approval: Step "f" already ended (running)');
    expect(
      refused([
        { stepId: "a", approved: true },
        { stepId: "a", approved: true },
      ]),
    ).toBe('invalid-approval: Step "a" is decided twice in one call');
  });

  it("passes a copy of edited arguments that fit the tool and reference only what the step depends on", () => {
    // A placeholder stands for a value still to come: "{{s0.level}}" may be an integer, "{{s0.day}}" a date.
    const edited = {
      to: "{{s0.address}}",
      text: "from {{context.user}}",
      priority: "{{s0.level}}",
      when: "{{s0.day}}",
    };
    const [checked] = checkDecisions({ stepId: "a", approved: true, arguments: edited }, find, registry);
    expect(checked).toMatchObject({ approved: true, arguments: edited });
    expect(checked?.approved === true && checked.arguments).not.toBe(edited);
  });

  it("refuses edited arguments that are not an object, cannot be copied, reference other steps or do not fit", () => {
    expect(refused({ stepId: "g", approved: true, arguments: {} })).toBe(
      'invalid-approval: Step "g" has no arguments to edit',
    );
    expect(refused({ stepId: "a", approved: true, arguments: "bob" })).toBe(
      'invalid-argument: Edited arguments of step "a" must be an object, got "bob" (/)',
    );
    expect(refused({ stepId: "a", approved: true, arguments: null })).toBe(
      'invalid-argument: Edited arguments of step "a" must be an object, got null (/)',
    );
    expect(refused({ stepId: "a", approved: true, arguments: ["bob"] })).toBe(
      'invalid-argument: Edited arguments of step "a" must be an object, got ["bob"] (/)',
    );
    const throwing = refusal({
      stepId: "a",
      approved: true,
      arguments: {
        get to(): string {
          throw new Error("boom");
        },
      },
    });
    expect(throwing.code).toBe("invalid-argument");
    expect(throwing.message).toMatch(/^Edited arguments of step "a" cannot be copied: .+ at \/to$/u);
    expect(PlankitError.isInstance(throwing.cause)).toBe(true);
    expect(refused({ stepId: "a", approved: true, arguments: { to: "x", text: ["{{s9.v}}"] } })).toBe(
      'invalid-approval: Edited arguments of step "a" reference step "s9", which it does not depend on (/text/0)',
    );
    const unfit = refusal({ stepId: "a", approved: true, arguments: { to: 42, text: 1 } });
    expect(`${unfit.code}: ${unfit.message}`).toBe(
      'invalid-argument: Edited arguments of step "a" (tool "send"): argument "to" is 42, expected string (/to); argument "text" is 1, expected string (/text)',
    );
    expect((unfit.cause as { problems: { pointer: string }[] }).problems.map((problem) => problem.pointer)).toEqual([
      "/to",
      "/text",
    ]);
    expect(
      refused({
        stepId: "a",
        approved: true,
        arguments: { to: "x", when: "on {{s0.day}}", priority: "high {{s0.level}}" },
      }),
    ).toBe(
      'invalid-argument: Edited arguments of step "a" (tool "send"): argument "priority" is "high {{s0.level}}", expected integer (/priority)',
    );
    expect(refused({ stepId: "t", approved: true, arguments: {} })).toBe(
      'invalid-argument: Edited arguments of step "t" (tool "tag"): argument "(arguments)" is {}, expected an object with at least 1 properties (/)',
    );
  });
});
