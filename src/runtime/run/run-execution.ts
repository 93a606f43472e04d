/**
 * One run of the runtime: the coordinator of the plan stream, the
 * scheduler, attempts, reflection, re-planning and the end of the run.
 * Internal: `AgentRuntime.run` drives it.
 *
 * @module
 */

import { PlankitError } from "../../errors/plankit-error.ts";
import type { ApprovalDecision } from "../../events/approval-decision.ts";
import { createRunState, type RunStateReducer } from "../../events/create-run-state.ts";
import type { RunState } from "../../events/run-state.ts";
import type { RunEndReason, RuntimeErrorInfo, RuntimeEvent, StepSkipCode } from "../../events/runtime-event.ts";
import { toErrorInfo } from "../../events/to-error-info.ts";
import type { PlanModel } from "../../model/plan-model.ts";
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import { clampTimerMs, maxTimerMs } from "../../shared/clamp-timer-ms.ts";
import { roundMs } from "../../shared/round-ms.ts";
import { answerRun, answerWithTemplate } from "./answer-run.ts";
import { Approvals } from "./approvals.ts";
import type { DistributiveOmit } from "./attempt-step.ts";
import { findDependencyCycles } from "./find-dependency-cycles.ts";
import { findRunFailure } from "./finish-run.ts";
import { guardModel } from "./guard-model.ts";
import { Planning } from "./planning.ts";
import { registerStep } from "./register-step.ts";
import { Replanning } from "./replanning.ts";
import { Replies } from "./replies.ts";
import { createStepAttempts, runAttempts, stopAttempt } from "./run-attempts.ts";
import { plannerContext, rememberRun } from "./run-context.ts";
import type { RunConfig, RunCore, RunInput } from "./run-core.ts";
import type { RunPhase } from "./run-phase.ts";
import { createSafetyPolicy, type SafetyPolicy } from "./safety-policy.ts";
import { Scheduler } from "./scheduler.ts";
import type { StepSource } from "./step-source.ts";
import { type StepEntry, StepTable } from "./step-table.ts";
import { UsageLimits } from "./usage-limits.ts";

type PendingEvent = DistributiveOmit<RuntimeEvent, "runId" | "t">;

/**
 * Runs one request. A phase machine (`planning` → `executing` ⇄
 * `replanning` → `finishing` → `ended`) over the parts that own the run's
 * state: the step table, the scheduler (with the safety policy's
 * verdicts), the approvals, the reply, the re-plans and the plan's turns.
 * It streams the plan into the table, hands each ended attempt to the
 * reflector, moves the phase on once nothing runs, answers, writes memory,
 * and stamps and emits every event through `emit`.
 */
export class RunExecution {
  readonly #config: RunConfig;
  readonly #input: RunInput;
  readonly #emit: (event: RuntimeEvent) => void;
  readonly #controller = new AbortController();
  readonly #reducer: RunStateReducer = createRunState();
  readonly #table: StepTable;
  readonly #policy: SafetyPolicy;
  readonly #limits: UsageLimits;
  readonly #core: RunCore;
  readonly #scheduler: Scheduler;
  readonly #model: PlanModel | undefined;
  readonly #approvals: Approvals;
  readonly #replies: Replies;
  readonly #replanning: Replanning;
  readonly #planning: Planning;
  #phase: RunPhase = "planning";
  #anyFailure = false;
  /** Tool and llm steps not yet ended. */
  #active = 0;
  #stopError: RuntimeErrorInfo | undefined;
  #startedAt = 0;
  #deadlineTimer: unknown;
  #settling = false;
  #settleAgain = false;
  #resolveFinished: () => void = () => undefined;
  readonly #finished: Promise<void>;

  /**
   * @param config - the runtime's settings.
   * @param input - the request.
   * @param emit - receives every event, in order.
   */
  constructor(config: RunConfig, input: RunInput, emit: (event: RuntimeEvent) => void) {
    this.#config = config;
    this.#input = input;
    this.#emit = emit;
    this.#finished = new Promise<void>((resolve) => {
      this.#resolveFinished = resolve;
    });
    const table = new StepTable(input.context);
    this.#table = table;
    this.#policy = createSafetyPolicy({ ...config, tools: config.policy });
    this.#limits = new UsageLimits(config.budget, config.maxReplans);
    // The model as reflectors, integration and llm steps see it: counted, budgeted, bounded in time.
    this.#model =
      config.model === undefined
        ? undefined
        : guardModel(config.model, this.#limits, config.modelTimeouts, config.clock);
    // The parts read the run through getters and callbacks, so each sees it as it is now: the scheduler's
    // readiness checks and the replies read this view.
    const run = this;
    const view = {
      statusOf: (id: string) => table.get(id)?.status,
      mayBeReplanned: (id: string) => run.#replanning.mayReplace(id),
      get planEnded() {
        return run.#planning.ended;
      },
      get othersSettled() {
        return run.#active === 0 && run.#phase === "executing" && !run.#replanning.due();
      },
      get phase() {
        return run.#phase;
      },
      get planSource() {
        return run.#planning.source;
      },
      get anyFailure() {
        return run.#anyFailure;
      },
      get planIssues() {
        return run.#planning.issues;
      },
    };
    this.#scheduler = new Scheduler(table, {
      view,
      maxConcurrency: config.maxConcurrency,
      refuseStart: () => this.#limits.refuseStep(),
      start: (entry) => this.#guard(runAttempts(attempts, entry)),
      safety: (entry) => this.#policy.verdictOf(entry.step, entry.source, entry.approval),
      reply: (entry) => this.#replies.run(entry),
      skip: (entry, code, reason) => this.#skip(entry, code, reason),
      holdForApproval: (entry) => this.#approvals.hold(entry),
    });
    const core: RunCore = {
      config,
      input,
      table,
      policy: this.#policy,
      limits: this.#limits,
      scheduler: this.#scheduler,
      signal: this.signal,
      emit: (event) => this.#event(event),
      isEnded: () => this.#isEnded(),
      settle: () => this.#settle(),
      skip: (entry, code, reason) => this.#skip(entry, code, reason),
    };
    this.#core = core;
    const attempts = createStepAttempts(core, this.#model, {
      succeeded: (entry, value, attempt, durationMs, cached) => {
        const freed = table.succeed(entry, value);
        this.#active--;
        this.#event({ type: "step-end", stepId: entry.step.id, attempt, result: value, durationMs, cached });
        this.#scheduler.succeeded(freed);
      },
      failed: (entry, error, attempt, durationMs) => this.#fail(entry, error, attempt, durationMs),
      stop: (message) => this.abort("failed", message),
    });
    this.#approvals = new Approvals(core, (entry) => this.#replanning.add(entry));
    this.#replies = new Replies(core, view);
    this.#replanning = new Replanning(core, {
      get replyStreaming() {
        return run.#replies.streaming;
      },
      register: (step, source) => this.#register(step, source),
      applied: (source, added) => {
        this.#phase = "executing";
        this.#approvals.requestFor(source);
        this.#scheduler.reconsider(added);
      },
    });
    this.#planning = new Planning(core, {
      context: () => plannerContext(core),
      add: (step, source) => this.#addStep(step, source),
      draft: (draft) => this.#replies.draft(draft),
      sourceEnded: (source, missing) => this.#sourceEnded(source, missing),
      release: (ids) => {
        if (this.#replanning.release(ids)) this.#scheduler.reopen("replan");
      },
      executing: () => {
        this.#phase = "executing";
      },
    });
  }

  /**
   * Whether `run-end` was emitted (read through a method, so checks after an `await` are not narrowed away).
   *
   * @returns the check.
   */
  #isEnded(): boolean {
    return this.#phase === "ended";
  }

  /** The run's abort signal: the caller's signal, the deadline, or an internal stop. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The run's state, as the `RunState` reducer builds it from the events. */
  get state(): RunState {
    return this.#reducer.state;
  }

  /**
   * Whether the run has nothing to do but wait for approval decisions: a
   * step waits for one, nothing runs, and no re-plan is out.
   */
  get waitingForApproval(): boolean {
    return (
      this.#approvals.waiting > 0 &&
      this.#scheduler.running === 0 &&
      (this.#phase === "executing" || this.#phase === "planning")
    );
  }

  /**
   * Runs to the end.
   *
   * @param signal - the caller's abort signal.
   * @param elapsedMs - time the run spent before this process; the deadline counts it.
   * @returns resolves after `run-end` was emitted.
   */
  async execute(signal: AbortSignal | undefined, elapsedMs = 0): Promise<void> {
    this.#startedAt = this.#config.clock.now();
    if (signal !== undefined) {
      if (signal.aborted) {
        this.abort("aborted", "The run was aborted before it started");
        return this.#finished;
      }
      const onAbort = (): void => this.abort("aborted", "The run was aborted");
      signal.addEventListener("abort", onAbort, { once: true });
      void this.#finished.then(() => signal.removeEventListener("abort", onAbort));
    }
    const deadlineMs = this.#config.budget.deadlineMs;
    if (deadlineMs !== undefined && deadlineMs < maxTimerMs) {
      this.#deadlineTimer = this.#config.clock.setTimeout(
        () => this.abort("deadline", `The run passed its deadline of ${deadlineMs} ms`),
        clampTimerMs(Math.max(0, deadlineMs - Math.max(elapsedMs, 0)), deadlineMs),
      );
    }
    this.#guard(this.#planning.run());
    return this.#finished;
  }

  /**
   * Applies approval decisions: all are checked first, so a refused batch changes nothing.
   *
   * @param decisions - one decision or a list.
   * @throws PlankitError `invalid-approval` or `invalid-argument`; see `checkDecisions`.
   */
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): void {
    if (this.#isEnded())
      throw new PlankitError(
        "invalid-approval",
        `Run "${this.#input.runId}" already ended; no step waits for approval`,
      );
    this.#approvals.approve(decisions);
    this.#settle();
  }

  /** Ends every request still waiting as its timeout would: its undecided steps are denied (`by: "timeout"`). */
  expireApprovals(): void {
    this.#approvals.expire();
  }

  /**
   * Stops the run at once, asking each part to stop: running attempts fail
   * with `aborted`, pending steps are skipped (and no longer wait for a
   * person), the plan ends (`plan-end` if it was not emitted, the planner
   * closed), the reply is written from what there is, and `run-end` is
   * emitted before this returns.
   *
   * @param reason - `aborted`, `deadline`, or `failed` (a reflector or an internal error).
   * @param message - what happened.
   */
  abort(reason: "aborted" | "deadline" | "failed", message: string): void {
    if (this.#isEnded()) return;
    this.#phase = "ended";
    const code = reason === "deadline" ? "timeout" : "aborted";
    const error = { code, message };
    this.#controller.abort(new PlankitError(code, message));
    for (const entry of this.#table.order) {
      if (entry.status === "running") stopAttempt(this.#core, entry, error);
      else if (entry.status === "pending") this.#skip(entry, "aborted", message);
    }
    this.#scheduler.running = 0;
    this.#planning.stop(error);
    // A deadline or a reflector's "abort" still owes the user an answer; none of it needs an await.
    if (reason !== "aborted" && !this.#replies.finishStreaming(true)) answerWithTemplate(this.#core, this.#replies);
    this.#end(reason, error);
  }

  /**
   * A source of the plan ended (a turn, or the plan): its approvals are
   * asked, its steps that waited for it are decided, and the run moves on.
   *
   * @param source - the source that ended.
   * @param missing - ids no step has, whose dependents can now be decided.
   */
  #sourceEnded(source: StepSource, missing: readonly string[] = []): void {
    this.#approvals.requestFor(source);
    this.#scheduler.sourceEnded(source);
    for (const id of missing) this.#scheduler.reconsider(this.#table.dependentsOf(id));
    this.#settle();
  }
  /** Adds a validated step from a source and starts it at once when it is ready. */
  #addStep(step: PlanStep, source: StepSource): void {
    const entry = this.#register(step, source);
    if (entry === undefined) return;
    this.#scheduler.consider(entry);
    this.#settle();
  }

  /**
   * Adds a step to the run and announces it, without deciding it (see {@link registerStep}).
   *
   * @param planned - a validated step.
   * @param source - where it came from.
   * @returns the entry, or `undefined` when it was dropped.
   */
  #register(planned: PlanStep, source: StepSource): StepEntry | undefined {
    const entry = registerStep(this.#core, this.#approvals, planned, source);
    if (entry === undefined) return undefined;
    if (entry.step.type !== "reply") this.#active++;
    this.#replies.adopt(entry);
    return entry;
  }

  /** Moves the run on after any change; re-entrant calls are folded into a loop. */
  #settle(): void {
    if (this.#settling) {
      this.#settleAgain = true;
      return;
    }
    this.#settling = true;
    try {
      do {
        this.#settleAgain = false;
        this.#settleOnce();
      } while (this.#settleAgain && this.#phase === "executing");
    } finally {
      this.#settling = false;
    }
  }

  /** Starts what is ready; once nothing runs, re-plans, replies or finishes. */
  #settleOnce(): void {
    this.#replies.advance();
    this.#scheduler.pump();
    if (this.#phase !== "executing" || this.#scheduler.running > 0) return;
    if (this.#replanning.pending > 0) {
      if (this.#replanning.possible()) {
        this.#phase = "replanning";
        this.#guard(this.#replan());
        return;
      }
      this.#replanning.giveUp();
      this.#scheduler.reopen("replan");
      this.#scheduler.pump();
      if (this.#scheduler.running > 0) return;
    }
    this.#scheduler.reopen("reply-last");
    if (this.#phase !== "executing" || this.#scheduler.running > 0) return;
    // Steps that wait for a person keep the run open: a decision, its timeout or an abort moves it on.
    if (this.#approvals.waiting > 0) return;
    // Steps that wait for one another (a planner of one's own may write a cycle) are skipped, and what needed them after them.
    const cycles = findDependencyCycles(this.#table);
    if (cycles.size > 0) {
      const members = [...cycles].map(([id, cycle]) => {
        const entry = this.#table.get(id) as StepEntry;
        this.#scheduler.forget(entry);
        this.#skip(entry, "cycle", `It waits for itself: ${cycle}`);
        return entry;
      });
      for (const entry of members) this.#scheduler.ended(entry);
      this.#settleAgain = true;
      return;
    }
    for (const entry of this.#table.order) {
      if (entry.status === "pending") this.#skip(entry, "dependency-failed", "It never became ready");
    }
    this.#phase = "finishing";
    this.#guard(this.#finish());
  }

  /** Re-plans, then goes back to executing. */
  async #replan(): Promise<void> {
    await this.#replanning.run();
    if (this.#isEnded()) return;
    this.#phase = "executing";
    this.#scheduler.reopen("replan");
    this.#settle();
  }

  /** Marks a pending step skipped, with its code and reason. */
  #skip(entry: StepEntry, code: StepSkipCode, reason: string): void {
    entry.status = "skipped";
    entry.skipCode = code;
    entry.skipReason = reason;
    if (code === "unsafe-plan" && entry.step.type !== "reply") entry.source.withheld = (entry.source.withheld ?? 0) + 1;
    this.#approvals.forget(entry);
    if (entry.step.type !== "reply") this.#active--;
    this.#event({ type: "step-skipped", stepId: entry.step.id, code, reason });
  }

  /**
   * Records a step's final failure.
   *
   * @param entry - the step.
   * @param error - the last error.
   * @param attempt - the last attempt.
   * @param durationMs - its duration.
   */
  #fail(entry: StepEntry, error: RuntimeErrorInfo, attempt: number, durationMs: number): void {
    entry.status = "failed";
    entry.error = error;
    this.#active--;
    this.#anyFailure = true;
    // A failure the planner already waits to hear of is its to deal with, not a re-plan's.
    if (!entry.handled) this.#replanning.add(entry);
    this.#event({ type: "step-error", stepId: entry.step.id, attempt, error, final: true, durationMs });
    this.#scheduler.ended(entry);
  }

  /** Emits the reply, writes memory and ends the run. */
  async #finish(): Promise<void> {
    const failure = findRunFailure(this.#table, this.#stopError, this.#planning.error);
    await answerRun(this.#core, this.#replies, this.#model, failure);
    if (this.#isEnded()) return;
    const reason: RunEndReason = this.#limits.hit ? "budget" : failure === undefined ? "completed" : "failed";
    await rememberRun(this.#core, reason, this.#reducer.state);
    if (this.#isEnded()) return;
    this.#end(reason, reason === "failed" || reason === "budget" ? failure : undefined);
  }

  /**
   * Emits `run-end` and releases the run.
   *
   * @param reason - why.
   * @param error - the error behind a failed, aborted or timed-out run.
   */
  #end(reason: RunEndReason, error: RuntimeErrorInfo | undefined): void {
    this.#phase = "ended";
    this.#approvals.close();
    if (this.#deadlineTimer !== undefined) this.#config.clock.clearTimeout(this.#deadlineTimer);
    this.#event({
      type: "run-end",
      reason,
      usage: { ...this.#limits.usage },
      durationMs: this.#elapsed(),
      ...(error === undefined || reason === "completed" ? {} : { error }),
    });
    if (!this.#controller.signal.aborted) this.#controller.abort(new PlankitError("aborted", "The run ended"));
    this.#resolveFinished();
  }

  /**
   * Stamps an event with the run id and time, applies it to the run state, and emits it.
   *
   * @param event - the event without (or with placeholder) `runId` and `t`.
   */
  #event(event: RuntimeEvent | PendingEvent): void {
    const runId = this.#input.runId;
    const t = this.#elapsed();
    // type, runId and t lead the JSON of every event.
    const ordered = Object.assign({ type: event.type, runId, t }, event, { runId, t }) as RuntimeEvent;
    this.#reducer.apply(ordered);
    this.#emit(ordered);
    this.#planning.record(ordered);
  }

  /** The time since the run started, rounded. */
  #elapsed(): number {
    return roundMs(this.#config.clock.now() - this.#startedAt);
  }

  /**
   * Runs a task of the run; an unexpected error ends the run as `failed`
   * instead of becoming an unhandled rejection.
   *
   * @param task - the task.
   */
  #guard(task: Promise<void>): void {
    task.catch((error: unknown) => {
      this.#stopError = toErrorInfo(error, "tool-error");
      this.abort("failed", `Internal error: ${this.#stopError.message}`);
    });
  }
}
