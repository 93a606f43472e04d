/**
 * The runtime that runs plans while they stream.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { ApprovalDecision } from "../events/approval-decision.ts";
import type { Dialog } from "../events/dialog.ts";
import type { RunState } from "../events/run-state.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";
import { defaultModelTimeouts } from "../model/bound-stream.ts";
import type { PlanModel } from "../model/plan-model.ts";
import type { Planner } from "../planner/planner.ts";
import type { PlannerProfile } from "../planner/planner-event.ts";
import type { Reflector } from "../planner/reflector.ts";
import { clampTimerMs } from "../shared/clamp-timer-ms.ts";
import { randomId } from "../shared/random-id.ts";
import { type RuntimeClock, systemClock } from "../shared/runtime-clock.ts";
import type { ToolRegistry } from "../tools/tool-registry.ts";
import { checkPolicyTools, checkRunOptions, checkRuntimeOptions, runtimeOptionNames } from "./check-runtime-options.ts";
import type { BackoffPolicy } from "./compute-backoff.ts";
import { createModelReflector } from "./create-model-reflector.ts";
import type { MemoryStore } from "./memory-store.ts";
import { readDialog } from "./read-dialog.ts";
import type { ResultCache } from "./result-cache.ts";
import type { RunConfig } from "./run/run-core.ts";
import { RunExecution } from "./run/run-execution.ts";
import type { RuntimeBudget } from "./runtime-budget.ts";
import type { StepExecutor } from "./step-executor.ts";
import type { ToolPolicy } from "./tool-policy.ts";

/** Options of the {@link AgentRuntime} constructor. */
export interface AgentRuntimeOptions {
  /** Streams plans and answers re-plans: an `LLMPlanner` or any {@link Planner}. */
  planner: Planner;
  /** The tools the plan calls; its descriptors are the planner's catalog. */
  registry: ToolRegistry;
  /**
   * Who the agent is (name, role, language, goals, constraints), passed to
   * the planner.
   *
   * @defaultValue none
   */
  profile?: PlannerProfile | string;
  /**
   * Long-term memory: read before planning (into the planner's context),
   * written after each run that was not aborted — e.g. `createMemoryStore()`.
   * Give each user or conversation its own: what one run's results leave in
   * a store, the next run that shares it plans with. `false` is none.
   *
   * @defaultValue none: a run remembers nothing of earlier runs, as with the cache
   */
  memory?: MemoryStore | false;
  /**
   * Judges a step whose retries ran out: retry with changed arguments, re-plan, or abort.
   *
   * @defaultValue `createModelReflector()` when there is a model, else none (straight to re-plan)
   */
  reflector?: Reflector;
  /**
   * The model for `llm` steps, reflection and integrating results into a reply.
   *
   * @defaultValue the planner's `model` property, when it has one
   */
  model?: PlanModel;
  /**
   * When a ready step may start: `"safe"` starts `llm` steps and read-only
   * tools while the plan still streams and holds other tools until the
   * source that wrote them (the plan, a repair, a re-plan patch) finished
   * cleanly and validated; `"none"` waits for the whole plan; `"all"` starts
   * everything as soon as it is ready (a side-effecting step may then run
   * before the plan turns out truncated). In every mode a side-effecting step
   * still pending when its source ends unclean is skipped.
   *
   * @defaultValue `"safe"`
   */
  eager?: "safe" | "all" | "none";
  /**
   * How many tool and `llm` steps run at once.
   *
   * @defaultValue `16`
   */
  maxConcurrency?: number;
  /**
   * The time limit of one attempt of a step, in milliseconds. A step's own
   * `timeoutMs` may only lower it; values are clamped to a valid timer range.
   *
   * @defaultValue `30000`
   */
  timeoutMs?: number;
  /**
   * Retries after a failed attempt of an `llm` step or a read-only or
   * idempotent tool. Other tools are never retried unless `policy` allows it
   * (a tool that timed out may have acted already), and errors another
   * identical attempt cannot fix, such as invalid arguments, never are. A
   * step's own `retries` may only lower the allowance.
   *
   * @defaultValue `2`
   */
  retries?: number;
  /**
   * Delays between retries: exponential with jitter.
   *
   * @defaultValue `{ initialMs: 100, factor: 2, maxMs: 5000, jitter: 0.5 }`
   */
  backoff?: BackoffPolicy;
  /**
   * How many times a run may ask the planner for a patch after failures.
   *
   * @defaultValue `2`
   */
  maxReplans?: number;
  /**
   * How many times per step a reflector's `retry` verdict is followed.
   *
   * @defaultValue `1`
   */
  reflectionRetries?: number;
  /**
   * Limits per run: model calls, tool calls, re-plans, steps, deadline.
   *
   * @defaultValue no limits
   */
  budget?: RuntimeBudget;
  /**
   * Reuse of read-only tools' results, keyed by tool and canonical
   * arguments. By default a result is reused within its run only, and only
   * until a side-effecting step ends. A `ResultCache` (such as
   * `createMemoryCache({ ttlMs, maxBytes })`) is shared across runs: opt-in,
   * read only while the run has had no side effect, and cleared (its
   * `clear`) whenever a side-effecting step of any run ends, so no run is
   * served a read from before another run's write. `false` turns caching off.
   *
   * @defaultValue reuse within each run only
   */
  cache?: ResultCache | false;
  /**
   * The application's word on individual tools, by name: read-only or
   * idempotent (overriding their MCP annotations), the most retries, the
   * longest attempt, no caching. A plan can only tighten these.
   *
   * @defaultValue `{}`: MCP annotations with MCP's cautious defaults
   */
  policy?: Readonly<Record<string, ToolPolicy>>;
  /**
   * Limits of every model call the runtime makes or waits on (reflection,
   * integration, `llm` steps; a planner silent for longer than `totalMs` is
   * stalled too): no part for `idleMs`, or longer than `totalMs`, fails the call.
   *
   * @defaultValue `{ idleMs: 60000, totalMs: 300000 }`
   */
  modelTimeouts?: { idleMs?: number; totalMs?: number };
  /**
   * The longest a memory read or write may take, in milliseconds; memory is
   * advisory, so a slow store is skipped, not waited for.
   *
   * @defaultValue `5000`
   */
  memoryTimeoutMs?: number;
  /**
   * When a reply step's text starts streaming as `reply-delta` events.
   * What was streamed cannot be taken back, so a streaming reply fixes the
   * plan: no re-plan replaces it afterwards.
   *
   * - `"safe"`: only when no failure can call for a re-plan any more: as
   *   the model writes the reply step when every other step has already
   *   succeeded (with a planner that reports drafts,
   *   `PlanRequest.onReplyDraft`, as `LLMPlanner` does, and no step dropped),
   *   or once no re-plan is possible (`maxReplans` or a budget spent, or
   *   `maxReplans: 0`) and every step the reply references has succeeded,
   *   while other steps may still run; otherwise the reply's text goes out
   *   whole when it resolves, after every other step ended. A reply never
   *   carries a note: one that references a step that failed is skipped,
   *   and the answer lists the results.
   * - `"early"`: as the model writes the reply step even while steps run
   *   (no step dropped or failed so far), or as soon as the plan ended
   *   cleanly with nothing failed. A step failing after that is written into
   *   the answer as a note (`[step "s2" failed]`) and is not re-planned.
   *
   * Only what cannot change goes out; each reference is written the moment
   * its step ends. A reply step that ends up differing from its draft
   * (dropped, repaired) is answered as drafted.
   *
   * The model-integrated answer always streams token by token.
   *
   * @defaultValue `"safe"`
   */
  replyStreaming?: "safe" | "early";
  /**
   * How to answer when the plan has no reply step (or it could not be
   * resolved): `"model"` asks the model to integrate the results,
   * falling back to the template; `"template"` lists the results.
   *
   * @defaultValue `"model"`
   */
  integrate?: "model" | "template";
  /**
   * Time: event offsets, timeouts, the deadline.
   *
   * @defaultValue `systemClock`
   */
  clock?: RuntimeClock;
  /**
   * Numbers in [0, 1) for backoff jitter.
   *
   * @defaultValue `Math.random`
   */
  random?: () => number;
  /**
   * Waits between retries; must reject or resolve promptly when `signal` fires.
   *
   * @defaultValue a timer on `clock`
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Makes run ids.
   *
   * @defaultValue `run_` and a random UUID
   */
  idGenerator?: () => string;
  /**
   * How long an approval request waits, in milliseconds; then its
   * undecided steps are denied (`approval-decision` with `by: "timeout"`).
   * Without it a request waits until a decision, an abort or the run's
   * deadline.
   *
   * @defaultValue none: no time limit
   */
  approvalTimeoutMs?: number;
  /**
   * Runs each `tool` and `llm` step's attempts in place of the runtime's
   * retry loop, e.g. inside one durable step of a workflow engine; see
   * {@link StepExecutor}. Everything else (readiness, the safety policy,
   * references, skips, reflection, re-plans, events) stays the runtime's.
   *
   * @defaultValue none: the runtime retries with `retries` and `backoff` itself
   */
  executeStep?: StepExecutor;
}

/** Options of {@link AgentRuntime.run}. */
export interface RunOptions {
  /** Cancels the plan stream and every running tool; the run ends with reason `aborted`. */
  signal?: AbortSignal;
  /** Values steps can reference as `{{context.key}}`; also shown to the planner. */
  context?: Record<string, unknown>;
  /**
   * Time the run already spent in an earlier process, in milliseconds (a
   * durable run resumed after a restart): `budget.deadlineMs` counts it.
   *
   * @defaultValue `0`
   */
  elapsedMs?: number;
}

/**
 * A run in progress: iterate it for its events. Each iteration replays the
 * run from its first event. Leaving a `for await` loop early aborts the run.
 */
export interface RunHandle extends AsyncIterable<RuntimeEvent> {
  /** The run's id, also on every event. */
  readonly runId: string;
  /** The live state, folded from the events by the same reducer `replay` uses. */
  readonly state: RunState;
  /** Every event emitted so far. */
  readonly events: readonly RuntimeEvent[];
  /** Resolves with the final state after `run-end`; never rejects. */
  readonly done: Promise<RunState>;
  /**
   * Aborts the run, like the `signal` option.
   *
   * @param reason - why, for the error message.
   */
  abort(reason?: string): void;
  /**
   * Decides steps listed by `approval-request` events: approve (optionally
   * with edited arguments, checked against the tool's input schema) or deny
   * with a reason. The whole batch is checked before any of it applies, so
   * a refused call changes nothing; each decision becomes an
   * `approval-decision` event.
   *
   * @param decisions - one decision or several.
   * @throws PlankitError `invalid-approval` naming the step when it is unknown, needs no approval, is not asked yet, was already decided or ended, or the run ended; `invalid-argument` naming the JSON Pointer and the value when edited arguments do not fit the tool's schema.
   *
   * @example
   * ```ts
   * for await (const event of run) {
   *   if (event.type === "approval-request") run.approve(event.steps.map((step) => ({ stepId: step.stepId, approved: true })));
   * }
   * ```
   */
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): void;
  /**
   * Ends every approval request still waiting as if its `approvalTimeoutMs`
   * had passed: its undecided steps are denied (`approval-decision` with
   * `by: "timeout"`, skip code `denied`). For a host whose own timer bounds
   * the wait — a durable engine that waits for a decision across restarts,
   * longer than one process lives. Does nothing once the run ended.
   *
   * @example
   * ```ts
   * if (timedOut) run.expireApprovals();
   * ```
   */
  expireApprovals(): void;
  /**
   * Whether the run has nothing to do but wait for approval decisions (a
   * step waits for one, no step runs, no re-plan is out): the moment to
   * show the request and, for a server, to let the run sleep.
   */
  readonly waitingForApproval: boolean;
}

/** The reply `step` returns: an assistant message. */
export interface AssistantMessage {
  role: "assistant";
  content: string;
}

/**
 * Runs agent requests: the planner streams a plan, and each step starts the
 * moment the steps it references have succeeded and the safety policy
 * allows — while the model is still writing the rest. Failed attempts are
 * retried with backoff under a per-attempt timeout, then judged by the
 * reflector, then re-planned; the reply is resolved last. Every stage is an event (JSON, see {@link RuntimeEvent}).
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner, registry });
 * const reply = await runtime.step([{ role: "user", content: "Weather in Paris and 21*2+5?" }]);
 * for await (const event of runtime.run("Weather in Paris?", { signal })) console.log(event.type);
 * ```
 */
export class AgentRuntime {
  /** The planner. */
  readonly planner: Planner;
  /** The tool registry. */
  readonly registry: ToolRegistry;
  readonly #config: RunConfig;
  readonly #idGenerator: () => string;

  /**
   * @param options - planner, registry and policies; see {@link AgentRuntimeOptions} for every default.
   * @throws PlankitError `invalid-options` for an unknown option, a missing planner or registry, an out-of-range number or an unknown mode.
   */
  constructor(options: AgentRuntimeOptions) {
    checkRuntimeOptions(options);
    this.planner = options.planner;
    this.registry = options.registry;
    const model = options.model ?? options.planner.model;
    const clock = options.clock ?? systemClock;
    this.#idGenerator = options.idGenerator ?? (() => randomId("run"));
    // An option left out or set to `undefined` takes its default.
    const given = Object.fromEntries(
      runtimeOptionNames
        .map((name) => [name, options[name as keyof AgentRuntimeOptions]])
        .filter(([, value]) => value !== undefined),
    );
    this.#config = {
      eager: "safe",
      maxConcurrency: 16,
      timeoutMs: 30_000,
      retries: 2,
      backoff: {},
      maxReplans: 2,
      reflectionRetries: 1,
      budget: {},
      policy: {},
      memoryTimeoutMs: 5_000,
      replyStreaming: "safe",
      integrate: "model",
      random: Math.random,
      ...(given as AgentRuntimeOptions),
      memory: options.memory === false ? undefined : options.memory,
      reflector: options.reflector ?? (model === undefined ? undefined : createModelReflector()),
      model,
      sharedCache: options.cache === false ? undefined : options.cache,
      sideEffects: { count: 0 },
      caching: options.cache !== false,
      modelTimeouts: {
        idleMs: options.modelTimeouts?.idleMs ?? defaultModelTimeouts.idleMs,
        totalMs: options.modelTimeouts?.totalMs ?? defaultModelTimeouts.totalMs,
      },
      clock,
      sleep:
        options.sleep ??
        ((ms, signal) =>
          new Promise<void>((resolve, reject) => {
            if (signal.aborted) {
              reject(signal.reason);
              return;
            }
            const onAbort = (): void => {
              clock.clearTimeout(timer);
              reject(signal.reason);
            };
            const timer = clock.setTimeout(() => {
              signal.removeEventListener("abort", onAbort);
              resolve();
            }, ms);
            signal.addEventListener("abort", onAbort, { once: true });
          })),
      approvalTimeoutMs:
        options.approvalTimeoutMs === undefined
          ? undefined
          : clampTimerMs(options.approvalTimeoutMs, options.approvalTimeoutMs),
    };
  }

  /**
   * Starts a run at once and returns its handle; iterate the handle for the
   * events, read `state` for the live state, await `done` for the end.
   *
   * @param dialog - the request, or a conversation whose last user message is the request.
   * @param options - an abort signal and the run context.
   * @returns the run's handle.
   * @throws PlankitError `invalid-options` for an unknown key of `options` or a value of the wrong kind, or a `policy` naming a tool the registry does not have (checked now, since tools may be registered after the runtime is built); `invalid-input` for a dialog that is neither a string nor `{ role, content }` messages, that has no user message, or whose request is blank.
   *
   * @example
   * ```ts
   * const run = runtime.run("Compare the weather in Paris and Rome", { signal: AbortSignal.timeout(20_000) });
   * for await (const event of run) if (event.type === "step-start") console.log("started", event.stepId, event.t);
   * run.state.reply?.text;
   * ```
   */
  run(dialog: Dialog, options: RunOptions = {}): RunHandle {
    checkRunOptions(options);
    checkPolicyTools(this.#config.policy, this.registry);
    const { query, history } = readDialog(dialog);
    const runId = this.#idGenerator();
    const events: RuntimeEvent[] = [];
    const waiters = new Set<() => void>();
    let ended = false;
    const emit = (event: RuntimeEvent): void => {
      events.push(event);
      if (event.type === "run-end") ended = true;
      for (const wake of waiters) wake();
      waiters.clear();
    };
    const execution = new RunExecution(this.#config, { runId, query, history, context: options.context ?? {} }, emit);
    const done = execution.execute(options.signal, options.elapsedMs).then(() => execution.state);
    const abort = (reason?: string): void => execution.abort("aborted", reason ?? "The run was aborted");
    return {
      runId,
      get state() {
        return execution.state;
      },
      events,
      done,
      abort,
      approve: (decisions) => execution.approve(decisions),
      expireApprovals: () => execution.expireApprovals(),
      get waitingForApproval() {
        return execution.waitingForApproval;
      },
      [Symbol.asyncIterator](): AsyncIterator<RuntimeEvent> {
        let cursor = 0;
        let closed = false;
        return {
          next: async (): Promise<IteratorResult<RuntimeEvent>> => {
            while (cursor >= events.length) {
              if (ended || closed) return { done: true, value: undefined };
              await new Promise<void>((resolve) => waiters.add(resolve));
            }
            const event = events[cursor++] as RuntimeEvent;
            return { done: false, value: event };
          },
          return: async (): Promise<IteratorResult<RuntimeEvent>> => {
            if (!ended) abort("The consumer stopped reading the run's events");
            closed = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
  }

  /**
   * Runs a request to the end and returns the reply as an assistant message.
   *
   * @param dialog - the request, or a conversation whose last user message is the request.
   * @param options - an abort signal and the run context.
   * @returns the assistant message.
   * @throws PlankitError `aborted` when the signal fired; `invalid-options` as {@link AgentRuntime.run} throws it.
   *
   * @example
   * ```ts
   * const reply = await runtime.step([{ role: "user", content: "帮我查 arXiv 上的 LLM agents 综述,并计算 21*2+5" }]);
   * reply.content;
   * ```
   */
  async step(dialog: Dialog, options: RunOptions = {}): Promise<AssistantMessage> {
    const state = await this.run(dialog, options).done;
    if (state.reason === "aborted") throw new PlankitError("aborted", state.error?.message ?? "The run was aborted");
    return { role: "assistant", content: state.reply?.text ?? "(no valid reply)" };
  }
}
