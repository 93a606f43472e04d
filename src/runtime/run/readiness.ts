/**
 * May a step start now, and if not, why.
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
 */
export type WaitReason = "dependencies" | "source" | "replan" | "reply-last" | "approval";

/** The verdict on a pending step. */
export type Readiness = { kind: "ready" } | { kind: "wait"; reason: WaitReason } | { kind: "skip"; code: StepSkipCode; reason: string };

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
 * Decides whether a pending step may start. Pure: the same step and view
 * always give the same answer.
 *
 * 1. Dependencies first: a missing id (once it can no longer appear), or a
 *    skipped dependency, or a failed one no re-plan will replace, skips it;
 *    one still running or failing-but-replannable makes it wait.
 * 2. A reply waits until every other step ended; one already streaming
 *    (`fixed`) waits for nothing else and is never skipped. A reply whose
 *    unclean source had side-effecting steps skipped is skipped too
 *    (`unsafe-plan`): it would report them done.
 * 3. A side-effecting step whose source ended unclean is skipped (`unsafe-plan`).
 * 4. A step that needs approval is skipped once denied; otherwise it waits
 *    for its source to end (it is asked then) and for the approval, even
 *    when it is read-only or `eager` is `"all"`.
 * 5. One the policy does not let start early waits until its source ended cleanly.
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
      if (known) return { kind: "skip", code: "unknown-dependency", reason: `It depends on step "${id}", which is not in the plan` };
      waitingFor ??= "dependencies";
    } else if (status === "skipped") {
      if (!view.mayBeReplanned(id)) return { kind: "skip", code: "dependency-failed", reason: `It depends on step "${id}", which was skipped` };
      waitingFor = "replan";
    } else if (status === "failed") {
      if (!view.mayBeReplanned(id)) return { kind: "skip", code: "dependency-failed", reason: `It depends on step "${id}", which failed` };
      waitingFor = "replan";
    } else {
      waitingFor ??= "dependencies";
    }
  }
  if (waitingFor !== undefined) return { kind: "wait", reason: waitingFor };
  if (entry.step.type === "reply") {
    if (!view.othersSettled) return { kind: "wait", reason: "reply-last" };
    const withheld = entry.source.withheld ?? 0;
    if (withheld > 0) {
      return { kind: "skip", code: "unsafe-plan", reason: `It reports on a plan whose ${withheld} side-effecting step${withheld === 1 ? "" : "s"} did not run: the ${sourceName(entry)} did not finish cleanly` };
    }
    return { kind: "ready" };
  }
  if (entry.source.state === "unclean" && !entry.readOnly) {
    return { kind: "skip", code: "unsafe-plan", reason: `It has side effects and the ${sourceName(entry)} did not finish cleanly` };
  }
  const approval = entry.approval;
  if (approval !== undefined && approval.status !== "approved") {
    if (approval.status === "denied") return { kind: "skip", code: "denied", reason: approval.reason };
    return { kind: "wait", reason: entry.source.state === "streaming" ? "source" : "approval" };
  }
  if (entry.early || entry.source.state !== "streaming") return { kind: "ready" };
  return { kind: "wait", reason: "source" };
}

/**
 * The source of a step, in words.
 *
 * @param entry - a step.
 * @returns "plan" or "re-plan N patch".
 */
function sourceName(entry: StepEntry): string {
  return entry.source.kind === "plan" ? "plan" : `re-plan ${entry.source.attempt} patch`;
}
