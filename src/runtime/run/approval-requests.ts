/**
 * Approval requests of a run: what they list and when they time out.
 *
 * @module
 */
import type { ApprovalRequestStep } from "../../events/runtime-event.ts";
import { findReferences } from "../../plan/find-references.ts";
import { resolveReferences } from "../../plan/resolve-references.ts";
import type { ToolStep } from "../../plan/tool-step-schema.ts";
import type { RuntimeClock } from "../../shared/runtime-clock.ts";
import type { ToolRegistry } from "../../tools/tool-registry.ts";
import type { CheckedDecision as CheckedDecisionOf } from "./check-decisions.ts";
import { snapshotValue } from "./snapshot-value.ts";
import type { StepEntry, StepTable } from "./step-table.ts";

/** A decision that passed every check, ready to apply. */
export type CheckedDecision = CheckedDecisionOf<StepEntry>;

/**
 * Keeps the approval requests of one run: numbers them, builds what each
 * lists and runs the timeout of each request.
 *
 * @example
 * ```ts
 * const requests = new ApprovalRequests(registry, clock, 60_000);
 * const item = requests.describe(entry, table);
 * ```
 */
export class ApprovalRequests {
  readonly #registry: ToolRegistry;
  readonly #clock: RuntimeClock;
  readonly #timeoutMs: number | undefined;
  readonly #timers = new Map<string, unknown>();
  #requests = 0;
  /** Steps asked and not yet decided. */
  readonly waiting = new Set<StepEntry>();

  /**
   * @param registry - the tools, for descriptions and schemas.
   * @param clock - timers.
   * @param timeoutMs - how long a request waits before its undecided steps are denied; `undefined` waits until the run ends.
   */
  constructor(registry: ToolRegistry, clock: RuntimeClock, timeoutMs: number | undefined) {
    this.#registry = registry;
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
  }

  /** The request timeout, if there is one. */
  get timeoutMs(): number | undefined {
    return this.#timeoutMs;
  }

  /**
   * Numbers the next request.
   *
   * @returns `a1`, `a2`, …
   */
  nextRequestId(): string {
    return `a${++this.#requests}`;
  }

  /**
   * What a request lists for one tool step: its arguments as far as the
   * results so far resolve them, and the references still waited on.
   *
   * @param entry - a pending tool step.
   * @param table - the run's steps and results.
   * @param mode - how it is approved.
   * @returns the item.
   */
  describe(entry: StepEntry, table: StepTable, mode: "plan" | "step"): ApprovalRequestStep {
    // Only tool steps get an approval: the policy answers for tools alone, and the scheduler asks again for tools alone.
    const step = entry.step as ToolStep;
    const planned = entry.edited ?? step.arguments;
    const known = resolveReferences(planned, table.results, { missing: "keep" }) as Record<string, unknown>;
    const waiting = findReferences(planned)
      .filter((reference) => !table.results.has(reference.id))
      .map((reference) => ({ pointer: reference.pointer, reference: reference.source }));
    return {
      stepId: step.id,
      tool: step.name,
      description: step.description ?? this.#registry.get(step.name)?.description ?? "",
      arguments: snapshotValue(known, { freeze: false, what: `The arguments of step "${step.id}"` }) as Record<
        string,
        unknown
      >,
      waiting,
      mode,
    };
  }

  /**
   * Starts the timeout of a request, when there is one.
   *
   * @param requestId - the request.
   * @param onTimeout - called once when it passes.
   */
  startTimer(requestId: string, onTimeout: () => void): void {
    const timeoutMs = this.#timeoutMs;
    if (timeoutMs === undefined) return;
    this.#timers.set(
      requestId,
      this.#clock.setTimeout(() => {
        this.#timers.delete(requestId);
        onTimeout();
      }, timeoutMs),
    );
  }

  /**
   * Stops a request's timer once none of its steps waits any more.
   *
   * @param requestId - the request.
   */
  settled(requestId: string): void {
    for (const entry of this.waiting)
      if (entry.approval?.status === "requested" && entry.approval.requestId === requestId) return;
    const timer = this.#timers.get(requestId);
    if (timer === undefined) return;
    this.#clock.clearTimeout(timer);
    this.#timers.delete(requestId);
  }

  /** Stops every timer (the run ended). */
  close(): void {
    for (const timer of this.#timers.values()) this.#clock.clearTimeout(timer);
    this.#timers.clear();
  }
}
