/**
 * Whether a step's dependencies let it start, and if not, why.
 *
 * @module
 */
import type { StepSkipCode } from "../../events/runtime-event.ts";
import type { EntryStatus, StepEntry } from "./step-table.ts";

/**
 * Why a step waits:
 *
 * - `dependencies` — a step it references has not succeeded yet;
 * - `source` — it has side effects and its source (plan, repair, patch) is still streaming;
 * - `replan` — a step it references failed and a re-plan may still replace it;
 * - `reply-last` — a reply waits until every other step ended;
 * - `approval` — a person has not approved it yet.
 *
 * `source` and `approval` are the safety policy's (`SafetyPolicy.verdictOf`); the others are this module's.
 */
export type WaitReason = "dependencies" | "source" | "replan" | "reply-last" | "approval";

/** The verdict on a pending step. */
export type Readiness =
  | { kind: "ready" }
  | { kind: "wait"; reason: WaitReason }
  | { kind: "skip"; code: StepSkipCode; reason: string };

/** What readiness looks at besides the step. */
export interface ReadinessView {
  /** The status of a step, or `undefined` for an id no step has (yet). */
  statusOf(id: string): EntryStatus | undefined;
  /** Whether a failed (or denied-for-a-re-plan) step may still be replaced by a re-plan (not yet dealt with, and re-plans left). */
  mayBeReplanned(id: string): boolean;
  /** Whether the plan finished streaming (an unknown id can no longer appear). */
  planEnded: boolean;
  /** Whether every other step ended and no re-plan is due (for reply steps). */
  othersSettled: boolean;
}

/**
 * Decides whether a pending step's dependencies let it start. Pure: the
 * same step and view always give the same answer. Whether the safety
 * policy lets it start is the policy's question, asked after this one.
 *
 * 1. A missing id (once it can no longer appear), a skipped dependency, or
 *    a failed one no re-plan will replace, skips it; one still running or
 *    failing-but-replannable makes it wait.
 * 2. A reply depends on every other step: it waits until they all ended;
 *    one already streaming (`fixed`) waits for nothing else and is never
 *    skipped.
 *
 * @param entry - a pending step.
 * @param view - the state of the run around it.
 * @returns the verdict.
 *
 * @example
 * ```ts
 * readinessOf(entry, { statusOf: (id) => table.get(id)?.status, mayBeReplanned: () => true, planEnded: false, othersSettled: false });
 * ```
 */
export function readinessOf(entry: StepEntry, view: ReadinessView): Readiness {
  // A reply already streaming is completed whatever its references did: they are written as notes.
  if (entry.fixed) return view.othersSettled ? { kind: "ready" } : { kind: "wait", reason: "reply-last" };
  let waitingFor: WaitReason | undefined;
  const known = view.planEnded || entry.source.state !== "streaming" || entry.source.kind === "replan";
  for (const id of entry.deps) {
    const status = view.statusOf(id);
    if (status === "succeeded") continue;
    if (status === undefined) {
      if (known)
        return {
          kind: "skip",
          code: "unknown-dependency",
          reason: `It depends on step "${id}", which is not in the plan`,
        };
      waitingFor ??= "dependencies";
    } else if (status === "skipped" || status === "failed") {
      if (!view.mayBeReplanned(id)) {
        const what = status === "failed" ? "failed" : "was skipped";
        return { kind: "skip", code: "dependency-failed", reason: `It depends on step "${id}", which ${what}` };
      }
      waitingFor = "replan";
    } else {
      waitingFor ??= "dependencies";
    }
  }
  if (waitingFor !== undefined) return { kind: "wait", reason: waitingFor };
  if (entry.step.type === "reply" && !view.othersSettled) return { kind: "wait", reason: "reply-last" };
  return { kind: "ready" };
}
