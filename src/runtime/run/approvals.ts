/**
 * A run's approvals: which steps wait for a person, what each request
 * lists, the decisions and their timeouts.
 *
 * @module
 */
import type { ApprovalDecision } from "../../events/approval-decision.ts";
import type { ApprovalRequestStep } from "../../events/runtime-event.ts";
import { canonicalJson } from "../../shared/canonical-json.ts";
import { ApprovalRequests, type CheckedDecision } from "./approval-requests.ts";
import { resolveStepInput } from "./attempt-step.ts";
import { checkDecisions } from "./check-decisions.ts";
import type { RunCore } from "./run-core.ts";
import { snapshotValue } from "./snapshot-value.ts";
import type { StepSource } from "./step-source.ts";
import type { StepEntry } from "./step-table.ts";

/**
 * The approvals of one run. A step whose tool the application's policy
 * marks is tracked when it is planned, asked for in one request when its
 * source ends cleanly (a read-only one also after an unclean end), asked
 * again just before it starts when its resolved arguments need it, and
 * decided by a person, a timeout, or the end of the run.
 *
 * @example
 * ```ts
 * const approvals = new Approvals(core, (entry) => replanning.add(entry));
 * approvals.track(entry, "plan");
 * approvals.requestFor(source);
 * ```
 */
export class Approvals {
  readonly #host: RunCore;
  readonly #replanFor: (entry: StepEntry) => void;
  readonly #requests: ApprovalRequests;
  /** Steps that need approval and were not asked yet (their source still streams). */
  #unasked: StepEntry[] = [];

  /**
   * @param core - the run.
   * @param replanFor - takes a step denied with `replan: true`: a re-plan deals with it, as with a failure.
   */
  constructor(core: RunCore, replanFor: (entry: StepEntry) => void) {
    this.#host = core;
    this.#replanFor = replanFor;
    this.#requests = new ApprovalRequests(core.config.registry, core.config.clock, core.config.approvalTimeoutMs);
  }

  /** How many steps wait for a decision now. */
  get waiting(): number {
    return this.#requests.waiting.size;
  }

  /**
   * A planned step needs approval: it is asked once its source ends.
   *
   * @param entry - the step.
   * @param mode - how it is approved.
   */
  track(entry: StepEntry, mode: "plan" | "step"): void {
    entry.approval = { mode, status: "unasked" };
    this.#unasked.push(entry);
  }

  /**
   * A source ended: one `approval-request` lists every pending step it
   * wrote that needs approval (none for steps its unclean end makes unsafe:
   * they are skipped as `unsafe-plan`).
   *
   * @param source - the source that ended.
   */
  requestFor(source: StepSource): void {
    if (this.#host.isEnded()) return;
    const asked: StepEntry[] = [];
    const later: StepEntry[] = [];
    for (const entry of this.#unasked) {
      if (entry.source !== source) later.push(entry);
      else if (
        entry.status === "pending" &&
        entry.approval?.status === "unasked" &&
        this.#host.policy.unsafeSource(entry.step, source) === undefined
      )
        asked.push(entry);
    }
    this.#unasked = later;
    if (asked.length === 0) return;
    this.#ask(
      asked,
      source.kind,
      source.attempt,
      asked.map((entry) => this.#requests.describe(entry, this.#host.table, entry.approval?.mode ?? "step")),
    );
  }

  /**
   * A ready tool step: asks for approval when its policy wants one it does
   * not have for these arguments — a function policy now answering with
   * the resolved arguments, a `"step"` approval given for other values, or
   * arguments a reflector changed, which no approval covered.
   *
   * @param entry - a ready tool step.
   * @returns whether it must wait.
   */
  hold(entry: StepEntry): boolean {
    const { policy, table } = this.#host;
    const gate = entry.approval;
    const varies = policy.approvalVaries(entry.step);
    if (gate === undefined && !varies) return false;
    const changed = entry.overrides !== undefined;
    if (gate?.status === "approved" && gate.mode === "plan" && !varies && !changed) return false;
    const resolved = resolveStepInput(entry, table.results);
    // A step whose references fail never reaches its tool: it fails on its own.
    if (!resolved.ok) return false;
    const input = resolved.input as Record<string, unknown>;
    const mode = varies ? policy.approvalOf(entry.step, input, true) : gate?.mode;
    if (gate?.status === "approved") {
      const strict = gate.mode === "step" || mode === "step" || changed;
      if (!strict || canonicalJson(input) === canonicalJson(gate.shown)) return false;
    } else if (mode === undefined) {
      return false;
    }
    const item = this.#requests.describe(entry, table, mode ?? "step");
    item.arguments = input;
    item.waiting = [];
    this.#ask([entry], "step", 1, [item]);
    return true;
  }

  /**
   * Applies decisions: all are checked first, so a refused batch changes nothing.
   *
   * @param decisions - one decision or a list.
   * @throws PlankitError `invalid-approval` or `invalid-argument`; see `checkDecisions`.
   */
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): void {
    const { table, config } = this.#host;
    // All are checked before any applies (see `checkDecisions`).
    const checked = checkDecisions(decisions, (stepId) => table.get(stepId), config.registry);
    for (const decision of checked) this.#decide(decision, "caller");
  }

  /** Ends every request still waiting as its timeout would: its undecided steps are denied (`by: "timeout"`). */
  expire(): void {
    if (this.#host.isEnded()) return;
    const requests = new Set<string>();
    for (const entry of this.#requests.waiting)
      if (entry.approval?.status === "requested") requests.add(entry.approval.requestId);
    for (const requestId of requests) this.#timeOut(requestId);
  }

  /**
   * A step ended some other way (skipped, aborted, replaced): it no longer waits.
   *
   * @param entry - the step.
   */
  forget(entry: StepEntry): void {
    if (!this.#requests.waiting.delete(entry)) return;
    const gate = entry.approval;
    if (gate?.status === "requested") this.#requests.settled(gate.requestId);
  }

  /** Stops every timer (the run ended). */
  close(): void {
    this.#requests.close();
  }

  /**
   * Emits one request for the given steps and marks them asked.
   *
   * @param entries - the steps.
   * @param source - what wrote them, or `step` for a step asking again.
   * @param attempt - the turn or re-plan number.
   * @param items - what the request lists for each.
   */
  #ask(entries: StepEntry[], source: "plan" | "replan" | "step", attempt: number, items: ApprovalRequestStep[]): void {
    const requestId = this.#requests.nextRequestId();
    // Frozen: what a consumer does to the request cannot change what the step is compared with later.
    const listed = snapshotValue(items, {
      freeze: true,
      what: "An approval request",
    }) as readonly ApprovalRequestStep[];
    entries.forEach((entry, index) => {
      const item = listed[index] as ApprovalRequestStep;
      entry.approval = { mode: item.mode, status: "requested", requestId, shown: item.arguments };
      this.#requests.waiting.add(entry);
    });
    const timeoutMs = this.#requests.timeoutMs;
    this.#host.emit({
      type: "approval-request",
      requestId,
      source,
      attempt,
      steps: [...listed],
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    this.#requests.startTimer(requestId, () => this.#timeOut(requestId));
  }

  /**
   * Applies one checked decision.
   *
   * @param decision - the decision.
   * @param by - who decided.
   */
  #decide(decision: CheckedDecision, by: "caller" | "timeout"): void {
    const { entry, requestId } = decision;
    const { scheduler, table } = this.#host;
    const gate = entry.approval;
    const mode = gate?.mode ?? "step";
    this.#requests.waiting.delete(entry);
    // An earlier decision of the same batch may have ended it (a denied dependency): the decision is recorded, nothing more.
    const open = entry.status === "pending";
    let detail = {};
    if (decision.approved) {
      if (decision.arguments !== undefined) {
        const edited = snapshotValue(decision.arguments, {
          freeze: true,
          what: `Edited arguments of step "${entry.step.id}"`,
        }) as Record<string, unknown>;
        entry.edited = edited;
        // The edit replaces the whole object, a reflector's changes included: what the person wrote is what runs.
        entry.overrides = undefined;
        detail = { arguments: edited };
      }
      const shown =
        decision.arguments === undefined && gate?.status === "requested"
          ? gate.shown
          : this.#requests.describe(entry, table, mode).arguments;
      entry.approval = { mode, status: "approved", requestId, shown };
    } else {
      if (decision.reason !== undefined) detail = { reason: decision.reason };
      entry.approval = { mode, status: "denied", requestId, reason: decision.reason };
    }
    this.#host.emit({
      type: "approval-decision",
      requestId,
      stepId: entry.step.id,
      approved: decision.approved,
      by,
      ...detail,
    });
    this.#requests.settled(requestId);
    if (!open) return;
    if (decision.approved) {
      scheduler.reconsider([entry]);
      return;
    }
    // Denied with `replan`: like a failure, its dependents wait for the patch that may replace them.
    const why = decision.reason === undefined ? "" : `: ${decision.reason}`;
    entry.error = { code: "denied", message: `Step "${entry.step.id}" was denied${why}` };
    entry.handled = !decision.replan;
    if (decision.replan) this.#replanFor(entry);
    scheduler.forget(entry);
    this.#host.skip(entry, "denied", decision.reason ?? "It was denied");
    scheduler.ended(entry);
  }

  /**
   * A request timed out: its undecided steps are denied.
   *
   * @param requestId - the request.
   */
  #timeOut(requestId: string): void {
    if (this.#host.isEnded()) return;
    const reason = `No decision within ${this.#requests.timeoutMs ?? 0} ms`;
    for (const entry of [...this.#requests.waiting]) {
      if (entry.approval?.status !== "requested" || entry.approval.requestId !== requestId) continue;
      this.#decide({ entry, requestId, approved: false, reason, replan: false }, "timeout");
    }
    this.#host.settle();
  }
}
