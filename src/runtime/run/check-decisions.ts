/**
 * The one check every approval decision passes, live or against a log.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";
import type { StepSkipCode } from "../../events/runtime-event.ts";
import { CONTEXT_REFERENCE_ROOT } from "../../plan/context-reference-root.ts";
import { findReferences } from "../../plan/find-references.ts";
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import { describeValue } from "../../shared/describe-value.ts";
import { isRecord } from "../../shared/is-record.ts";
import type { ToolRegistry } from "../../tools/tool-registry.ts";
import { snapshotValue } from "./snapshot-value.ts";
import type { ApprovalState, EntryStatus } from "./step-table.ts";

/** What a decision is checked against: a step, where it stands, what it depends on, and its approval. */
export interface DecisionTarget {
  readonly step: PlanStep;
  readonly status: EntryStatus;
  readonly skipCode?: StepSkipCode | undefined;
  /** The ids it references or depends on. */
  readonly deps: readonly string[];
  readonly approval?: ApprovalState | undefined;
}

/** A decision that passed every check, with its step. */
export type CheckedDecision<T extends DecisionTarget> =
  | { entry: T; requestId: string; approved: true; arguments: Record<string, unknown> | undefined }
  | { entry: T; requestId: string; approved: false; reason: string | undefined; replan: boolean };

/**
 * Checks edited arguments: a plain JSON object, references only to steps
 * the step already depends on, and valid for the tool's input schema.
 *
 * @param entry - the step.
 * @param edited - the arguments a person sent.
 * @param registry - the tools.
 * @returns a copy of them.
 */
function checkArguments(entry: DecisionTarget, edited: unknown, registry: ToolRegistry): Record<string, unknown> {
  const step = entry.step;
  if (step.type !== "tool") throw new PlankitError("invalid-approval", `Step "${step.id}" has no arguments to edit`);
  if (!isRecord(edited)) {
    throw new PlankitError(
      "invalid-argument",
      `Edited arguments of step "${step.id}" must be an object, got ${describeValue(edited)} (/)`,
    );
  }
  let copy: Record<string, unknown>;
  try {
    copy = snapshotValue(edited, { freeze: false, what: `Edited arguments of step "${step.id}"` }) as Record<
      string,
      unknown
    >;
  } catch (error) {
    throw new PlankitError("invalid-argument", (error as Error).message, { cause: error });
  }
  const exact = new Set<string>();
  const embedded = new Set<string>();
  for (const reference of findReferences(copy)) {
    if (reference.id !== CONTEXT_REFERENCE_ROOT && !entry.deps.includes(reference.id)) {
      throw new PlankitError(
        "invalid-approval",
        `Edited arguments of step "${step.id}" reference step "${reference.id}", which it does not depend on (${reference.pointer})`,
      );
    }
    (reference.exact ? exact : embedded).add(reference.pointer);
  }
  const problems = registry.catalog().checkArguments(step.name, copy, { exact, embedded });
  if (problems.length > 0) {
    const text = problems
      .map((problem) => `${problem.text} (${problem.pointer === "" ? "/" : problem.pointer})`)
      .join("; ");
    throw new PlankitError("invalid-argument", `Edited arguments of step "${step.id}" (tool "${step.name}"): ${text}`, {
      cause: { problems },
    });
  }
  return copy;
}

/**
 * Checks a batch of decisions; nothing is applied unless all pass. The
 * live run (`ApprovalRequests`) and a check against a log
 * (`checkApprovalDecisions`) both call it, so they refuse the same
 * decisions with the same messages.
 *
 * @param input - one decision or a list.
 * @param find - the step with an id, or `undefined`.
 * @param registry - the tools, for edited arguments.
 * @returns the decisions with their steps.
 * @throws PlankitError `invalid-approval` for a malformed decision, a step that is unknown, not waiting, or decided twice; `invalid-argument` for edited arguments that do not fit the tool's schema (naming the JSON Pointer and the value).
 *
 * @example
 * ```ts
 * const checked = checkDecisions([{ stepId: "s2", approved: true }], (id) => table.get(id), registry);
 * ```
 */
export function checkDecisions<T extends DecisionTarget>(
  input: unknown,
  find: (stepId: string) => T | undefined,
  registry: ToolRegistry,
): CheckedDecision<T>[] {
  const list: unknown[] = Array.isArray(input) ? input : [input];
  const seen = new Set<string>();
  return list.map((decision, index): CheckedDecision<T> => {
    const where = Array.isArray(input) ? `Decision ${index}` : "The decision";
    if (!isRecord(decision)) {
      throw new PlankitError(
        "invalid-approval",
        `${where} must be an object with stepId and approved, got ${describeValue(decision)}`,
      );
    }
    const { stepId, approved, reason, arguments: edited, replan } = decision as Record<string, unknown>;
    if (typeof stepId !== "string")
      throw new PlankitError("invalid-approval", `${where} needs a stepId string, got ${describeValue(stepId)}`);
    if (typeof approved !== "boolean")
      throw new PlankitError(
        "invalid-approval",
        `${where} for step "${stepId}" needs approved: true or false, got ${describeValue(approved)}`,
      );
    if (seen.has(stepId)) throw new PlankitError("invalid-approval", `Step "${stepId}" is decided twice in one call`);
    seen.add(stepId);
    const entry = find(stepId);
    if (entry === undefined) throw new PlankitError("invalid-approval", `No step "${stepId}" in this run`);
    const gate = entry.approval;
    if (gate === undefined) throw new PlankitError("invalid-approval", `Step "${stepId}" does not need approval`);
    if (gate.status === "approved" || gate.status === "denied")
      throw new PlankitError("invalid-approval", `Step "${stepId}" was already ${gate.status}`);
    if (gate.status === "unasked")
      throw new PlankitError(
        "invalid-approval",
        `Step "${stepId}" has not been asked for approval yet: the source that wrote it is still streaming`,
      );
    if (entry.status !== "pending")
      throw new PlankitError(
        "invalid-approval",
        `Step "${stepId}" already ended (${entry.status}${entry.skipCode === undefined ? "" : `: ${entry.skipCode}`})`,
      );
    if (!approved) {
      if (reason !== undefined && typeof reason !== "string")
        throw new PlankitError(
          "invalid-approval",
          `The reason for step "${stepId}" must be a string, got ${describeValue(reason)}`,
        );
      // A blank reason is no reason: nothing is invented in its place.
      const given = reason?.trim() === "" ? undefined : reason;
      return { entry, requestId: gate.requestId, approved: false, reason: given, replan: replan === true };
    }
    if (edited === undefined) return { entry, requestId: gate.requestId, approved: true, arguments: undefined };
    return { entry, requestId: gate.requestId, approved: true, arguments: checkArguments(entry, edited, registry) };
  });
}
