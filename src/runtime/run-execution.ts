/**
 * One run of the runtime: the scheduler, attempts, reflection, re-planning
 * and the end of the run. Internal: `AgentRuntime.run` drives it.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { PlanModel, PlanModelPart, PlanModelRequest } from "../model/plan-model.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { referencesOf } from "../plan/references-of.ts";
import { resolveReferences } from "../plan/resolve-references.ts";
import { CONTEXT_REFERENCE_ROOT } from "../plan/step-id-schema.ts";
import type { CompletedStep, FailedStep, Planner, PlannerEvent, PlannerProfile, ReplanRequest } from "../planner/planner-event.ts";
import type { ToolRegistry } from "../tools/tool-registry.ts";
import { canonicalJson } from "./canonical-json.ts";
import { collectModelText } from "./collect-model-text.ts";
import { computeBackoff, type BackoffPolicy } from "./compute-backoff.ts";
import type { MemoryEntry, MemoryStore } from "./memory-store.ts";
import { raceSignal } from "./race-signal.ts";
import type { Reflection, Reflector } from "./reflector.ts";
import type { CacheHit, ResultCache } from "./result-cache.ts";
import type { RuntimeBudget } from "./runtime-budget.ts";
import type { RuntimeClock } from "./runtime-clock.ts";
import type { RunEndReason, RuntimeErrorInfo, RuntimeEvent, RuntimeUsage, StepSkipCode } from "./runtime-event.ts";
import type { StepAttemptOutcome, StepCall, StepExecutor } from "./step-executor.ts";
import { truncateJson } from "./truncate-json.ts";

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
  cache: ResultCache | undefined;
  integrate: "model" | "template";
  clock: RuntimeClock;
  random: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  executeStep: StepExecutor | undefined;
}

/** What a run is asked. */
export interface RunInput {
  runId: string;
  query: string;
  /** Earlier turns of the conversation, for the planner's context. */
  history: string;
  context: Record<string, unknown>;
}

type EntryStatus = "pending" | "running" | "succeeded" | "failed" | "skipped";

interface Entry {
  step: PlanStep;
  index: number;
  source: "plan" | "replan";
  safe: boolean;
  deps: string[];
  status: EntryStatus;
  attempts: number;
  /** Bumped whenever an attempt's outcome must be ignored (abort). */
  generation: number;
  reflections: number;
  overrides: Record<string, unknown> | undefined;
  lastInput: unknown;
  error: RuntimeErrorInfo | undefined;
  /** A failure the re-plan logic has dealt with. */
  handled: boolean;
  /** A failure a re-plan patch replaced. */
  superseded: boolean;
  skipCode: StepSkipCode | undefined;
}

/** How one attempt ended. */
type Outcome =
  | { ok: true; value: unknown; cached: boolean }
  | { ok: false; error: RuntimeErrorInfo; permanent: boolean }
  | { ok: "skip"; code: StepSkipCode; reason: string };

type Readiness = { kind: "ready" } | { kind: "wait" } | { kind: "skip"; code: StepSkipCode; reason: string };

/** Errors that another identical attempt cannot fix. */
const permanentCodes = new Set(["invalid-argument", "unknown-tool", "unknown-reference", "aborted", "budget-exceeded"]);

/**
 * An error as plain JSON.
 *
 * @param error - anything thrown.
 * @param fallbackCode - the code for errors that are not plankit errors.
 * @returns the code and message.
 */
function errorInfo(error: unknown, fallbackCode: string): RuntimeErrorInfo {
  if (PlankitError.isInstance(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: fallbackCode, message: error.message === "" ? error.name : error.message };
  return { code: fallbackCode, message: String(error) };
}

/**
 * Whether a value is a thenable.
 *
 * @param value - anything.
 * @returns the check.
 */
function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * Rewrites references to `from` as references to `to` in every string of a value.
 *
 * @param value - step arguments, a prompt or a reply text.
 * @param from - the old id.
 * @param to - the new id.
 * @returns the value with references renamed.
 */
function renameReferences(value: unknown, from: string, to: string): unknown {
  const escaped = from.replace(/[\\^$.*+?()[\]{}|]/gu, "\\$&");
  const pattern = new RegExp(`\\{\\{(\\s*)${escaped}(?=[\\s.\\[}])`, "gu");
  const visit = (current: unknown): unknown => {
    if (typeof current === "string") return current.replace(pattern, `{{$1${to}`);
    if (Array.isArray(current)) return current.map(visit);
    if (typeof current === "object" && current !== null) {
      const next: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(current)) {
        Object.defineProperty(next, key, { value: visit(item), enumerable: true, writable: true, configurable: true });
      }
      return next;
    }
    return current;
  };
  return visit(value);
}

/**
 * A step with references to `from` renamed to `to`, in its data and `dependsOn`.
 *
 * @param step - a step.
 * @param from - the old id.
 * @param to - the new id.
 * @returns the renamed step.
 */
function renameInStep(step: PlanStep, from: string, to: string): PlanStep {
  const renamed = { ...step } as PlanStep;
  if (renamed.type === "tool") renamed.arguments = renameReferences(renamed.arguments, from, to) as Record<string, unknown>;
  else if (renamed.type === "llm") renamed.prompt = renameReferences(renamed.prompt, from, to) as string;
  else renamed.text = renameReferences(renamed.text, from, to) as string;
  if (renamed.dependsOn !== undefined) renamed.dependsOn = renamed.dependsOn.map((id) => (id === from ? to : id));
  return renamed;
}

/**
 * Runs one request: streams the plan, schedules steps as they arrive,
 * retries, reflects, re-plans, replies, and emits every event through `emit`.
 */
export class RunExecution {
  readonly #config: RunConfig;
  readonly #input: RunInput;
  readonly #emit: (event: RuntimeEvent) => void;
  readonly #controller = new AbortController();
  readonly #entries = new Map<string, Entry>();
  readonly #order: Entry[] = [];
  readonly #results = new Map<string, unknown>();
  readonly #usage: RuntimeUsage = { modelCalls: 0, toolCalls: 0, cacheHits: 0, replans: 0, inputTokens: 0, outputTokens: 0 };
  readonly #reflections: { stepId: string; verdict: Reflection }[] = [];
  readonly #countedModel: PlanModel | undefined;
  #startedAt = 0;
  #planDone = false;
  #planClean = false;
  #plannerError: RuntimeErrorInfo | undefined;
  #running = 0;
  #busy = 0;
  #started = 0;
  #ended = false;
  #finishing = false;
  #settling = false;
  #settleAgain = false;
  #budgetHit = false;
  #stopError: RuntimeErrorInfo | undefined;
  #deadlineTimer: unknown;
  #replyText: string | undefined;
  #planIterator: AsyncIterator<PlannerEvent> | undefined;
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
    this.#results.set(CONTEXT_REFERENCE_ROOT, input.context);
    const model = config.model;
    if (model !== undefined) {
      // The model as reflectors and llm steps see it: every call is counted and budgeted.
      const counted: PlanModel = {
        stream: (request: PlanModelRequest) => this.#countedStream(model, request),
      };
      this.#countedModel = counted;
    }
  }

  /** The run's abort signal: the caller's signal, the deadline, or an internal stop. */
  get signal(): AbortSignal {
    return this.#controller.signal;
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
    if (deadlineMs !== undefined) {
      this.#deadlineTimer = this.#config.clock.setTimeout(() => this.abort("deadline", `The run passed its deadline of ${deadlineMs} ms`), deadlineMs);
    }
    this.#guard(this.#plan());
    return this.#finished;
  }

  /**
   * Stops the run at once: running steps fail with `aborted`, pending steps
   * are skipped, and `run-end` is emitted before this returns.
   *
   * @param reason - `aborted`, `deadline`, or `failed` (a reflector or an internal error).
   * @param message - what happened.
   */
  abort(reason: "aborted" | "deadline" | "failed", message: string): void {
    if (this.#ended) return;
    this.#ended = true;
    const code = reason === "deadline" ? "timeout" : "aborted";
    this.#controller.abort(new PlankitError(code === "timeout" ? "timeout" : "aborted", message));
    for (const entry of this.#order) {
      if (entry.status === "running") {
        entry.generation++;
        entry.status = "failed";
        entry.error = { code, message };
        this.#event({ type: "step-error", stepId: entry.step.id, attempt: Math.max(1, entry.attempts), error: entry.error, final: true, durationMs: 0 });
      } else if (entry.status === "pending") {
        entry.status = "skipped";
        this.#event({ type: "step-skipped", stepId: entry.step.id, code: "aborted", reason: message });
      }
    }
    this.#running = 0;
    if (reason !== "aborted") {
      // A deadline or a reflector's "abort" still owes the user an answer; the template needs no await.
      this.#event({ type: "reply", text: this.#templateReply(), source: "template" });
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
    if (this.#ended) return;
    this.#event({ type: "plan-start", kind: "plan", query: this.#input.query, attempt: 1 });
    let done: Extract<PlannerEvent, { type: "done" }> | undefined;
    let repairs = 0;
    try {
      const request: Parameters<Planner["stream"]>[0] = { query: this.#input.query, tools: this.#config.registry, signal: this.signal };
      if (this.#config.profile !== undefined) request.profile = this.#config.profile;
      if (context !== "") request.context = context;
      const iterator = this.#config.planner.stream(request)[Symbol.asyncIterator]();
      this.#planIterator = iterator;
      for (;;) {
        const next = await raceSignal(iterator.next(), this.signal);
        if (this.#ended) return;
        if (next.done === true) break;
        const event = next.value;
        if (event.type === "step") this.#addStep(event.step, "plan");
        else if (event.type === "issue") this.#event({ type: "step-issue", issue: event.issue, action: event.action });
        else if (event.type === "repair") {
          repairs++;
          this.#event({ type: "plan-start", kind: "repair", query: this.#input.query, attempt: repairs });
        } else if (event.type === "done") done = event;
      }
    } catch (error) {
      if (this.#ended) return;
      this.#plannerError = errorInfo(error, "model-error");
    }
    if (this.#ended) return;
    // A planner that only reports its steps in `done` still gets them run.
    for (const step of done?.steps ?? []) if (!this.#entries.has(step.id)) this.#addStep(step, "plan");
    this.#planDone = true;
    this.#planClean = this.#plannerError === undefined && done?.clean === true;
    const usage = done?.usage;
    this.#usage.modelCalls += usage?.modelCalls ?? (this.#plannerError === undefined ? 0 : 1);
    this.#usage.inputTokens += usage?.inputTokens ?? 0;
    this.#usage.outputTokens += usage?.outputTokens ?? 0;
    const planEnd: Extract<RuntimeEvent, { type: "plan-end" }> = {
      type: "plan-end",
      runId: "",
      t: 0,
      clean: this.#planClean,
      finishReason: this.#plannerError !== undefined ? "error" : (done?.finishReason ?? "missing"),
      fallback: done?.fallback ?? false,
      steps: this.#order.length,
      modelCalls: usage?.modelCalls ?? 0,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
    };
    if (this.#plannerError !== undefined) planEnd.error = this.#plannerError;
    this.#event(planEnd);
    this.#settle();
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
      try {
        const found = memory.read(this.#input.query);
        const entries = isPromiseLike<readonly MemoryEntry[]>(found) ? await raceSignal(found, this.signal) : found;
        if (entries.length > 0) {
          parts.push(`Memory of earlier runs:\n${entries.map((entry) => `- [${entry.kind}] ${entry.query}: ${truncateJson(entry.content, 300)}`).join("\n")}`);
        }
      } catch {
        // Memory is advisory; a store that fails does not stop the run.
      }
    }
    return parts.join("\n\n");
  }

  /**
   * Adds a step and starts it at once when it is ready.
   *
   * @param step - a validated step.
   * @param source - the plan stream or a re-plan patch.
   */
  #addStep(step: PlanStep, source: "plan" | "replan"): void {
    if (this.#entries.has(step.id)) {
      this.#event({
        type: "step-issue",
        issue: { code: "duplicate-id", index: this.#order.length, stepId: step.id, path: "/steps", message: `Step id "${step.id}" is already taken; the step was dropped` },
        action: "dropped",
      });
      return;
    }
    const entry: Entry = {
      step,
      index: this.#order.length,
      source,
      safe: this.#isSafe(step),
      deps: referencesOf(step),
      status: "pending",
      attempts: 0,
      generation: 0,
      reflections: 0,
      overrides: undefined,
      lastInput: undefined,
      error: undefined,
      handled: false,
      superseded: false,
      skipCode: undefined,
    };
    this.#entries.set(step.id, entry);
    this.#order.push(entry);
    this.#event({ type: "step-planned", step, index: entry.index, source, safe: entry.safe });
    this.#settle();
  }

  /**
   * Whether a step may start while the plan streams: `llm` and `reply`
   * steps, and tools annotated read-only, or idempotent and not explicitly
   * destructive (an idempotent delete is still a delete).
   *
   * @param step - the step.
   * @returns the check.
   */
  #isSafe(step: PlanStep): boolean {
    if (step.type !== "tool") return true;
    const annotations = this.#config.registry.get(step.name)?.annotations;
    if (annotations === undefined) return false;
    if (annotations.readOnlyHint === true) return true;
    return annotations.idempotentHint === true && annotations.destructiveHint !== true;
  }

  // ── scheduling ──────────────────────────────────────────────────────────

  /** Re-evaluates the plan after any change; re-entrant calls are folded into a loop. */
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
      } while (this.#settleAgain && !this.#ended && !this.#finishing);
    } finally {
      this.#settling = false;
    }
  }

  /** Starts what is ready; once nothing runs, re-plans or finishes. */
  #settleOnce(): void {
    if (this.#ended || this.#finishing) return;
    this.#pump();
    if (!this.#planDone || this.#running > 0 || this.#busy > 0 || this.#ended) return;
    if (this.#replanPending()) {
      this.#guard(this.#replan());
      return;
    }
    for (const entry of this.#order) {
      if (entry.status !== "failed" || entry.handled) continue;
      entry.handled = true;
      if (this.#replanBudgetSpent()) this.#budgetHit = true;
    }
    this.#pump();
    if (this.#running > 0 || this.#busy > 0 || this.#ended) return;
    for (const entry of this.#order) {
      if (entry.status === "pending") this.#skip(entry, "dependency-failed", "It never became ready");
    }
    this.#finishing = true;
    this.#guard(this.#finish());
  }

  /** Starts every ready step the policy and concurrency allow; skips what can never run. */
  #pump(): void {
    for (const entry of this.#order) {
      if (this.#ended) return;
      if (entry.status !== "pending") continue;
      const readiness = this.#readiness(entry);
      if (readiness.kind === "skip") {
        this.#skip(entry, readiness.code, readiness.reason);
        continue;
      }
      if (readiness.kind === "wait") continue;
      if (entry.step.type === "reply") {
        this.#runReply(entry);
        continue;
      }
      if (this.#running >= this.#config.maxConcurrency) continue;
      const stepBudget = this.#config.budget.steps;
      if (stepBudget !== undefined && this.#started >= stepBudget) {
        this.#budgetHit = true;
        this.#skip(entry, "budget", `The step budget of ${stepBudget} is spent`);
        continue;
      }
      this.#started++;
      this.#running++;
      entry.status = "running";
      this.#guard(this.#runAttempts(entry));
    }
  }

  /**
   * Whether a pending step can start now, must wait, or can never run.
   *
   * @param entry - a pending step.
   * @returns the verdict.
   */
  #readiness(entry: Entry): Readiness {
    const known = this.#planDone || entry.source === "replan";
    for (const id of entry.deps) {
      const dependency = this.#entries.get(id);
      if (dependency === undefined) {
        if (known) return { kind: "skip", code: "unknown-dependency", reason: `It depends on step "${id}", which is not in the plan` };
        return { kind: "wait" };
      }
      if (dependency.status === "succeeded") continue;
      if (dependency.status === "skipped") return { kind: "skip", code: "dependency-failed", reason: `It depends on step "${id}", which was skipped` };
      if (dependency.status === "failed") {
        if (dependency.handled || !this.#canReplan()) return { kind: "skip", code: "dependency-failed", reason: `It depends on step "${id}", which failed` };
        return { kind: "wait" };
      }
      return { kind: "wait" };
    }
    if (entry.step.type === "reply") {
      // The reply is resolved last: after every other step ended and no re-plan is due.
      if (!this.#planDone || this.#busy > 0 || this.#replanPending()) return { kind: "wait" };
      for (const other of this.#order) {
        if (other !== entry && other.step.type !== "reply" && (other.status === "pending" || other.status === "running")) return { kind: "wait" };
      }
      return { kind: "ready" };
    }
    const patched = entry.source === "replan";
    if (!entry.safe && !patched && this.#planDone && !this.#planClean) {
      return {
        kind: "skip",
        code: "unsafe-plan",
        reason: "It has side effects and the plan did not finish cleanly",
      };
    }
    if (this.#planDone || patched) return { kind: "ready" };
    const early = this.#config.eager === "all" || (this.#config.eager === "safe" && entry.safe);
    return early ? { kind: "ready" } : { kind: "wait" };
  }

  /**
   * Marks a pending step skipped.
   *
   * @param entry - the step.
   * @param code - why.
   * @param reason - why, in words.
   */
  #skip(entry: Entry, code: StepSkipCode, reason: string): void {
    entry.status = "skipped";
    entry.skipCode = code;
    this.#event({ type: "step-skipped", stepId: entry.step.id, code, reason });
  }

  // ── attempts ────────────────────────────────────────────────────────────

  /**
   * Runs a tool or llm step's attempts until it succeeds or fails for good.
   * Everything up to the tool call is synchronous, so a ready step's tool
   * starts in the same tick its `step` event arrived.
   *
   * @param entry - a step marked running.
   */
  async #runAttempts(entry: Entry): Promise<void> {
    const executor = this.#config.executeStep;
    for (;;) {
      const generation = entry.generation;
      let attempt: number;
      let result: Outcome;
      let durationMs: number;
      if (executor === undefined) {
        attempt = ++entry.attempts;
        const startedAt = this.#config.clock.now();
        const outcome = this.#attempt(entry, attempt);
        result = isPromiseLike<Outcome>(outcome) ? await outcome : outcome;
        if (this.#ended || entry.generation !== generation) return;
        durationMs = this.#round(this.#config.clock.now() - startedAt);
      } else {
        const executed = await this.#execute(entry, executor);
        if (this.#ended || entry.generation !== generation) return;
        attempt = Math.max(1, entry.attempts);
        result = executed.outcome;
        durationMs = executed.durationMs;
      }
      if (result.ok === "skip") {
        if (attempt === 1) {
          this.#skip(entry, result.code, result.reason);
        } else {
          entry.status = "failed";
          entry.error = { code: "budget-exceeded", message: result.reason };
          this.#event({ type: "step-error", stepId: entry.step.id, attempt, error: entry.error, final: true, durationMs });
        }
        this.#running--;
        this.#settle();
        return;
      }
      if (result.ok) {
        entry.status = "succeeded";
        this.#results.set(entry.step.id, result.value);
        this.#event({ type: "step-end", stepId: entry.step.id, attempt, result: result.value, durationMs, cached: result.cached });
        this.#running--;
        this.#settle();
        return;
      }
      entry.error = result.error;
      if (executor === undefined && !result.permanent && attempt <= this.#retriesOf(entry.step)) {
        this.#event({ type: "step-error", stepId: entry.step.id, attempt, error: result.error, final: false, durationMs });
        const delayMs = computeBackoff(attempt, this.#config.backoff, this.#config.random);
        this.#event({ type: "step-retry", stepId: entry.step.id, attempt: attempt + 1, delayMs, cause: "policy" });
        try {
          await this.#config.sleep(delayMs, this.signal);
        } catch {
          // Aborted while waiting: `abort` has already ended the step.
        }
        if (this.#ended || entry.generation !== generation) return;
        continue;
      }
      const verdict = await this.#reflect(entry, result.error);
      if (this.#ended || entry.generation !== generation) return;
      if (verdict?.action === "retry") {
        entry.reflections++;
        if (verdict.arguments !== undefined) entry.overrides = { ...entry.overrides, ...verdict.arguments };
        this.#event({ type: "step-error", stepId: entry.step.id, attempt, error: result.error, final: false, durationMs });
        const retry: Extract<RuntimeEvent, { type: "step-retry" }> = { type: "step-retry", runId: "", t: 0, stepId: entry.step.id, attempt: attempt + 1, delayMs: 0, cause: "reflection" };
        if (verdict.arguments !== undefined) retry.arguments = verdict.arguments;
        this.#event(retry);
        continue;
      }
      entry.status = "failed";
      this.#event({ type: "step-error", stepId: entry.step.id, attempt, error: result.error, final: true, durationMs });
      this.#running--;
      if (verdict?.action === "abort") {
        this.abort("failed", `A reflector stopped the run after step "${entry.step.id}" failed: ${verdict.reason}`);
        return;
      }
      this.#settle();
      return;
    }
  }

  /**
   * Hands a step to the caller's {@link StepExecutor}: resolves its
   * references (a step whose references fail never reaches the executor),
   * lends it an `attempt` function that runs one attempt with the runtime's
   * semantics, and turns its answer into the step's outcome. Retries are the
   * executor's, so a failure it returns is final for the retry policy.
   *
   * @param entry - a step marked running.
   * @param executor - the caller's executor.
   * @returns the outcome, and the duration of the last attempt.
   */
  async #execute(entry: Entry, executor: StepExecutor): Promise<{ outcome: Outcome; durationMs: number }> {
    const step = entry.step;
    const resolved = this.#resolveInput(entry);
    if (!resolved.ok || step.type === "reply") {
      const outcome = this.#attempt(entry, ++entry.attempts);
      return { outcome: isPromiseLike<Outcome>(outcome) ? await outcome : outcome, durationMs: 0 };
    }
    const input = resolved.input;
    const generation = entry.generation;
    const retries = this.#retriesOf(step);
    const stopped: StepAttemptOutcome = { ok: false, error: { code: "aborted", message: "The run ended" }, retryable: false };
    let refused: Extract<Outcome, { ok: "skip" }> | undefined;
    let durationMs = 0;
    const call: StepCall = {
      runId: this.#input.runId,
      step,
      input,
      retries,
      timeoutMs: step.timeoutMs ?? this.#config.timeoutMs,
      backoff: this.#config.backoff,
      signal: this.signal,
      attempt: async (options = {}) => {
        if (this.#ended || entry.generation !== generation) return stopped;
        const number = options.number ?? entry.attempts + 1;
        entry.attempts = number;
        const startedAt = this.#config.clock.now();
        const pending = this.#attemptWith(entry, input, number);
        const outcome = isPromiseLike<Outcome>(pending) ? await pending : pending;
        durationMs = this.#round(this.#config.clock.now() - startedAt);
        if (this.#ended || entry.generation !== generation) return stopped;
        if (outcome.ok === "skip") {
          refused = outcome;
          return { ok: false, error: { code: "budget-exceeded", message: outcome.reason }, retryable: false };
        }
        if (outcome.ok) return { ok: true, value: outcome.value, cached: outcome.cached };
        entry.error = outcome.error;
        const retryable = !outcome.permanent && number <= retries;
        if (retryable) {
          this.#event({ type: "step-error", stepId: step.id, attempt: number, error: outcome.error, final: false, durationMs });
          const delayMs = options.retryDelayMs ?? computeBackoff(number, this.#config.backoff, this.#config.random);
          this.#event({ type: "step-retry", stepId: step.id, attempt: number + 1, delayMs, cause: "policy" });
        }
        return { ok: false, error: outcome.error, retryable };
      },
    };
    let final: StepAttemptOutcome | undefined;
    try {
      final = await executor(call);
    } catch (error) {
      final = { ok: false, error: errorInfo(error, "tool-error"), retryable: false };
    }
    if (final?.ok === true) return { outcome: { ok: true, value: final.value, cached: final.cached === true }, durationMs };
    if (refused !== undefined) return { outcome: refused, durationMs };
    const error = final?.error ?? { code: "tool-error", message: `The step executor returned no outcome for step "${step.id}"` };
    return { outcome: { ok: false, error, permanent: true }, durationMs };
  }

  /**
   * How many retries a step's policy allows after its first attempt.
   *
   * @param step - the step.
   * @returns its own `retries`, else the runtime's for steps retried by default, else 0.
   */
  #retriesOf(step: PlanStep): number {
    return step.retries ?? (this.#retriesByDefault(step) ? this.#config.retries : 0);
  }

  /**
   * Whether a step is retried without its own `retries`: `llm` steps and
   * read-only or idempotent tools. Another tool may have acted before it
   * failed or timed out (a message sent, an order placed), so repeating it is
   * left to the plan (`retries` on the step) or a reflector.
   *
   * @param step - the step.
   * @returns the check.
   */
  #retriesByDefault(step: PlanStep): boolean {
    if (step.type !== "tool") return true;
    const annotations = this.#config.registry.get(step.name)?.annotations;
    return annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
  }

  /**
   * One attempt. Returns synchronously for a synchronous cache hit or a
   * refusal, so no tick is spent before a tool starts.
   *
   * @param entry - the step.
   * @param attempt - the attempt number.
   * @returns the outcome.
   */
  #attempt(entry: Entry, attempt: number): Outcome | Promise<Outcome> {
    const step = entry.step;
    const resolved = this.#resolveInput(entry);
    if (!resolved.ok) {
      this.#event({ type: "step-start", stepId: step.id, attempt, cached: false, ...(step.type === "tool" ? { tool: step.name } : {}) });
      return { ok: false, error: resolved.error, permanent: true };
    }
    return this.#attemptWith(entry, resolved.input, attempt);
  }

  /**
   * Resolves a step's references: its arguments (with a reflector's
   * changes) or its prompt.
   *
   * @param entry - the step.
   * @returns the input, or the reference error.
   */
  #resolveInput(entry: Entry): { ok: true; input: unknown } | { ok: false; error: RuntimeErrorInfo } {
    const step = entry.step;
    try {
      const input =
        step.type === "tool"
          ? resolveReferences(entry.overrides === undefined ? step.arguments : { ...step.arguments, ...entry.overrides }, this.#results)
          : step.type === "llm"
            ? resolveReferences(step.prompt, this.#results)
            : undefined;
      return { ok: true, input };
    } catch (error) {
      return { ok: false, error: errorInfo(error, "unknown-reference") };
    }
  }

  /**
   * One attempt with the input resolved.
   *
   * @param entry - the step.
   * @param input - the resolved arguments or prompt.
   * @param attempt - the attempt number.
   * @returns the outcome.
   */
  #attemptWith(entry: Entry, input: unknown, attempt: number): Outcome | Promise<Outcome> {
    const step = entry.step;
    entry.lastInput = input;
    if (step.type === "tool") return this.#attemptTool(entry, step.name, input as Record<string, unknown>, attempt);
    if (step.type === "llm") return this.#attemptModel(entry, typeof input === "string" ? input : JSON.stringify(input), attempt);
    return { ok: false, error: { code: "invalid-step", message: `Step "${step.id}" cannot be run as a task` }, permanent: true };
  }

  /**
   * Calls a tool (or serves it from the cache) under a per-attempt timeout.
   *
   * @param entry - the step.
   * @param name - the tool.
   * @param args - the resolved arguments.
   * @param attempt - the attempt number.
   * @returns the outcome, synchronously for a synchronous cache hit.
   */
  #attemptTool(entry: Entry, name: string, args: Record<string, unknown>, attempt: number): Outcome | Promise<Outcome> {
    const annotations = this.#config.registry.get(name)?.annotations;
    const cache = annotations?.readOnlyHint === true || annotations?.idempotentHint === true ? this.#config.cache : undefined;
    const key = cache === undefined ? "" : `${name} ${canonicalJson(args)}`;
    const fromCache = (hit: CacheHit | undefined): Outcome | undefined => {
      if (hit === undefined) return undefined;
      this.#usage.cacheHits++;
      this.#event({ type: "step-start", stepId: entry.step.id, attempt, tool: name, input: args, cached: true });
      return { ok: true, value: hit.value, cached: true };
    };
    if (cache !== undefined) {
      let lookup: CacheHit | undefined | PromiseLike<CacheHit | undefined>;
      try {
        lookup = cache.get(key);
      } catch {
        lookup = undefined;
      }
      if (isPromiseLike<CacheHit | undefined>(lookup)) {
        const generation = entry.generation;
        return raceSignal(lookup, this.signal)
          .catch(() => undefined)
          .then((hit): Outcome | Promise<Outcome> => {
            if (this.#ended || entry.generation !== generation) return { ok: "skip", code: "aborted", reason: "The run ended" };
            return fromCache(hit) ?? this.#callTool(entry, name, args, attempt, cache, key);
          });
      }
      const hit = fromCache(lookup);
      if (hit !== undefined) return hit;
    }
    return this.#callTool(entry, name, args, attempt, cache, key);
  }

  /**
   * Calls the registry.
   *
   * @param entry - the step.
   * @param name - the tool.
   * @param args - the resolved arguments.
   * @param attempt - the attempt number.
   * @param cache - where to store the result, if anywhere.
   * @param key - the cache key.
   * @returns the outcome.
   */
  #callTool(
    entry: Entry,
    name: string,
    args: Record<string, unknown>,
    attempt: number,
    cache: ResultCache | undefined,
    key: string,
  ): Outcome | Promise<Outcome> {
    const limit = this.#config.budget.toolCalls;
    if (limit !== undefined && this.#usage.toolCalls >= limit) {
      this.#budgetHit = true;
      return { ok: "skip", code: "budget", reason: `The tool call budget of ${limit} is spent` };
    }
    this.#usage.toolCalls++;
    this.#event({ type: "step-start", stepId: entry.step.id, attempt, tool: name, input: args, cached: false });
    const timeoutMs = entry.step.timeoutMs ?? this.#config.timeoutMs;
    return this.#withTimeout(entry, timeoutMs, (signal) =>
      this.#config.registry.call(name, args, { signal, callId: `${this.#input.runId}:${entry.step.id}:${attempt}` }),
    ).then(
      (value): Outcome => {
        if (cache !== undefined) {
          try {
            const stored = cache.set(key, value);
            if (isPromiseLike(stored)) Promise.resolve(stored).catch(() => undefined);
          } catch {
            // A cache that fails to store only costs a later call.
          }
        }
        return { ok: true, value, cached: false };
      },
      (error: unknown): Outcome => {
        const info = errorInfo(error, "tool-error");
        return { ok: false, error: info, permanent: permanentCodes.has(info.code) };
      },
    );
  }

  /**
   * Asks the model for an llm step.
   *
   * @param entry - the step.
   * @param prompt - the resolved prompt.
   * @param attempt - the attempt number.
   * @returns the outcome.
   */
  #attemptModel(entry: Entry, prompt: string, attempt: number): Outcome | Promise<Outcome> {
    const model = this.#countedModel;
    if (model === undefined) {
      this.#event({ type: "step-start", stepId: entry.step.id, attempt, input: prompt, cached: false });
      return { ok: false, error: { code: "model-error", message: `Step "${entry.step.id}" needs a model and the runtime has none` }, permanent: true };
    }
    if (!this.#modelCallAllowed()) {
      this.#budgetHit = true;
      return { ok: "skip", code: "budget", reason: `The model call budget of ${this.#config.budget.modelCalls} is spent` };
    }
    this.#event({ type: "step-start", stepId: entry.step.id, attempt, input: prompt, cached: false });
    const timeoutMs = entry.step.timeoutMs ?? this.#config.timeoutMs;
    return this.#withTimeout(entry, timeoutMs, async (signal) => {
      const answer = await collectModelText(model, { prompt, signal });
      if (answer.finishReason === "error") throw new PlankitError("model-error", `The model failed while answering step "${entry.step.id}"`);
      return answer.text;
    }).then(
      (value): Outcome => ({ ok: true, value, cached: false }),
      (error: unknown): Outcome => {
        const info = errorInfo(error, "model-error");
        return { ok: false, error: info, permanent: permanentCodes.has(info.code) };
      },
    );
  }

  /**
   * Runs work with its own abort signal, fired by the timeout or the run.
   * The wait ends when the signal fires even if the work ignores it.
   *
   * @param entry - the step, for the timeout message.
   * @param timeoutMs - the attempt's time limit.
   * @param work - the work, given the attempt's signal.
   * @returns the work's value.
   */
  #withTimeout<T>(entry: Entry, timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const runSignal = this.signal;
    const onRunAbort = (): void => controller.abort(runSignal.reason);
    runSignal.addEventListener("abort", onRunAbort, { once: true });
    const timer = this.#config.clock.setTimeout(() => {
      controller.abort(new PlankitError("timeout", `Step "${entry.step.id}" timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    let promise: Promise<T>;
    try {
      promise = work(controller.signal);
    } catch (error) {
      promise = Promise.reject(error);
    }
    return raceSignal(promise, controller.signal).finally(() => {
      this.#config.clock.clearTimeout(timer);
      runSignal.removeEventListener("abort", onRunAbort);
    });
  }

  /**
   * Asks the reflector about a failure, unless it already used its retries,
   * the run stopped, or the error is an abort.
   *
   * @param entry - the failed step.
   * @param error - the last error.
   * @returns the verdict, or `undefined`.
   */
  async #reflect(entry: Entry, error: RuntimeErrorInfo): Promise<Reflection | undefined> {
    const reflector = this.#config.reflector;
    if (reflector === undefined || entry.reflections >= this.#config.reflectionRetries) return undefined;
    if (error.code === "aborted" || error.code === "budget-exceeded" || this.signal.aborted) return undefined;
    let verdict: Reflection | undefined;
    try {
      const request: Parameters<Reflector["reflect"]>[0] = {
        query: this.#input.query,
        step: entry.step,
        input: entry.lastInput,
        error,
        attempts: entry.attempts,
        completed: this.#completed(),
        signal: this.signal,
      };
      if (entry.step.type === "tool") {
        const tool = this.#config.registry.get(entry.step.name);
        if (tool !== undefined) request.tool = tool;
      }
      if (this.#countedModel !== undefined) request.model = this.#countedModel;
      const answer = reflector.reflect(request);
      verdict = isPromiseLike<Reflection | undefined>(answer) ? await raceSignal(answer, this.signal) : answer;
    } catch {
      return undefined;
    }
    if (verdict === undefined || this.#ended) return undefined;
    if (verdict.action !== "retry" && verdict.action !== "new_plan" && verdict.action !== "abort") return undefined;
    this.#reflections.push({ stepId: entry.step.id, verdict });
    const event: Extract<RuntimeEvent, { type: "reflection" }> = { type: "reflection", runId: "", t: 0, stepId: entry.step.id, action: verdict.action, reason: verdict.reason ?? "" };
    if (verdict.action === "retry" && verdict.arguments !== undefined) event.arguments = verdict.arguments;
    this.#event(event);
    return verdict;
  }

  // ── reply steps ─────────────────────────────────────────────────────────

  /**
   * Resolves a reply step's text (synchronously).
   *
   * @param entry - a ready reply step.
   */
  #runReply(entry: Entry): void {
    if (entry.step.type !== "reply") return;
    entry.status = "running";
    entry.attempts = 1;
    this.#event({ type: "step-start", stepId: entry.step.id, attempt: 1, input: entry.step.text, cached: false });
    try {
      const resolved = resolveReferences(entry.step.text, this.#results);
      const text = typeof resolved === "string" ? resolved : (JSON.stringify(resolved) ?? "");
      entry.status = "succeeded";
      this.#results.set(entry.step.id, text);
      this.#event({ type: "step-end", stepId: entry.step.id, attempt: 1, result: text, durationMs: 0, cached: false });
    } catch (error) {
      entry.status = "failed";
      entry.handled = true;
      entry.error = errorInfo(error, "unknown-reference");
      this.#event({ type: "step-error", stepId: entry.step.id, attempt: 1, error: entry.error, final: true, durationMs: 0 });
    }
  }

  // ── re-planning ─────────────────────────────────────────────────────────

  /**
   * Whether a failure is waiting for a re-plan that may still happen.
   *
   * @returns the check.
   */
  #replanPending(): boolean {
    if (!this.#canReplan()) return false;
    return this.#order.some((entry) => entry.status === "failed" && !entry.handled && entry.step.type !== "reply");
  }

  /**
   * Whether the limits allow another re-plan.
   *
   * @returns the check.
   */
  #canReplan(): boolean {
    if (this.#ended) return false;
    const budget = this.#config.budget.replans;
    if (this.#usage.replans >= this.#config.maxReplans) return false;
    if ((budget !== undefined && this.#usage.replans >= budget) || !this.#modelCallAllowed()) {
      return false;
    }
    return true;
  }

  /**
   * Whether a budget (not `maxReplans`) is what prevents another re-plan.
   *
   * @returns the check.
   */
  #replanBudgetSpent(): boolean {
    if (this.#ended || this.#usage.replans >= this.#config.maxReplans) return false;
    const budget = this.#config.budget.replans;
    return (budget !== undefined && this.#usage.replans >= budget) || !this.#modelCallAllowed();
  }

  /** Asks the planner for a patch, then applies it. */
  async #replan(): Promise<void> {
    const failed = this.#order.filter((entry) => entry.status === "failed" && !entry.handled && entry.step.type !== "reply");
    const remaining = this.#order.filter((entry) => entry.status === "pending");
    this.#busy++;
    this.#usage.replans++;
    this.#usage.modelCalls++;
    const attempt = this.#usage.replans;
    this.#event({ type: "plan-start", kind: "replan", query: this.#input.query, attempt });
    let patch: PlanStep[] | undefined;
    try {
      const request: Parameters<Planner["replan"]>[0] = {
        query: this.#input.query,
        tools: this.#config.registry,
        completed: this.#completed(),
        failed: failed.map((entry): FailedStep => ({ step: entry.step, error: entry.error?.message ?? "failed" })),
        remaining: remaining.map((entry) => entry.step),
        signal: this.signal,
      };
      if (this.#config.profile !== undefined) request.profile = this.#config.profile;
      const streaming = (this.#config.planner as { streamReplan?: (request: ReplanRequest) => AsyncIterable<PlannerEvent> }).streamReplan;
      if (typeof streaming === "function") {
        // A planner that streams its patch (LLMPlanner) reports its issues, repairs and model calls.
        this.#usage.modelCalls--;
        patch = await this.#readPatch(streaming.call(this.#config.planner, request), attempt);
      } else {
        patch = await raceSignal(this.#config.planner.replan(request), this.signal);
      }
    } catch {
      patch = undefined;
    }
    this.#busy--;
    if (this.#ended) return;
    for (const entry of failed) entry.handled = true;
    if (patch !== undefined && patch.length > 0) {
      for (const entry of failed) entry.superseded = true;
      const stillPending = remaining.filter((entry) => entry.status === "pending");
      const renamed: Record<string, string> = {};
      const steps = [...patch];
      for (let index = 0; index < steps.length; index++) {
        const step = steps[index];
        if (step === undefined || !this.#entries.has(step.id)) continue;
        let fresh = `${step.id}_r${attempt}`;
        for (let suffix = 2; this.#entries.has(fresh) || steps.some((other) => other.id === fresh); suffix++) fresh = `${step.id}_r${attempt}_${suffix}`;
        renamed[step.id] = fresh;
        steps[index] = { ...step, id: fresh };
        for (let later = index + 1; later < steps.length; later++) {
          const other = steps[later];
          if (other !== undefined) steps[later] = renameInStep(other, step.id, fresh);
        }
      }
      this.#event({
        type: "replan",
        attempt,
        failed: failed.map((entry) => entry.step.id),
        replaced: stillPending.map((entry) => entry.step.id),
        added: steps.map((step) => step.id),
        renamed,
      });
      for (const entry of stillPending) this.#skip(entry, "replaced", `Re-plan ${attempt} replaced it`);
      // Add the whole patch before starting any of it, so readiness sees every new step.
      this.#settling = true;
      try {
        for (const step of steps) this.#addStep(step, "replan");
      } finally {
        this.#settling = false;
      }
    }
    this.#settle();
  }

  /**
   * Reads a streamed patch: forwards issues and repairs, counts the model
   * calls and tokens of `done`, and returns its steps.
   *
   * @param events - the planner's patch events.
   * @param attempt - the re-plan number, for repair events.
   * @returns the patch, or `undefined` when the stream ended without `done`.
   */
  async #readPatch(events: AsyncIterable<PlannerEvent>, attempt: number): Promise<PlanStep[] | undefined> {
    const iterator = events[Symbol.asyncIterator]();
    let patch: PlanStep[] | undefined;
    let counted = false;
    try {
      for (;;) {
        const next = await raceSignal(iterator.next(), this.signal);
        if (next.done === true || this.#ended) break;
        const event = next.value;
        if (event.type === "issue") this.#event({ type: "step-issue", issue: event.issue, action: event.action });
        else if (event.type === "repair") this.#event({ type: "plan-start", kind: "repair", query: this.#input.query, attempt });
        else if (event.type === "done") {
          patch = event.steps;
          counted = true;
          this.#usage.modelCalls += event.usage.modelCalls;
          this.#usage.inputTokens += event.usage.inputTokens ?? 0;
          this.#usage.outputTokens += event.usage.outputTokens ?? 0;
        }
      }
    } finally {
      if (!counted) this.#usage.modelCalls++;
      if (this.#ended) void Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
    return patch;
  }

  /**
   * The steps that succeeded, with their results.
   *
   * @returns them, in plan order.
   */
  #completed(): CompletedStep[] {
    return this.#order.filter((entry) => entry.status === "succeeded").map((entry) => ({ step: entry.step, result: this.#results.get(entry.step.id) }));
  }

  // ── the end ─────────────────────────────────────────────────────────────

  /** Emits the reply, writes memory and ends the run. */
  async #finish(): Promise<void> {
    const replies = this.#order.filter((entry) => entry.step.type === "reply" && entry.status === "succeeded");
    const last = replies[replies.length - 1];
    if (last !== undefined) {
      this.#event({ type: "reply", text: String(this.#results.get(last.step.id)), source: "step", stepId: last.step.id });
    } else {
      const integrated = await this.#integrate();
      if (this.#ended) return;
      this.#event(integrated === undefined ? { type: "reply", text: this.#templateReply(), source: "template" } : { type: "reply", text: integrated, source: "model" });
    }
    const reason = this.#reason();
    await this.#writeMemory(reason);
    if (this.#ended) return;
    this.#end(reason, reason === "failed" ? this.#failure() : undefined);
  }

  /**
   * Asks the model to integrate the results into an answer.
   *
   * @returns the answer, or `undefined` when there is no model, no budget, or the call failed.
   */
  async #integrate(): Promise<string | undefined> {
    const model = this.#countedModel;
    if (model === undefined || this.#config.integrate === "template") return undefined;
    if (!this.#modelCallAllowed()) {
      this.#budgetHit = true;
      return undefined;
    }
    const lines = this.#order
      .filter((entry) => entry.step.type !== "reply")
      .map((entry) => {
        const label = entry.step.type === "tool" ? `${entry.step.id} (${entry.step.name})` : `${entry.step.id} (llm)`;
        if (entry.status === "succeeded") return `${label}: ${truncateJson(this.#results.get(entry.step.id), 1500)}`;
        if (entry.status === "failed") return `${label} failed: ${entry.error?.message ?? "unknown error"}`;
        return `${label} was skipped`;
      });
    const prompt = [
      `# Request\n${this.#input.query}`,
      `# Results\n${lines.length === 0 ? "(no steps ran)" : lines.join("\n")}`,
      "# Task\nWrite the final answer to the request from these results, in the language of the request. Do not invent results that are not shown; say what could not be done.",
    ].join("\n\n");
    try {
      const answer = await raceSignal(collectModelText(model, { prompt, signal: this.signal }), this.signal);
      const text = answer.text.trim();
      return text === "" ? undefined : text;
    } catch {
      return undefined;
    }
  }

  /**
   * The fixed answer when no reply step ran and no model integrated one.
   *
   * @returns the text.
   */
  #templateReply(): string {
    const lines: string[] = [];
    for (const entry of this.#order) {
      if (entry.step.type === "reply") continue;
      const label = entry.step.type === "tool" ? `${entry.step.id} (${entry.step.name})` : entry.step.id;
      if (entry.status === "succeeded") lines.push(`- ${label}: ${truncateJson(this.#results.get(entry.step.id), 500)}`);
      else if (entry.status === "failed") lines.push(`- ${label} failed: ${entry.error?.message ?? "unknown error"}`);
    }
    return lines.length === 0 ? "(no valid reply)" : `Results:\n${lines.join("\n")}`;
  }

  /**
   * Why the run ended, for a run that was not stopped.
   *
   * @returns the reason.
   */
  #reason(): RunEndReason {
    if (this.#budgetHit) return "budget";
    if (this.#failure() !== undefined) return "failed";
    return "completed";
  }

  /**
   * The error that makes the run `failed`, if any.
   *
   * @returns it, or `undefined` when the run completed.
   */
  #failure(): RuntimeErrorInfo | undefined {
    if (this.#stopError !== undefined) return this.#stopError;
    if (this.#plannerError !== undefined) return this.#plannerError;
    for (const entry of this.#order) {
      if (entry.status === "failed" && !entry.superseded) return entry.error ?? { code: "tool-error", message: `Step "${entry.step.id}" failed` };
      if (entry.status === "skipped" && entry.skipCode !== "replaced") {
        return { code: entry.skipCode === "unsafe-plan" ? "invalid-step" : "tool-error", message: `Step "${entry.step.id}" was skipped (${entry.skipCode ?? "skipped"})` };
      }
    }
    return undefined;
  }

  /**
   * Writes reflections, then results, to memory after the run (the runtime
   * loop order).
   *
   * @param reason - how the run ended.
   */
  async #writeMemory(reason: RunEndReason): Promise<void> {
    const memory = this.#config.memory;
    if (memory === undefined) return;
    const at = this.#config.clock.now();
    const entries: MemoryEntry[] = this.#reflections.map(({ stepId, verdict }) => ({
      kind: "reflection",
      runId: this.#input.runId,
      query: this.#input.query,
      content: { stepId, ...verdict },
      at,
    }));
    entries.push({
      kind: "result",
      runId: this.#input.runId,
      query: this.#input.query,
      content: {
        reason,
        reply: this.#replyText,
        steps: this.#order.map((entry) => ({
          id: entry.step.id,
          ...(entry.step.type === "tool" ? { tool: entry.step.name } : {}),
          status: entry.status,
          ...(entry.status === "succeeded" ? { result: this.#results.get(entry.step.id) } : {}),
          ...(entry.error !== undefined && entry.status === "failed" ? { error: entry.error.message } : {}),
        })),
      },
      at,
    });
    for (const entry of entries) {
      try {
        const written = memory.write(entry);
        if (isPromiseLike(written)) await raceSignal(written, this.signal);
      } catch {
        // Memory is advisory: a failed write does not fail the run.
      }
      if (this.#ended) return;
    }
  }

  /**
   * Emits `run-end` and releases the run.
   *
   * @param reason - why.
   * @param error - the error behind a failed, aborted or timed-out run.
   */
  #end(reason: RunEndReason, error: RuntimeErrorInfo | undefined): void {
    this.#ended = true;
    if (this.#deadlineTimer !== undefined) this.#config.clock.clearTimeout(this.#deadlineTimer);
    const event: Extract<RuntimeEvent, { type: "run-end" }> = {
      type: "run-end",
      runId: "",
      t: 0,
      reason,
      usage: { ...this.#usage },
      durationMs: this.#round(this.#config.clock.now() - this.#startedAt),
    };
    if (error !== undefined && reason !== "completed") event.error = error;
    this.#event(event);
    if (!this.#controller.signal.aborted) this.#controller.abort(new PlankitError("aborted", "The run ended"));
    this.#resolveFinished();
  }

  // ── plumbing ────────────────────────────────────────────────────────────

  /**
   * Stamps an event with the run id and time, and emits it.
   *
   * @param event - the event without (or with placeholder) `runId` and `t`.
   */
  #event(event: RuntimeEvent | DistributiveOmit<RuntimeEvent, "runId" | "t">): void {
    const runId = this.#input.runId;
    const t = this.#round(this.#config.clock.now() - this.#startedAt);
    // type, runId and t lead the JSON of every event.
    const ordered = Object.assign({ type: event.type, runId, t }, event, { runId, t }) as RuntimeEvent;
    if (ordered.type === "reply") this.#replyText = ordered.text;
    this.#emit(ordered);
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
   * Whether the model call budget allows another call.
   *
   * @returns the check.
   */
  #modelCallAllowed(): boolean {
    const limit = this.#config.budget.modelCalls;
    return limit === undefined || this.#usage.modelCalls < limit;
  }

  /**
   * A counted, budgeted model stream.
   *
   * @param model - the runtime's model.
   * @param request - the request.
   * @returns the parts.
   */
  async *#countedStream(model: PlanModel, request: PlanModelRequest): AsyncGenerator<PlanModelPart> {
    if (!this.#modelCallAllowed()) {
      this.#budgetHit = true;
      throw new PlankitError("budget-exceeded", `The model call budget of ${this.#config.budget.modelCalls} is spent`);
    }
    this.#usage.modelCalls++;
    for await (const part of model.stream(request)) {
      if (part.type === "finish" && part.usage !== undefined) {
        this.#usage.inputTokens += part.usage.inputTokens ?? 0;
        this.#usage.outputTokens += part.usage.outputTokens ?? 0;
      }
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
      this.#stopError = errorInfo(error, "tool-error");
      this.abort("failed", `Internal error: ${this.#stopError.message}`);
    });
  }
}

/** `Omit` applied to each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
