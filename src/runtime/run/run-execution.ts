/**
 * One run of the runtime: the coordinator of the plan stream, the
 * scheduler, attempts, reflection, re-planning and the end of the run.
 * Internal: `AgentRuntime.run` drives it.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";
import type { PlanModel, PlanModelPart, PlanModelRequest } from "../../model/plan-model.ts";
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import type { PlannerEvent, PlannerProfile, StepOutcome } from "../../planner/planner-event.ts";
import type { Planner } from "../../planner/planner.ts";
import type { ToolRegistry } from "../../tools/tool-registry.ts";
import type { BackoffPolicy } from "../compute-backoff.ts";
import { createRunState, type RunStateReducer } from "../../events/create-run-state.ts";
import type { MemoryStore } from "../memory-store.ts";
import type { Reflector } from "../../planner/reflector.ts";
import type { ResultCache } from "../result-cache.ts";
import type { RunState } from "../../events/run-state.ts";
import type { RuntimeBudget } from "../runtime-budget.ts";
import type { RuntimeClock } from "../../shared/runtime-clock.ts";
import type { RunEndReason, RuntimeErrorInfo, RuntimeEvent, StepSkipCode } from "../../events/runtime-event.ts";
import type { StepExecutor } from "../step-executor.ts";
import type { ToolPolicy } from "../tool-policy.ts";
import { truncateJson } from "../../shared/truncate-json.ts";
import type { ApprovalDecision } from "../../events/approval-decision.ts";
import { Approvals } from "./approvals.ts";
import type { AttemptContext, DistributiveOmit } from "./attempt-step.ts";
import { executeStep, type ExecutorSetup } from "./execute-step.ts";
import { integrateAnswer } from "./integrate-answer.ts";
import { readPlannerEvents, type PlannerDone, type PlannerReadOptions } from "./read-planner-events.ts";
import { readMemoryContext, writeRunMemory, type MemoryAccess } from "./run-memory.ts";
import { boundStream, type ModelTimeouts } from "../../model/bound-stream.ts";
import { BudgetMeter } from "./budget-meter.ts";
import { clampTimerMs, maxTimerMs } from "../../shared/clamp-timer-ms.ts";
import { buildIntegrationPrompt } from "../../planner/build-integration-prompt.ts";
import { buildMemoryEntries, findRunFailure, integrationResults, renderTemplateReply } from "./finish-run.ts";
import { reflectOnFailure } from "./reflect-on-failure.ts";
import { Replanning } from "./replanning.ts";
import { Replies } from "./replies.ts";
import { createRetryingExecutor } from "./retrying-executor.ts";
import type { RunPhase } from "./run-phase.ts";
import { createRunResultCache, type RunResultCache, type SideEffectCounter } from "./run-result-cache.ts";
import { createSafetyPolicy, type SafetyPolicy } from "./safety-policy.ts";
import { snapshotValue } from "./snapshot-value.ts";
import { Scheduler } from "./scheduler.ts";
import type { StepSource } from "./step-source.ts";
import { StepTable, type StepEntry } from "./step-table.ts";
import { toErrorInfo } from "../../events/to-error-info.ts";
import { Turns } from "./turns.ts";

/** Everything a run needs, with defaults applied. */
export interface RunConfig {
  planner: Planner;
  registry: ToolRegistry;
  profile: PlannerProfile | string | undefined;
  memory: MemoryStore | undefined;
  reflector: Reflector | undefined;
  model: PlanModel | undefined;
  eager: "safe" | "all" | "none";
  maxConcurrency: number;
  timeoutMs: number;
  retries: number;
  backoff: BackoffPolicy;
  maxReplans: number;
  reflectionRetries: number;
  budget: RuntimeBudget;
  /** A cache shared across runs (opt-in); `undefined` keeps reuse within the run. */
  sharedCache: ResultCache | undefined;
  /** Side effects ended across the runtime's runs: a result read before one is not reused by any run. */
  sideEffects: SideEffectCounter;
  /** `false` turns every cache off. */
  caching: boolean;
  integrate: "model" | "template";
  clock: RuntimeClock;
  random: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  executeStep: StepExecutor | undefined;
  /** The application's per-tool policy. */
  policy: Readonly<Record<string, ToolPolicy>>;
  /** Limits of every model call the runtime makes. */
  modelTimeouts: ModelTimeouts;
  /** The longest a memory read or write may take. */
  memoryTimeoutMs: number;
  /** When a reply step's text starts streaming: once nothing can replace it, or as soon as the plan ended cleanly. */
  replyStreaming: "safe" | "early";
  /** How long an approval request waits before its undecided steps are denied; `undefined` waits until the run ends. */
  approvalTimeoutMs: number | undefined;
}

/** What a run is asked. */
export interface RunInput {
  runId: string;
  query: string;
  /** Earlier turns of the conversation, for the planner's context. */
  history: string;
  context: Record<string, unknown>;
}

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
  readonly #meter: BudgetMeter;
  readonly #scheduler: Scheduler;
  readonly #executorSetup: ExecutorSetup;
  readonly #model: PlanModel | undefined;
  readonly #attemptContext: AttemptContext;
  readonly #approvals: Approvals;
  readonly #replies: Replies;
  readonly #replanning: Replanning;
  readonly #turns = new Turns();
  #phase: RunPhase = "planning";
  #anyFailure = false;
  /** Tool and llm steps not yet ended. */
  #active = 0;
  #plannerError: RuntimeErrorInfo | undefined;
  #stopError: RuntimeErrorInfo | undefined;
  #planEnded = false;
  #startedAt = 0;
  #deadlineTimer: unknown;
  #planIterator: AsyncIterator<PlannerEvent> | undefined;
  /** Issues the plan source has had (a repair may follow them, which may replace the reply). */
  #planIssues = 0;
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
    this.#policy = createSafetyPolicy({ registry: config.registry, eager: config.eager, retries: config.retries, timeoutMs: config.timeoutMs, tools: config.policy });
    this.#meter = new BudgetMeter(config.budget, config.maxReplans);
    const cache: RunResultCache | undefined = config.caching ? createRunResultCache(config.sharedCache, config.sideEffects) : undefined;
    this.#executorSetup = {
      executor: config.executeStep ?? createRetryingExecutor(config.random, config.sleep),
      fromApplication: config.executeStep !== undefined,
      backoff: config.backoff,
      results: table.results,
    };
    const model = config.model;
    // The model as reflectors, integration and llm steps see it: counted, budgeted, bounded in time.
    this.#model = model === undefined ? undefined : { stream: (request: PlanModelRequest) => this.#guardedStream(model, request) };
    const emitEvent = (event: PendingEvent): void => this.#event(event);
    const skip = (entry: StepEntry, code: StepSkipCode, reason: string): void => this.#skip(entry, code, reason);
    const isEnded = (): boolean => this.#isEnded();
    // The parts read the run through getters, so each sees its state as it is now.
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the parts' getters read the run.
    const run = this;
    this.#replanning = new Replanning({
      planner: config.planner,
      registry: config.registry,
      profile: config.profile,
      query: input.query,
      clock: config.clock,
      totalMs: config.modelTimeouts.totalMs,
      table,
      meter: this.#meter,
      signal: this.signal,
      get replyStreaming() {
        return run.#replies.streaming;
      },
      emit: emitEvent,
      isEnded,
      reading: (what) => this.#plannerReading(what),
      skip,
      register: (step, source) => this.#register(step, source),
      applied: (source, added) => {
        this.#phase = "executing";
        this.#approvals.requestFor(source);
        this.#scheduler.reconsider(added);
      },
    });
    this.#scheduler = new Scheduler(table, {
      view: {
        statusOf: (id) => table.get(id)?.status,
        mayBeReplanned: (id) => {
          const entry = table.get(id);
          return entry !== undefined && !entry.handled && (entry.status === "failed" || entry.skipCode === "denied") && this.#replanning.possible();
        },
        get planEnded() {
          return run.#planEnded;
        },
        get othersSettled() {
          return run.#active === 0 && run.#phase === "executing" && !run.#replanning.due();
        },
      },
      maxConcurrency: config.maxConcurrency,
      refuseStart: () => this.#meter.refuseStep(),
      start: (entry) => this.#guard(this.#runAttempts(entry)),
      safety: (entry) => this.#policy.verdictOf(entry.step, entry.source, entry.approval),
      reply: (entry) => this.#replies.run(entry),
      skip,
      holdForApproval: (entry) => this.#approvals.hold(entry),
    });
    this.#approvals = new Approvals({
      registry: config.registry,
      clock: config.clock,
      timeoutMs: config.approvalTimeoutMs,
      table,
      policy: this.#policy,
      scheduler: this.#scheduler,
      emit: emitEvent,
      skip,
      replanFor: (entry) => this.#replanning.add(entry),
      settle: () => this.#settle(),
      isEnded,
    });
    this.#replies = new Replies({
      table,
      scheduler: this.#scheduler,
      replyStreaming: config.replyStreaming,
      get phase() {
        return run.#phase;
      },
      get planSource() {
        return run.#turns.source;
      },
      get anyFailure() {
        return run.#anyFailure;
      },
      get planIssues() {
        return run.#planIssues;
      },
      get replanned() {
        return run.#meter.usage.replans > 0;
      },
      get replanAllowed() {
        return run.#meter.replanAllowed();
      },
      emit: emitEvent,
    });
    this.#attemptContext = {
      runId: input.runId,
      registry: config.registry,
      policy: this.#policy,
      meter: this.#meter,
      cache,
      clock: config.clock,
      signal: this.#controller.signal,
      model: this.#model,
      emit: emitEvent,
      isCurrent: (entry, generation) => !this.#isEnded() && entry.generation === generation,
    };
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
    return this.#approvals.waiting > 0 && this.#scheduler.running === 0 && (this.#phase === "executing" || this.#phase === "planning");
  }

  /**
   * Runs to the end.
   *
   * @param signal - the caller's abort signal.
   * @returns resolves after `run-end` was emitted.
   */
  async execute(signal: AbortSignal | undefined): Promise<void> {
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
      this.#deadlineTimer = this.#config.clock.setTimeout(() => this.abort("deadline", `The run passed its deadline of ${deadlineMs} ms`), clampTimerMs(deadlineMs, deadlineMs));
    }
    this.#guard(this.#plan());
    return this.#finished;
  }

  /**
   * Applies approval decisions: all are checked first, so a refused batch changes nothing.
   *
   * @param decisions - one decision or a list.
   * @throws PlankitError `invalid-approval` or `invalid-argument`; see `ApprovalDesk.check`.
   */
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): void {
    if (this.#isEnded()) throw new PlankitError("invalid-approval", `Run "${this.#input.runId}" already ended; no step waits for approval`);
    this.#approvals.approve(decisions);
    this.#settle();
  }

  /** Ends every request still waiting as its timeout would: its undecided steps are denied (`by: "timeout"`). */
  expireApprovals(): void {
    this.#approvals.expire();
  }

  /**
   * Stops the run at once: running steps fail with `aborted`, pending steps
   * are skipped (and no longer wait for a person), `plan-end` is emitted if
   * it was not, the reply is written from what there is, the planner is
   * closed, and `run-end` is emitted before this returns.
   *
   * @param reason - `aborted`, `deadline`, or `failed` (a reflector or an internal error).
   * @param message - what happened.
   */
  abort(reason: "aborted" | "deadline" | "failed", message: string): void {
    if (this.#isEnded()) return;
    this.#phase = "ended";
    const code = reason === "deadline" ? "timeout" : "aborted";
    this.#controller.abort(new PlankitError(code, message));
    for (const entry of this.#table.order) {
      if (entry.status === "running") {
        entry.generation++;
        entry.status = "failed";
        entry.error = { code, message };
        this.#event({ type: "step-error", stepId: entry.step.id, attempt: Math.max(1, entry.attempts), error: entry.error, final: true, durationMs: 0 });
      } else if (entry.status === "pending") {
        entry.status = "skipped";
        entry.skipCode = "aborted";
        this.#approvals.forget(entry);
        this.#event({ type: "step-skipped", stepId: entry.step.id, code: "aborted", reason: message });
      }
    }
    this.#scheduler.running = 0;
    if (!this.#planEnded) this.#emitPlanEnd(undefined, { code, message });
    // A deadline or a reflector's "abort" still owes the user an answer; none of it needs an await.
    if (reason !== "aborted" && !this.#replies.finishStreaming(true)) this.#answerWithTemplate();
    const iterator = this.#planIterator;
    if (iterator?.return !== undefined) {
      try {
        void Promise.resolve(iterator.return()).catch(() => undefined);
      } catch {
        // A planner whose iterator cannot be closed is left to its signal.
      }
    }
    this.#end(reason, { code, message });
  }

  // ── planning ────────────────────────────────────────────────────────────

  /** Reads memory, streams the plan and adds its steps. */
  async #plan(): Promise<void> {
    const context = await this.#plannerContext();
    if (this.#isEnded()) return;
    this.#event({ type: "plan-start", kind: "plan", query: this.#input.query, attempt: 1 });
    let done: PlannerDone | undefined;
    let repairs = 0;
    try {
      const request: Parameters<Planner["stream"]>[0] = {
        query: this.#input.query,
        tools: this.#config.registry,
        signal: this.signal,
        awaitOutcomes: (ids) => this.#awaitOutcomes(ids),
      };
      request.onReplyDraft = (draft) => this.#replies.draft(draft);
      if (this.#config.profile !== undefined) request.profile = this.#config.profile;
      if (context !== "") request.context = context;
      done = await readPlannerEvents(
        this.#config.planner.stream(request),
        {
          step: (step) => this.#addStep(step, this.#turns.source),
          issue: (issue, action) => {
            this.#planIssues++;
            this.#event({ type: "step-issue", issue, action });
          },
          repair: () => this.#event({ type: "plan-start", kind: "repair", query: this.#input.query, attempt: ++repairs }),
          turnEnd: (clean) => this.#sourceEnded(this.#turns.next(clean)),
        },
        { ...this.#plannerReading("Planning"), onIterator: (iterator) => (this.#planIterator = iterator) },
      );
    } catch (error) {
      if (this.#isEnded()) return;
      this.#plannerError = toErrorInfo(error, "model-error");
    }
    if (this.#isEnded()) return;
    // A planner that only reports its steps in `done` still gets them run.
    for (const step of done?.steps ?? []) if (!this.#table.has(step.id)) this.#addStep(step, this.#turns.source);
    const usage = done?.usage;
    this.#meter.countPlanner(usage?.modelCalls ?? (this.#plannerError === undefined ? 0 : 1), usage);
    this.#emitPlanEnd(done, this.#plannerError);
    this.#phase = "executing";
    // Ids that never arrived: their dependents can be decided now.
    this.#sourceEnded(this.#turns.source, this.#table.missingIds());
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

  /**
   * How a planner's stream is read: a planner silent for longer than one
   * model call may take (`modelTimeouts.totalMs`) is stalled.
   *
   * @param what - "Planning" or "Re-planning".
   * @returns the options.
   */
  #plannerReading(what: string): PlannerReadOptions {
    return { clock: this.#config.clock, idleMs: this.#config.modelTimeouts.totalMs, what, signal: this.signal, isEnded: () => this.#isEnded() };
  }

  /**
   * Resolves once every given step has ended, with what became of each.
   * The planner hears of the failures among them, so they are dealt with:
   * no re-plan is asked for them, and their dependents are skipped.
   *
   * @param ids - step ids.
   * @returns the outcomes, in the order of `ids`.
   */
  #awaitOutcomes(ids: readonly string[]): Promise<StepOutcome[]> {
    for (const id of ids) {
      const entry = this.#table.get(id);
      if (entry !== undefined) entry.handled = true;
    }
    if (this.#replanning.release(ids)) this.#scheduler.reopen("replan");
    return this.#turns.outcomesOf(ids, this.#isEnded());
  }

  /**
   * Ends the plan source and emits `plan-end`.
   *
   * @param done - the planner's `done` event, if it came.
   * @param error - the planner's (or the run's) error.
   */
  #emitPlanEnd(done: PlannerDone | undefined, error: RuntimeErrorInfo | undefined): void {
    this.#planEnded = true;
    const clean = error === undefined && done?.clean === true;
    this.#turns.source.state = clean ? "clean" : "unclean";
    const usage = done?.usage;
    const planEnd: Extract<RuntimeEvent, { type: "plan-end" }> = {
      type: "plan-end",
      runId: "",
      t: 0,
      clean,
      finishReason: error !== undefined ? "error" : (done?.finishReason ?? "missing"),
      fallback: done?.fallback ?? false,
      steps: this.#table.order.length,
      modelCalls: usage?.modelCalls ?? 0,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
    };
    if (error !== undefined) planEnd.error = error;
    this.#event(planEnd);
  }

  /**
   * The planner's context: earlier turns, the run context and memory.
   *
   * @returns the text, or `""`.
   */
  async #plannerContext(): Promise<string> {
    const parts: string[] = [];
    if (this.#input.history !== "") parts.push(`Conversation so far:\n${this.#input.history}`);
    if (Object.keys(this.#input.context).length > 0) {
      parts.push(`Run context (reference it as {{context.<key>}}): ${truncateJson(this.#input.context, 2000)}`);
    }
    const memory = this.#config.memory;
    if (memory !== undefined) {
      const remembered = await readMemoryContext(this.#memoryAccess(memory), this.#input.query);
      if (remembered !== "") parts.push(remembered);
    }
    return parts.join("\n\n");
  }

  /**
   * Adds a step and starts it at once when it is ready.
   *
   * @param step - a validated step.
   * @param source - where it came from.
   */
  #addStep(step: PlanStep, source: StepSource): void {
    const entry = this.#register(step, source);
    if (entry === undefined) return;
    this.#scheduler.consider(entry);
    this.#settle();
  }

  /**
   * Adds a step to the table and announces it, without deciding it.
   *
   * @param planned - a validated step.
   * @param source - where it came from.
   * @returns the entry, or `undefined` when its id is taken.
   */
  #register(planned: PlanStep, source: StepSource): StepEntry | undefined {
    // The run's own frozen copy: neither the planner nor a consumer of `step-planned` can change what runs.
    const step = snapshotValue(planned, { freeze: true, what: `Step "${planned.id}"` }) as PlanStep;
    if (this.#table.has(step.id)) {
      this.#event({
        type: "step-issue",
        issue: { code: "duplicate-id", index: this.#table.order.length, stepId: step.id, path: "/steps", message: `Step id "${step.id}" is already taken; the step was dropped` },
        action: "dropped",
      });
      return undefined;
    }
    const mode = step.type === "tool" ? this.#policy.approvalOf(step, step.arguments, false) : undefined;
    const entry = this.#table.add(step, source);
    if (mode !== undefined) this.#approvals.track(entry, mode);
    if (step.type !== "reply") this.#active++;
    this.#event({ type: "step-planned", step, index: entry.index, source: source.kind, safe: mode === undefined && this.#policy.mayStartEarly(step) });
    this.#replies.adopt(entry);
    return entry;
  }

  // ── scheduling ──────────────────────────────────────────────────────────

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

  /**
   * Marks a pending step skipped.
   *
   * @param entry - the step.
   * @param code - why.
   * @param reason - why, in words.
   */
  #skip(entry: StepEntry, code: StepSkipCode, reason: string): void {
    entry.status = "skipped";
    entry.skipCode = code;
    if (code === "unsafe-plan" && entry.step.type !== "reply") entry.source.withheld = (entry.source.withheld ?? 0) + 1;
    this.#approvals.forget(entry);
    if (entry.step.type !== "reply") this.#active--;
    this.#event({ type: "step-skipped", stepId: entry.step.id, code, reason });
  }

  // ── attempts ────────────────────────────────────────────────────────────

  /**
   * Runs a tool or llm step through the executor until it succeeds or fails
   * for good, with the reflector's say on a failure: a `retry` the safety
   * policy allows sends the step back to the scheduler (so changed
   * arguments meet the approval policy), one it refuses counts as
   * `new_plan`. Everything up to the tool call is synchronous, so a ready
   * step's tool starts in the same tick its `step` event arrived.
   *
   * @param entry - a step marked running.
   */
  async #runAttempts(entry: StepEntry): Promise<void> {
    const generation = entry.generation;
    const { outcome, durationMs } = await executeStep(this.#attemptContext, this.#executorSetup, entry);
    if (this.#isEnded() || entry.generation !== generation) return;
    const attempt = Math.max(1, entry.attempts);
    if (outcome.ok === "skip") {
      this.#scheduler.running--;
      if (attempt === 1 && entry.attempts <= 1) {
        this.#skip(entry, outcome.code, outcome.reason);
        this.#scheduler.ended(entry);
      } else {
        this.#fail(entry, { code: "budget-exceeded", message: outcome.reason }, attempt, durationMs);
      }
      this.#settle();
      return;
    }
    if (outcome.ok) {
      this.#scheduler.running--;
      const freed = this.#table.succeed(entry, outcome.value);
      this.#active--;
      this.#event({ type: "step-end", stepId: entry.step.id, attempt, result: outcome.value, durationMs, cached: outcome.cached });
      this.#scheduler.succeeded(freed);
      this.#settle();
      return;
    }
    entry.error = outcome.error;
    const verdict = await reflectOnFailure(
      {
        reflector: this.#config.reflector,
        reflectionRetries: this.#config.reflectionRetries,
        query: this.#input.query,
        registry: this.#config.registry,
        model: this.#model,
        signal: this.signal,
        completed: () => this.#table.completed(),
      },
      entry,
      outcome.error,
    );
    if (this.#isEnded() || entry.generation !== generation) return;
    if (verdict !== undefined) {
      const event: Extract<RuntimeEvent, { type: "reflection" }> = { type: "reflection", runId: "", t: 0, stepId: entry.step.id, action: verdict.action, reason: verdict.reason ?? "" };
      if (verdict.action === "retry" && verdict.arguments !== undefined) event.arguments = verdict.arguments;
      if (verdict.action === "retry" && !this.#policy.mayRepeat(entry.step)) {
        event.refused = `Step "${entry.step.id}" may have acted and its tool is neither read-only nor idempotent: it is not run again; a re-plan may replace it`;
      }
      this.#event(event);
    }
    this.#scheduler.running--;
    if (verdict?.action === "retry" && this.#policy.mayRepeat(entry.step)) {
      // Back through the scheduler: new arguments meet the approval policy like any others before the call.
      entry.reflections++;
      if (verdict.arguments !== undefined) entry.overrides = { ...entry.overrides, ...verdict.arguments };
      this.#event({ type: "step-error", stepId: entry.step.id, attempt, error: outcome.error, final: false, durationMs });
      const retry: Extract<RuntimeEvent, { type: "step-retry" }> = { type: "step-retry", runId: "", t: 0, stepId: entry.step.id, attempt: attempt + 1, delayMs: 0, cause: "reflection" };
      if (verdict.arguments !== undefined) retry.arguments = verdict.arguments;
      this.#event(retry);
      entry.status = "pending";
      this.#scheduler.reconsider([entry]);
      this.#settle();
      return;
    }
    this.#fail(entry, outcome.error, attempt, durationMs);
    if (verdict?.action === "abort") {
      this.abort("failed", `A reflector stopped the run after step "${entry.step.id}" failed: ${verdict.reason}`);
      return;
    }
    this.#settle();
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

  // ── the end ─────────────────────────────────────────────────────────────

  /** Emits the reply, writes memory and ends the run. */
  async #finish(): Promise<void> {
    await this.#answer();
    if (this.#isEnded()) return;
    const reason: RunEndReason = this.#meter.hit ? "budget" : findRunFailure(this.#table, this.#stopError, this.#plannerError) === undefined ? "completed" : "failed";
    await this.#writeMemory(reason);
    if (this.#isEnded()) return;
    this.#end(reason, reason === "failed" || reason === "budget" ? findRunFailure(this.#table, this.#stopError, this.#plannerError) : undefined);
  }

  /** Emits the reply: the reply step's, a streamed draft's, the model's integration, or the template. */
  async #answer(): Promise<void> {
    if (this.#replies.finishStreaming(false)) return;
    let last: StepEntry | undefined;
    for (const entry of this.#table.order) if (entry.step.type === "reply" && entry.status === "succeeded") last = entry;
    if (last !== undefined) {
      this.#replies.answerWith(last);
      return;
    }
    const integrated = await this.#integrate();
    if (this.#isEnded()) return;
    if (integrated === undefined) this.#answerWithTemplate();
    else this.#event({ type: "reply", text: integrated, source: "model" });
  }

  /** Emits the fixed answer: the results, and what was not done. */
  #answerWithTemplate(): void {
    const text = renderTemplateReply(this.#table);
    this.#replies.write(text);
    this.#event({ type: "reply", text, source: "template" });
  }

  /**
   * Asks the model to integrate the results into an answer, streamed as
   * `reply-delta` events.
   *
   * @returns the answer, or `undefined` when there is no model, no budget,
   *   or the call failed before it wrote anything.
   */
  async #integrate(): Promise<string | undefined> {
    const model = this.#model;
    if (model === undefined || this.#config.integrate === "template") return undefined;
    if (!this.#meter.modelCallAllowed()) {
      this.#meter.markHit();
      return undefined;
    }
    const request: PlanModelRequest = { purpose: "integrate", prompt: buildIntegrationPrompt(this.#input.query, integrationResults(this.#table)), signal: this.signal };
    return integrateAnswer(
      model,
      request,
      (delta) => this.#replies.write(delta),
      () => this.#isEnded(),
      () => renderTemplateReply(this.#table),
    );
  }

  /**
   * Writes reflections, then results, to memory after the run, each write
   * bounded in time.
   *
   * @param reason - how the run ended.
   */
  async #writeMemory(reason: RunEndReason): Promise<void> {
    const memory = this.#config.memory;
    if (memory === undefined) return;
    const state = this.#reducer.state;
    const entries = buildMemoryEntries(
      { runId: this.#input.runId, query: this.#input.query, reason, reply: state.reply?.text, reflections: state.reflections },
      this.#table,
      this.#config.clock.now(),
    );
    await writeRunMemory(this.#memoryAccess(memory), entries, () => this.#isEnded());
  }

  /**
   * How the run reaches memory.
   *
   * @param memory - the store.
   * @returns the access.
   */
  #memoryAccess(memory: MemoryStore): MemoryAccess {
    return { memory, clock: this.#config.clock, timeoutMs: this.#config.memoryTimeoutMs, signal: this.signal };
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
    const event: Extract<RuntimeEvent, { type: "run-end" }> = {
      type: "run-end",
      runId: "",
      t: 0,
      reason,
      usage: { ...this.#meter.usage },
      durationMs: this.#round(this.#config.clock.now() - this.#startedAt),
    };
    if (error !== undefined && reason !== "completed") event.error = error;
    this.#event(event);
    if (!this.#controller.signal.aborted) this.#controller.abort(new PlankitError("aborted", "The run ended"));
    this.#resolveFinished();
  }

  // ── plumbing ────────────────────────────────────────────────────────────

  /**
   * Stamps an event with the run id and time, applies it to the run state, and emits it.
   *
   * @param event - the event without (or with placeholder) `runId` and `t`.
   */
  #event(event: RuntimeEvent | PendingEvent): void {
    const runId = this.#input.runId;
    const t = this.#round(this.#config.clock.now() - this.#startedAt);
    // type, runId and t lead the JSON of every event.
    const ordered = Object.assign({ type: event.type, runId, t }, event, { runId, t }) as RuntimeEvent;
    this.#reducer.apply(ordered);
    this.#emit(ordered);
    this.#turns.record(ordered, this.#isEnded());
  }

  /**
   * Rounds a duration to microseconds, so logs stay short.
   *
   * @param ms - milliseconds.
   * @returns the rounded value.
   */
  #round(ms: number): number {
    return Math.round(ms * 1000) / 1000;
  }

  /**
   * A model stream as the runtime's own calls see it: counted, budgeted,
   * and bounded by the idle and total timeouts.
   *
   * @param model - the runtime's model.
   * @param request - the request.
   * @returns the parts.
   */
  async *#guardedStream(model: PlanModel, request: PlanModelRequest): AsyncGenerator<PlanModelPart> {
    const refusal = this.#meter.refuseModelCall();
    if (refusal !== undefined) throw new PlankitError("budget-exceeded", refusal);
    const what = request.purpose === "reflect" ? "Reflection" : request.purpose === "integrate" ? "Integration" : request.purpose === "llm-step" ? "An llm step" : "A model call";
    for await (const part of boundStream(model.stream(request), this.#config.modelTimeouts, this.#config.clock, what, request.signal)) {
      if (part.type === "finish") this.#meter.countTokens(part.usage);
      yield part;
    }
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

