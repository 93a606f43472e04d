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
import { resolveReferences } from "../../plan/resolve-references.ts";
import type { FailedStep, PlannerEvent, PlannerProfile, ReplanRequest, ReplyDraft, StepOutcome } from "../../planner/planner-event.ts";
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
import type { ApprovalRequestStep, RunEndReason, RuntimeErrorInfo, RuntimeEvent, StepSkipCode } from "../../events/runtime-event.ts";
import type { StepExecutor } from "../step-executor.ts";
import type { ToolPolicy } from "../tool-policy.ts";
import { truncateJson } from "../../shared/truncate-json.ts";
import type { ApprovalDecision } from "../../events/approval-decision.ts";
import { canonicalJson } from "../../shared/canonical-json.ts";
import { renamePatch } from "./apply-replan.ts";
import { ApprovalDesk, type CheckedDecision } from "./approval-desk.ts";
import { resolveStepInput, type AttemptContext, type DistributiveOmit } from "./attempt-step.ts";
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
import { ReplyStream } from "./reply-stream.ts";
import { createRetryingExecutor } from "./retrying-executor.ts";
import type { RunPhase } from "./run-phase.ts";
import { createRunResultCache, type RunResultCache, type SideEffectCounter } from "./run-result-cache.ts";
import { createSafetyPolicy, type SafetyPolicy } from "./safety-policy.ts";
import { snapshotValue } from "./snapshot-value.ts";
import { Scheduler } from "./scheduler.ts";
import type { StepSource } from "./step-source.ts";
import { StepTable, type StepEntry } from "./step-table.ts";
import { toErrorInfo } from "../../events/to-error-info.ts";
import { withTimeout } from "./with-timeout.ts";

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
 * Runs one request: streams the plan, schedules steps as they arrive,
 * retries, reflects, re-plans, replies, and emits every event through `emit`.
 * The modules under `run/` answer every question; this class only moves the
 * run from one phase to the next.
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
  readonly #cache: RunResultCache | undefined;
  readonly #scheduler: Scheduler;
  readonly #executorSetup: ExecutorSetup;
  readonly #model: PlanModel | undefined;
  readonly #attemptContext: AttemptContext;
  readonly #desk: ApprovalDesk;
  /** Steps that need approval and were not asked yet (their source still streams). */
  #unasked: StepEntry[] = [];
  /** The source of the plan's steps; a planner that works in turns opens a new one after each `turn-end`. */
  #planSource: StepSource = { kind: "plan", attempt: 1, state: "streaming" };
  /** Outcomes of ended steps, for planners that work in turns (see `PlanRequest.awaitOutcomes`). */
  readonly #outcomes = new Map<string, StepOutcome>();
  /** Planners waiting for outcomes: the ids, and what to call when all have one. */
  #outcomeWaiters: { ids: readonly string[]; resolve: (outcomes: StepOutcome[]) => void }[] = [];
  #phase: RunPhase = "planning";
  /** Failed steps a re-plan has not dealt with yet. */
  #failures: StepEntry[] = [];
  #anyFailure = false;
  /** Tool and llm steps not yet ended. */
  #active = 0;
  #plannerError: RuntimeErrorInfo | undefined;
  #stopError: RuntimeErrorInfo | undefined;
  #planEnded = false;
  #startedAt = 0;
  #deadlineTimer: unknown;
  #planIterator: AsyncIterator<PlannerEvent> | undefined;
  /**
   * The reply whose text is already streaming, if any: the plan is then
   * fixed. `entry` is `undefined` while the reply is a draft the model is
   * still writing (its step not yet planned).
   */
  #streamingReply: { entry: StepEntry | undefined; id: string; stream: ReplyStream } | undefined;
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
    this.#table = new StepTable(input.context);
    this.#policy = createSafetyPolicy({ registry: config.registry, eager: config.eager, retries: config.retries, timeoutMs: config.timeoutMs, tools: config.policy });
    this.#meter = new BudgetMeter(config.budget, config.maxReplans);
    this.#cache = config.caching ? createRunResultCache(config.sharedCache, config.sideEffects) : undefined;
    this.#executorSetup = {
      executor: config.executeStep ?? createRetryingExecutor(config.random, config.sleep),
      fromApplication: config.executeStep !== undefined,
      backoff: config.backoff,
      results: this.#table.results,
    };
    this.#desk = new ApprovalDesk(config.registry, config.clock, config.approvalTimeoutMs);
    const model = config.model;
    // The model as reflectors, integration and llm steps see it: counted, budgeted, bounded in time.
    this.#model = model === undefined ? undefined : { stream: (request: PlanModelRequest) => this.#guardedStream(model, request) };
    const table = this.#table;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the view's getters read the run.
    const self = this;
    this.#scheduler = new Scheduler(table, {
      view: {
        statusOf: (id) => table.get(id)?.status,
        mayBeReplanned: (id) => {
          const entry = table.get(id);
          return entry !== undefined && !entry.handled && (entry.status === "failed" || entry.skipCode === "denied") && this.#replanPossible();
        },
        get planEnded() {
          return self.#planEnded;
        },
        get othersSettled() {
          return self.#active === 0 && self.#phase === "executing" && !self.#replanDue();
        },
      },
      maxConcurrency: config.maxConcurrency,
      refuseStart: () => this.#meter.refuseStep(),
      start: (entry) => this.#guard(this.#runAttempts(entry)),
      safety: (entry) => this.#policy.verdictOf(entry.step, entry.source, entry.approval),
      reply: (entry) => this.#runReply(entry),
      skip: (entry, code, reason) => this.#skip(entry, code, reason),
      holdForApproval: (entry) => this.#holdForApproval(entry),
    });
    this.#attemptContext = {
      runId: input.runId,
      registry: config.registry,
      policy: this.#policy,
      meter: this.#meter,
      cache: this.#cache,
      clock: config.clock,
      signal: this.#controller.signal,
      model: this.#model,
      emit: (event) => this.#event(event),
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
   * Stops the run at once: running steps fail with `aborted`, pending steps
   * are skipped, `plan-end` is emitted if it was not, and `run-end` before
   * this returns.
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
        this.#forgetApproval(entry);
        this.#event({ type: "step-skipped", stepId: entry.step.id, code: "aborted", reason: message });
      }
    }
    this.#scheduler.running = 0;
    if (!this.#planEnded) this.#emitPlanEnd(undefined, { code, message });
    if (reason !== "aborted") {
      // A deadline or a reflector's "abort" still owes the user an answer; none of it needs an await.
      const streaming = this.#streamingReply;
      if (streaming !== undefined) {
        this.#replyDelta(streaming.stream.advance(this.#table.results, (id) => this.#table.get(id)?.status, true));
        this.#event(this.#stepReply(streaming));
      } else {
        const text = renderTemplateReply(this.#table);
        this.#replyDelta(text);
        this.#event({ type: "reply", text, source: "template" });
      }
    }
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
      request.onReplyDraft = (draft) => this.#draftReply(draft);
      if (this.#config.profile !== undefined) request.profile = this.#config.profile;
      if (context !== "") request.context = context;
      done = await readPlannerEvents(
        this.#config.planner.stream(request),
        {
          step: (step) => this.#addStep(step, this.#planSource),
          issue: (issue, action) => {
            this.#planIssues++;
            this.#event({ type: "step-issue", issue, action });
          },
          repair: () => this.#event({ type: "plan-start", kind: "repair", query: this.#input.query, attempt: ++repairs }),
          turnEnd: (clean) => this.#endTurn(clean),
        },
        this.#plannerReading("Planning", (iterator) => {
          this.#planIterator = iterator;
        }),
      );
    } catch (error) {
      if (this.#isEnded()) return;
      this.#plannerError = toErrorInfo(error, "model-error");
    }
    if (this.#isEnded()) return;
    // A planner that only reports its steps in `done` still gets them run.
    for (const step of done?.steps ?? []) if (!this.#table.has(step.id)) this.#addStep(step, this.#planSource);
    const usage = done?.usage;
    this.#meter.countPlanner(usage?.modelCalls ?? (this.#plannerError === undefined ? 0 : 1), usage);
    this.#emitPlanEnd(done, this.#plannerError);
    this.#phase = "executing";
    this.#requestApprovals(this.#planSource);
    this.#scheduler.sourceEnded(this.#planSource);
    // Ids that never arrived: their dependents can be decided now.
    for (const id of this.#table.missingIds()) this.#scheduler.reconsider(this.#table.dependentsOf(id));
    this.#settle();
  }

  /**
   * How a planner's stream is read: a planner silent for longer than one
   * model call may take (`modelTimeouts.totalMs`) is stalled.
   *
   * @param what - "Planning" or "Re-planning".
   * @param onIterator - receives the iterator.
   * @returns the options.
   */
  #plannerReading(what: string, onIterator?: (iterator: AsyncIterator<PlannerEvent>) => void): PlannerReadOptions {
    const options: PlannerReadOptions = { clock: this.#config.clock, idleMs: this.#config.modelTimeouts.totalMs, what, signal: this.signal, isEnded: () => this.#isEnded() };
    if (onIterator !== undefined) options.onIterator = onIterator;
    return options;
  }

  /**
   * A model turn of a planner that works in turns ended: its steps' source
   * ends (clean or not, so side-effecting steps start or are skipped), and
   * the steps that follow get a source of their own.
   *
   * @param clean - whether the turn finished cleanly and validated.
   */
  #endTurn(clean: boolean): void {
    const ended = this.#planSource;
    ended.state = clean ? "clean" : "unclean";
    this.#planSource = { kind: "plan", attempt: ended.attempt + 1, state: "streaming" };
    this.#requestApprovals(ended);
    this.#scheduler.sourceEnded(ended);
    this.#settle();
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
      if (entry !== undefined && !entry.handled) entry.handled = true;
    }
    const before = this.#failures.length;
    this.#failures = this.#failures.filter((entry) => !ids.includes(entry.step.id));
    if (this.#failures.length !== before) this.#scheduler.reopen("replan");
    return new Promise((resolve) => {
      this.#outcomeWaiters.push({ ids, resolve });
      this.#deliverOutcomes();
    });
  }

  /** Answers the planners whose steps have all ended (all of them once the run ended). */
  #deliverOutcomes(): void {
    if (this.#outcomeWaiters.length === 0) return;
    const ended = this.#isEnded();
    this.#outcomeWaiters = this.#outcomeWaiters.filter((waiter) => {
      if (!ended && !waiter.ids.every((id) => this.#outcomes.has(id))) return true;
      waiter.resolve(waiter.ids.map((id) => this.#outcomes.get(id) ?? { id, status: "skipped", reason: "The run ended" }));
      return false;
    });
  }

  /**
   * Records a step's outcome from its terminal event.
   *
   * @param event - any event.
   */
  #recordOutcome(event: RuntimeEvent): void {
    if (event.type === "step-end") this.#outcomes.set(event.stepId, { id: event.stepId, status: "succeeded", result: event.result });
    else if (event.type === "step-error" && event.final) this.#outcomes.set(event.stepId, { id: event.stepId, status: "failed", error: event.error.message });
    else if (event.type === "step-skipped") this.#outcomes.set(event.stepId, { id: event.stepId, status: "skipped", reason: event.reason });
    else return;
    this.#deliverOutcomes();
  }

  /**
   * Ends the plan source and emits `plan-end`.
   *
   * @param done - the planner's `done` event, if it came.
   * @param error - the planner's (or the run's) error.
   */
  #emitPlanEnd(done: Extract<PlannerEvent, { type: "done" }> | undefined, error: RuntimeErrorInfo | undefined): void {
    this.#planEnded = true;
    const clean = error === undefined && done?.clean === true;
    this.#planSource.state = clean ? "clean" : "unclean";
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
   * @param step - a validated step.
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
    if (mode !== undefined) {
      entry.approval = { mode, status: "unasked" };
      this.#unasked.push(entry);
    }
    if (step.type !== "reply") this.#active++;
    this.#event({ type: "step-planned", step, index: entry.index, source: source.kind, safe: mode === undefined && this.#policy.mayStartEarly(step) });
    const streaming = this.#streamingReply;
    if (step.type === "reply" && streaming !== undefined && streaming.entry === undefined) {
      // The drafted reply became a step: it goes on from what was written, or, if the step differs from it, as drafted.
      streaming.stream.close(step.text);
      streaming.entry = entry;
      entry.fixed = true;
    }
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
    this.#advanceReply();
    this.#scheduler.pump();
    if (this.#phase !== "executing" || this.#scheduler.running > 0) return;
    if (this.#failures.length > 0) {
      if (this.#replanPossible()) {
        this.#phase = "replanning";
        this.#guard(this.#replan());
        return;
      }
      if (this.#meter.replanBudgetSpent()) this.#meter.markHit();
      for (const entry of this.#failures) entry.handled = true;
      this.#failures = [];
      this.#scheduler.reopen("replan");
      this.#scheduler.pump();
      if (this.#scheduler.running > 0) return;
    }
    this.#scheduler.reopen("reply-last");
    if (this.#phase !== "executing" || this.#scheduler.running > 0) return;
    // Steps that wait for a person keep the run open: a decision, its timeout or an abort moves it on.
    if (this.#desk.waiting.size > 0) return;
    for (const entry of this.#table.order) {
      if (entry.status === "pending") this.#skip(entry, "dependency-failed", "It never became ready");
    }
    this.#phase = "finishing";
    this.#guard(this.#finish());
  }

  /**
   * Whether a failure may still be answered by a re-plan.
   *
   * @returns the check.
   */
  #replanPossible(): boolean {
    return !this.#isEnded() && this.#streamingReply === undefined && this.#meter.replanAllowed();
  }

  /**
   * Whether a re-plan is due once nothing runs.
   *
   * @returns the check.
   */
  #replanDue(): boolean {
    return this.#failures.length > 0 && this.#replanPossible();
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
    this.#forgetApproval(entry);
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
    if (!entry.handled) this.#failures.push(entry);
    this.#event({ type: "step-error", stepId: entry.step.id, attempt, error, final: true, durationMs });
    this.#scheduler.ended(entry);
  }

  // ── reply steps ─────────────────────────────────────────────────────────

  /**
   * Starts streaming the reply step's text once the plan ended cleanly and
   * nothing failed, and (with `replyStreaming: "safe"`) no re-plan is
   * possible any more, since what was streamed cannot be taken back; then
   * writes each reference as its step ends. From then on the plan is fixed:
   * no re-plan replaces the reply. Otherwise the reply is written whole when
   * it resolves.
   */
  #advanceReply(): void {
    let streaming = this.#streamingReply;
    if (this.#phase !== "executing" && this.#phase !== "finishing" && !(this.#phase === "planning" && streaming !== undefined)) return;
    if (streaming === undefined) {
      if (this.#anyFailure || this.#planSource.state !== "clean" || this.#meter.usage.replans > 0) return;
      if (this.#config.replyStreaming === "safe" && this.#meter.replanAllowed()) return;
      const last = this.#table.order[this.#table.order.length - 1];
      if (last === undefined || last.step.type !== "reply" || last.status !== "pending" || last.source !== this.#planSource) return;
      if (!ReplyStream.streamable(last.step.text)) return;
      streaming = { entry: last, id: last.step.id, stream: new ReplyStream(last.step.text) };
      last.fixed = true;
      this.#streamingReply = streaming;
    }
    this.#replyDelta(streaming.stream.advance(this.#table.results, (id) => this.#table.get(id)?.status));
  }

  /**
   * The model is writing the reply step: its text starts streaming at once
   * when nothing but the model can change the reply — the plan is still
   * the first call's, with no issue (so no repair is coming), no step
   * failed, no re-plan happened, and with `replyStreaming: "safe"` every
   * other step has already succeeded (so no failure can call for a
   * re-plan) — and from then on the plan is fixed. Later drafts extend it.
   *
   * @param draft - the reply's id and text so far.
   */
  #draftReply(draft: ReplyDraft): void {
    let streaming = this.#streamingReply;
    if (streaming === undefined) {
      if (this.#phase !== "planning" || this.#anyFailure || this.#planIssues > 0 || this.#meter.usage.replans > 0) return;
      // Every step before the reply must have reached the run (a wrapper may hold the planner's events back).
      if (this.#planSource.state !== "streaming" || this.#planSource.attempt !== 1 || this.#table.order.length !== draft.index || this.#table.has(draft.id)) return;
      if (this.#config.replyStreaming === "safe" && !this.#table.order.every((entry) => entry.status === "succeeded")) return;
      streaming = { entry: undefined, id: draft.id, stream: new ReplyStream(draft.text, false) };
      this.#streamingReply = streaming;
    } else if (streaming.entry !== undefined || streaming.id !== draft.id || !streaming.stream.extend(draft.text)) {
      return;
    }
    this.#replyDelta(streaming.stream.advance(this.#table.results, (id) => this.#table.get(id)?.status));
  }

  /**
   * The `reply` event of a streamed reply.
   *
   * @param streaming - the reply.
   * @returns the event, its text what was written.
   */
  #stepReply(streaming: { entry: StepEntry | undefined; id: string; stream: ReplyStream }): PendingEvent {
    // A draft whose step never came (dropped, cut off) is an answer without a step.
    return streaming.entry === undefined ? { type: "reply", text: streaming.stream.written, source: "step" } : { type: "reply", text: streaming.stream.written, source: "step", stepId: streaming.id };
  }

  /**
   * Emits a piece of the reply, when there is one.
   *
   * @param delta - the text.
   */
  #replyDelta(delta: string): void {
    if (delta !== "") this.#event({ type: "reply-delta", delta });
  }

  /**
   * Resolves a reply step's text (synchronously).
   *
   * @param entry - a ready reply step.
   */
  #runReply(entry: StepEntry): void {
    if (entry.step.type !== "reply") return;
    entry.status = "running";
    entry.attempts = 1;
    this.#event({ type: "step-start", stepId: entry.step.id, attempt: 1, input: entry.step.text, cached: false });
    try {
      let text: string;
      const streaming = this.#streamingReply;
      if (streaming?.entry === entry) {
        this.#replyDelta(streaming.stream.advance(this.#table.results, (id) => this.#table.get(id)?.status, true));
        text = streaming.stream.written;
      } else {
        const resolved = resolveReferences(entry.step.text, this.#table.results);
        text = typeof resolved === "string" ? resolved : (JSON.stringify(resolved) ?? "");
      }
      const freed = this.#table.succeed(entry, text);
      this.#event({ type: "step-end", stepId: entry.step.id, attempt: 1, result: text, durationMs: 0, cached: false });
      this.#scheduler.succeeded(freed);
    } catch (error) {
      entry.status = "failed";
      entry.handled = true;
      entry.error = toErrorInfo(error, "unknown-reference");
      this.#event({ type: "step-error", stepId: entry.step.id, attempt: 1, error: entry.error, final: true, durationMs: 0 });
      this.#scheduler.ended(entry);
    }
  }

  // ── approvals ───────────────────────────────────────────────────────────

  /**
   * Whether the run has nothing to do but wait for approval decisions: a
   * step waits for one, nothing runs, and no re-plan is out.
   */
  get waitingForApproval(): boolean {
    return this.#desk.waiting.size > 0 && this.#scheduler.running === 0 && (this.#phase === "executing" || this.#phase === "planning");
  }

  /**
   * A source ended: one `approval-request` lists every pending step it
   * wrote that needs approval (none for side-effecting steps of an unclean
   * source: they are skipped as `unsafe-plan`).
   *
   * @param source - the source that ended.
   */
  #requestApprovals(source: StepSource): void {
    if (this.#isEnded()) return;
    const asked: StepEntry[] = [];
    const later: StepEntry[] = [];
    for (const entry of this.#unasked) {
      if (entry.source !== source) later.push(entry);
      else if (entry.status === "pending" && entry.approval?.status === "unasked" && this.#policy.unsafeSource(entry.step, source) === undefined) asked.push(entry);
    }
    this.#unasked = later;
    if (asked.length === 0) return;
    this.#ask(asked, source.kind, source.attempt, asked.map((entry) => this.#desk.describe(entry, this.#table, entry.approval?.mode ?? "step")));
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
    const requestId = this.#desk.nextRequestId();
    // Frozen: what a consumer does to the request cannot change what the step is compared with later.
    const listed = snapshotValue(items, { freeze: true, what: "An approval request" }) as readonly ApprovalRequestStep[];
    entries.forEach((entry, index) => {
      const item = listed[index] as ApprovalRequestStep;
      entry.approval = { mode: item.mode, status: "requested", requestId, shown: item.arguments };
      this.#desk.waiting.add(entry);
    });
    const event: Extract<RuntimeEvent, { type: "approval-request" }> = { type: "approval-request", runId: "", t: 0, requestId, source, attempt, steps: [...listed] };
    if (this.#desk.timeoutMs !== undefined) event.timeoutMs = this.#desk.timeoutMs;
    this.#event(event);
    this.#desk.startTimer(requestId, () => this.#timeOut(requestId));
  }

  /**
   * A ready tool step: asks for approval when its policy wants one it does
   * not have for these arguments — a function policy now answering with
   * the resolved arguments, or a `"step"` approval given for other values.
   *
   * @param entry - a ready tool step.
   * @returns whether it must wait.
   */
  #holdForApproval(entry: StepEntry): boolean {
    const gate = entry.approval;
    const varies = this.#policy.approvalVaries(entry.step);
    if (gate === undefined && !varies) return false;
    // Arguments a reflector changed were never shown: even a plan's approval does not cover them.
    const changed = entry.overrides !== undefined;
    if (gate?.status === "approved" && gate.mode === "plan" && !varies && !changed) return false;
    const resolved = resolveStepInput(entry, this.#table.results);
    // A step whose references fail never reaches its tool: it fails on its own.
    if (!resolved.ok) return false;
    const input = resolved.input as Record<string, unknown>;
    const mode = varies ? this.#policy.approvalOf(entry.step, input, true) : gate?.mode;
    if (gate?.status === "approved") {
      const strict = gate.mode === "step" || mode === "step" || changed;
      if (!strict || canonicalJson(input) === canonicalJson(gate.shown)) return false;
    } else if (mode === undefined) {
      return false;
    }
    const item = this.#desk.describe(entry, this.#table, mode ?? "step");
    item.arguments = input;
    item.waiting = [];
    this.#ask([entry], "step", 1, [item]);
    return true;
  }

  /**
   * Applies decisions: all are checked first, so a refused batch changes nothing.
   *
   * @param decisions - one decision or a list.
   * @throws PlankitError `invalid-approval` or `invalid-argument`; see {@link ApprovalDesk.check}.
   */
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): void {
    if (this.#isEnded()) throw new PlankitError("invalid-approval", `Run "${this.#input.runId}" already ended; no step waits for approval`);
    const checked = this.#desk.check(decisions, this.#table);
    for (const decision of checked) this.#decide(decision, "caller");
    this.#settle();
  }

  /**
   * Ends every request still waiting as its timeout would: its undecided
   * steps are denied (`by: "timeout"`).
   */
  expireApprovals(): void {
    if (this.#isEnded()) return;
    const requests = new Set<string>();
    for (const entry of this.#desk.waiting) if (entry.approval?.status === "requested") requests.add(entry.approval.requestId);
    for (const requestId of requests) this.#timeOut(requestId);
  }

  /**
   * Applies one checked decision.
   *
   * @param decision - the decision.
   * @param by - who decided.
   */
  #decide(decision: CheckedDecision, by: "caller" | "timeout"): void {
    const { entry, requestId } = decision;
    this.#desk.waiting.delete(entry);
    // An earlier decision of the same batch may have ended it (a denied dependency): the decision is recorded, nothing more.
    const open = entry.status === "pending";
    const event: Extract<RuntimeEvent, { type: "approval-decision" }> = { type: "approval-decision", runId: "", t: 0, requestId, stepId: entry.step.id, approved: decision.approved, by };
    if (decision.approved) {
      if (decision.arguments !== undefined) {
        const edited = snapshotValue(decision.arguments, { freeze: true, what: `Edited arguments of step "${entry.step.id}"` }) as Record<string, unknown>;
        entry.edited = edited;
        event.arguments = edited;
      }
      const shown = decision.arguments === undefined && entry.approval?.status === "requested" ? entry.approval.shown : this.#desk.describe(entry, this.#table, entry.approval?.mode ?? "step").arguments;
      entry.approval = { mode: entry.approval?.mode ?? "step", status: "approved", requestId, shown };
      this.#event(event);
      this.#desk.settled(requestId);
      if (open) this.#scheduler.reconsider([entry]);
      return;
    }
    event.reason = decision.reason;
    entry.approval = { mode: entry.approval?.mode ?? "step", status: "denied", requestId, reason: decision.reason };
    this.#event(event);
    this.#desk.settled(requestId);
    if (!open) return;
    // Denied with `replan`: like a failure, its dependents wait for the patch that may replace them.
    entry.error = { code: "denied", message: `Step "${entry.step.id}" was denied: ${decision.reason}` };
    entry.handled = !decision.replan;
    if (decision.replan) this.#failures.push(entry);
    this.#scheduler.forget(entry);
    this.#skip(entry, "denied", decision.reason);
    this.#scheduler.ended(entry);
  }

  /**
   * A request timed out: its undecided steps are denied.
   *
   * @param requestId - the request.
   */
  #timeOut(requestId: string): void {
    if (this.#isEnded()) return;
    const reason = `No decision within ${this.#desk.timeoutMs ?? 0} ms`;
    for (const entry of [...this.#desk.waiting]) {
      if (entry.approval?.status !== "requested" || entry.approval.requestId !== requestId) continue;
      this.#decide({ entry, requestId, approved: false, reason, replan: false }, "timeout");
    }
    this.#settle();
  }

  /**
   * A step ended some other way (skipped, aborted, replaced): it no longer waits.
   *
   * @param entry - the step.
   */
  #forgetApproval(entry: StepEntry): void {
    if (!this.#desk.waiting.delete(entry)) return;
    const gate = entry.approval;
    if (gate?.status === "requested") this.#desk.settled(gate.requestId);
  }

  // ── re-planning ─────────────────────────────────────────────────────────

  /** Asks the planner for a patch, then applies it. */
  async #replan(): Promise<void> {
    const failed = this.#failures;
    this.#failures = [];
    const remaining = this.#table.order.filter((entry) => entry.status === "pending");
    const attempt = this.#meter.countReplan();
    this.#meter.usage.modelCalls++;
    this.#event({ type: "plan-start", kind: "replan", query: this.#input.query, attempt });
    let patch: { steps: PlanStep[]; clean: boolean } | undefined;
    try {
      const request: ReplanRequest = {
        query: this.#input.query,
        tools: this.#config.registry,
        completed: this.#table.completed(),
        failed: failed.map((entry): FailedStep => ({ step: entry.step, error: entry.error?.message ?? "failed" })),
        remaining: remaining.map((entry) => entry.step),
        signal: this.signal,
      };
      if (this.#config.profile !== undefined) request.profile = this.#config.profile;
      const planner = this.#config.planner;
      if (planner.streamReplan !== undefined) {
        // A planner that streams its patch (LLMPlanner) reports its issues, repairs, model calls and whether it ended cleanly.
        this.#meter.usage.modelCalls--;
        patch = await this.#readPatch(planner.streamReplan(request), attempt);
      } else {
        const steps = await withTimeout(this.#config.clock, this.#config.modelTimeouts.totalMs, this.signal, `Re-planning timed out after ${this.#config.modelTimeouts.totalMs} ms`, () =>
          this.#config.planner.replan(request),
        );
        patch = Array.isArray(steps) ? { steps, clean: true } : undefined;
      }
    } catch {
      patch = undefined;
    }
    if (this.#isEnded()) return;
    for (const entry of failed) entry.handled = true;
    if (patch !== undefined && patch.steps.length > 0) {
      for (const entry of failed) entry.superseded = true;
      const stillPending = remaining.filter((entry) => entry.status === "pending");
      const { steps, renamed } = renamePatch(patch.steps, attempt, (id) => this.#table.has(id));
      this.#event({
        type: "replan",
        attempt,
        failed: failed.map((entry) => entry.step.id),
        replaced: stillPending.map((entry) => entry.step.id),
        added: steps.map((step) => step.id),
        renamed,
      });
      for (const entry of stillPending) this.#skip(entry, "replaced", `Re-plan ${attempt} replaced it`);
      // The patch is whole before any of it starts: readiness sees every new step, and the source's state.
      const source: StepSource = { kind: "replan", attempt, state: patch.clean ? "clean" : "unclean" };
      const added: StepEntry[] = [];
      for (const step of steps) {
        const entry = this.#register(step, source);
        if (entry !== undefined) added.push(entry);
      }
      this.#phase = "executing";
      this.#requestApprovals(source);
      this.#scheduler.reconsider(added);
    }
    this.#phase = "executing";
    this.#scheduler.reopen("replan");
    this.#settle();
  }

  /**
   * Reads a streamed patch: forwards issues and repairs, counts the model
   * calls and tokens of `done`, and returns its steps and whether it ended cleanly.
   *
   * @param events - the planner's patch events.
   * @param attempt - the re-plan number, for repair events.
   * @returns the patch, or `undefined` when the stream ended without `done`.
   */
  async #readPatch(events: AsyncIterable<PlannerEvent>, attempt: number): Promise<{ steps: PlanStep[]; clean: boolean } | undefined> {
    let done: PlannerDone | undefined;
    try {
      done = await readPlannerEvents(
        events,
        {
          issue: (issue, action) => this.#event({ type: "step-issue", issue, action }),
          repair: () => this.#event({ type: "plan-start", kind: "repair", query: this.#input.query, attempt }),
        },
        this.#plannerReading("Re-planning"),
      );
    } finally {
      if (done === undefined) this.#meter.usage.modelCalls++;
      else this.#meter.countPlanner(done.usage.modelCalls, done.usage);
    }
    return done === undefined ? undefined : { steps: done.steps, clean: done.clean };
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
    const streaming = this.#streamingReply;
    if (streaming !== undefined && streaming.entry === undefined) {
      this.#replyDelta(streaming.stream.advance(this.#table.results, (id) => this.#table.get(id)?.status, true));
      this.#event(this.#stepReply(streaming));
      return;
    }
    let last: StepEntry | undefined;
    for (const entry of this.#table.order) if (entry.step.type === "reply" && entry.status === "succeeded") last = entry;
    if (last !== undefined) {
      const text = String(this.#table.results.get(last.step.id));
      if (streaming?.entry !== last) this.#replyDelta(text);
      this.#event({ type: "reply", text, source: "step", stepId: last.step.id });
      return;
    }
    const integrated = await this.#integrate();
    if (this.#isEnded()) return;
    if (integrated === undefined) {
      const text = renderTemplateReply(this.#table);
      this.#replyDelta(text);
      this.#event({ type: "reply", text, source: "template" });
    } else {
      this.#event({ type: "reply", text: integrated, source: "model" });
    }
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
      (delta) => this.#replyDelta(delta),
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
    this.#desk.close();
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
    this.#recordOutcome(ordered);
    if (ordered.type === "run-end") this.#deliverOutcomes();
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

