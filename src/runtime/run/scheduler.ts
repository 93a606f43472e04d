/**
 * The ready set: which steps start, in what order, within the concurrency limit.
 *
 * @module
 */
import type { StepSkipCode } from "../../events/runtime-event.ts";
import { type Readiness, type ReadinessView, readinessOf, type WaitReason } from "./readiness.ts";
import type { SafetyVerdict } from "./safety-policy.ts";
import type { StepSource } from "./step-source.ts";
import type { StepEntry, StepTable } from "./step-table.ts";

/** What the scheduler asks of the run. */
export interface SchedulerHooks {
  /** The run around the steps, for {@link readinessOf}. */
  readonly view: ReadinessView;
  /** The most tool and llm steps running at once. */
  readonly maxConcurrency: number;
  /** Counts a step start against the budget, or says why it may not start. */
  refuseStart(entry: StepEntry): string | undefined;
  /** Starts a tool or llm step (already marked running). */
  start(entry: StepEntry): void;
  /** The safety policy's verdict on a step whose dependencies are met (see `SafetyPolicy.verdictOf`). */
  safety(entry: StepEntry): SafetyVerdict;
  /** Resolves a ready reply step. */
  reply(entry: StepEntry): void;
  /** Marks a pending step skipped and emits it. */
  skip(entry: StepEntry, code: StepSkipCode, reason: string): void;
  /**
   * A tool step is ready: whether it must first be approved (again) with
   * the arguments it would start with. `true` holds it until {@link Scheduler.reconsider}.
   */
  holdForApproval(entry: StepEntry): boolean;
}

/**
 * Keeps the ready set with dependency counters: a step is looked at when it
 * is added, when its last dependency succeeds, when a dependency fails or is
 * skipped, or when the gate it waits at opens (its source ended, a re-plan
 * was settled, every other step ended). So scheduling costs
 * O(steps + references) over a run, not a scan of every step per change.
 *
 * @example
 * ```ts
 * const scheduler = new Scheduler(table, hooks);
 * scheduler.consider(table.add(step, source, traits));
 * scheduler.pump();
 * ```
 */
export class Scheduler {
  /** Tool and llm steps running now. */
  running = 0;
  readonly #table: StepTable;
  readonly #hooks: SchedulerHooks;
  /** Ready steps waiting for a free slot, in the order they became ready. */
  readonly #queue = new Set<StepEntry>();
  /** Where each waiting step waits: its source while that streams, or the gate (`replan`, `reply-last`, `approval`). */
  readonly #parked = new Map<StepEntry, StepSource | WaitReason>();
  /** The steps waiting at each source or gate. */
  readonly #waitingAt = new Map<StepSource | WaitReason, Set<StepEntry>>();
  readonly #work: StepEntry[] = [];
  #draining = false;

  /**
   * @param table - the run's steps.
   * @param hooks - what the scheduler asks of the run.
   */
  constructor(table: StepTable, hooks: SchedulerHooks) {
    this.#table = table;
    this.#hooks = hooks;
  }

  /**
   * Looks at a pending step (new, or something it waits on changed).
   *
   * @param entry - the step.
   */
  consider(entry: StepEntry): void {
    this.reconsider([entry]);
  }

  /**
   * A step succeeded: looks at the dependents it freed.
   *
   * @param freed - dependents with no unmet dependency left.
   */
  succeeded(freed: readonly StepEntry[]): void {
    this.reconsider(freed);
  }

  /**
   * A step failed or was skipped: looks at its dependents.
   *
   * @param entry - the step.
   */
  ended(entry: StepEntry): void {
    this.reconsider(this.#table.dependentsOf(entry.step.id));
  }

  /**
   * A source ended: looks at the steps that waited for it.
   *
   * @param source - the source.
   */
  sourceEnded(source: StepSource): void {
    this.reopen(source);
  }

  /**
   * A gate opened: looks at the steps waiting at it.
   *
   * @param gate - `replan` (a failure was dealt with), `reply-last` (every other step ended), or a source that ended.
   */
  reopen(gate: "replan" | "reply-last" | StepSource): void {
    const waiting = this.#waitingAt.get(gate);
    if (waiting === undefined) return;
    this.#waitingAt.delete(gate);
    this.reconsider(waiting);
  }

  /**
   * Looks at the given steps (pending ones only).
   *
   * @param entries - steps whose surroundings changed.
   */
  reconsider(entries: Iterable<StepEntry>): void {
    for (const entry of entries) this.#work.push(entry);
    this.#drain();
  }

  /**
   * Forgets a step that ended outside the scheduler (a denial), so no gate keeps it.
   *
   * @param entry - the step.
   */
  forget(entry: StepEntry): void {
    this.#unpark(entry);
  }

  /** Starts queued steps while the concurrency limit allows. */
  pump(): void {
    // A set iterates in insertion order and visits what is added while it iterates.
    for (const entry of this.#queue) {
      if (this.running >= this.#hooks.maxConcurrency) return;
      this.#queue.delete(entry);
      if (entry.status !== "pending") continue;
      // A step started before (a reflector's retry) was counted then.
      const refusal = entry.attempts > 0 ? undefined : this.#hooks.refuseStart(entry);
      if (refusal !== undefined) {
        this.#hooks.skip(entry, "budget", refusal);
        this.ended(entry);
        continue;
      }
      this.running++;
      entry.status = "running";
      this.#hooks.start(entry);
    }
  }

  /** Looks at every step in the work list; skips cascade through it without recursion. */
  #drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    try {
      // First in, first out: steps start in the order they became ready.
      for (let index = 0; index < this.#work.length; index++) this.#evaluate(this.#work[index] as StepEntry);
    } finally {
      this.#work.length = 0;
      this.#draining = false;
    }
  }

  /**
   * Decides one step.
   *
   * @param entry - the step.
   */
  #evaluate(entry: StepEntry): void {
    if (entry.status !== "pending" || this.#queue.has(entry)) return;
    this.#unpark(entry);
    let readiness: Readiness | SafetyVerdict = readinessOf(entry, this.#hooks.view);
    // Dependencies first, then safety: a step already streaming its reply (`fixed`) has nothing left to ask.
    if (readiness.kind === "ready" && !entry.fixed) readiness = this.#hooks.safety(entry);
    if (readiness.kind === "skip") {
      this.#hooks.skip(entry, readiness.code, readiness.reason);
      for (const dependent of this.#table.dependentsOf(entry.step.id)) this.#work.push(dependent);
      return;
    }
    if (readiness.kind === "ready") {
      if (entry.step.type === "reply") {
        this.#hooks.reply(entry);
        return;
      }
      if (entry.step.type === "tool" && this.#hooks.holdForApproval(entry)) {
        this.#park(entry, "approval");
        return;
      }
      this.#queue.add(entry);
      return;
    }
    this.#park(entry, readiness.reason);
  }

  /**
   * Remembers where a step waits, so the right event wakes it.
   *
   * @param entry - the step.
   * @param reason - why it waits.
   */
  #park(entry: StepEntry, reason: WaitReason): void {
    if (reason === "dependencies") return;
    const gate = reason === "source" ? entry.source : reason;
    this.#parked.set(entry, gate);
    const waiting = this.#waitingAt.get(gate);
    if (waiting === undefined) this.#waitingAt.set(gate, new Set([entry]));
    else waiting.add(entry);
  }

  /**
   * Forgets where a step waited.
   *
   * @param entry - the step.
   */
  #unpark(entry: StepEntry): void {
    const gate = this.#parked.get(entry);
    if (gate === undefined) return;
    this.#parked.delete(entry);
    this.#waitingAt.get(gate)?.delete(entry);
  }
}
