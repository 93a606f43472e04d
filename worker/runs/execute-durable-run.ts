/**
 * One execution of a durable run, as the Workflow runs it.
 *
 * @module
 */

import type { RunEndReason } from "../../src/events.ts";
import {
  AgentRuntime,
  createModelReflector,
  type MemoryStore,
  noOpReflector,
  PlankitError,
  type RunHandle,
} from "../../src/index.ts";
import type { MemoryEntry } from "../../src/runtime.ts";
import { workerDefaults } from "../worker-defaults.ts";
import { approvalEventType } from "./approval-event.ts";
import { createDurableExecutor } from "./create-durable-executor.ts";
import { createDurableModel } from "./create-durable-model.ts";
import { createDurablePlanner } from "./create-durable-planner.ts";
import { createDurableReflector } from "./create-durable-reflector.ts";
import { createEventOutbox, type EventSink } from "./create-event-outbox.ts";
import type { RunSetup } from "./create-run-setup.ts";
import type { DurableRunParams } from "./durable-run-params.ts";
import type { DurableStep } from "./durable-step.ts";

/**
 * Whether `step.do` failed because the engine is tearing this execution
 * down (a pause, restart or terminate): the local engine rejects pending
 * steps with `Aborting engine: …`. Such an execution must stop where it is —
 * treating the rejection as a step failure would log failures and re-plans
 * that never happened; the execution that resumes the run carries on.
 *
 * @param error - what `step.do` threw.
 * @returns the check.
 */
function isEngineAbort(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("Aborting engine");
}

/**
 * Whether `step.waitForEvent` ended because its timeout passed (the engine
 * throws a `WorkflowTimeoutError`; a replay throws the stored copy, which
 * keeps the message).
 *
 * @param error - what `step.waitForEvent` threw.
 * @returns the check.
 */
function isWaitTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "WorkflowTimeoutError" || /timed out/iu.test(error.message));
}

/**
 * Waits for the next approval event and applies its decisions; a timeout
 * denies every step still waiting (`by: "timeout"`). Decisions the run
 * refuses — a step decided or ended since the POST checked them against
 * the log — change nothing; the run goes on waiting.
 *
 * @param run - the run, waiting only for decisions.
 * @param step - the Workflow's steps.
 * @param timeoutMs - the longest wait.
 */
async function awaitDecisions(run: RunHandle, step: DurableStep, timeoutMs: number): Promise<void> {
  let payload: unknown;
  try {
    payload = await step.waitForEvent(approvalEventType, { type: approvalEventType, timeoutMs });
  } catch (error) {
    if (!isWaitTimeout(error)) throw error;
    run.expireApprovals();
    return;
  }
  const decisions =
    typeof payload === "object" && payload !== null ? (payload as { decisions?: unknown }).decisions : undefined;
  try {
    run.approve(decisions as never);
  } catch (error) {
    if (!PlankitError.isInstance(error)) throw error;
  }
}

/** What a durable run needs from its session object. */
interface DurableSession extends EventSink {
  readMemory(query: string): Promise<MemoryEntry[]>;
  writeMemory(entry: MemoryEntry): Promise<void>;
}

/** Options of {@link executeDurableRun}. */
export interface DurableRunOptions {
  params: DurableRunParams;
  /** The Workflow's steps. */
  step: DurableStep;
  /** The session object (its stub). */
  session: DurableSession;
  /** The planner, tools and model. */
  setup: RunSetup;
  /**
   * When the run was created (the instance's event timestamp), in epoch
   * milliseconds: event times count from it, so they keep increasing across
   * executions.
   *
   * @defaultValue now
   */
  createdAt?: number;
}

/** What the Workflow instance outputs. */
export interface DurableRunResult {
  runId: string;
  reason: RunEndReason | undefined;
  reply: string | undefined;
}

/**
 * Runs a plan durably with the core runtime — its scheduler, safety policy,
 * references, skips and events — and Workflow steps underneath: the plan
 * is made once in the `plan` step (`createDurablePlanner`), which hands
 * each step to the run while the model writes it (a read-only step starts
 * at once; a side-effecting one once the plan is stored), every `tool`
 * and `llm` step is one `step.do` with its own retry and time limit
 * (`createDurableExecutor`), independent steps run at once, results flow
 * to dependents, and re-plans are steps too. Events go to the session log
 * keyed for idempotency, so when the engine replays the run after a
 * restart — re-running this function with the stored step results — the
 * log gains the events it missed and none twice. An execution the engine
 * tears down (a pause, a restart, a terminate) stops at its pending steps
 * and logs nothing more; the next execution carries on. Memory is the
 * session's.
 *
 * The rest of the runtime is the same as in memory: the run's own model
 * calls (reflection, the integrated answer) are durable steps too
 * (`createDurableModel`), so a replay makes the same decisions without
 * asking the model again; the result cache serves identical read-only
 * calls, also from a read stored before a restart; the budget (the setup's `budget`, by default
 * `workerDefaults.durableBudget`) counts stored steps and model calls as
 * the first execution counted them, and `deadlineMs` counts from the run's
 * start, stored once in the step `started-at`. A side-effecting step that
 * was running when the process stopped is not started again: it fails
 * with `outcome-unknown` (see `createDurableExecutor`).
 *
 * A step the setup's `policy` marks as needing approval waits for a
 * person: once the run has nothing else to do, its `approval-request` is
 * in the log and the execution waits in `step.waitForEvent` for the
 * `approval` event (`POST /v1/runs/:id/approvals` sends it) — for hours or
 * days, the engine free to evict the execution meanwhile; the execution
 * that resumes the run replays it to the same wait. Each wait lasts at
 * most the setup's `approvalTimeoutMs` (default
 * `workerDefaults.durableApprovalTimeoutMs`, 7 days), after which the steps
 * still waiting are denied (`by: "timeout"`). Each event's decisions go to
 * `run.approve`, which checks them again.
 *
 * @param options - the parameters, the Workflow's steps, the session and the setup.
 * @returns the end reason and the reply.
 *
 * @example
 * ```ts
 * async run(event, step) {
 *   return executeDurableRun({ params: event.payload, step, session, setup: createRunSetup(this.env, event.payload) });
 * }
 * ```
 */
export async function executeDurableRun(options: DurableRunOptions): Promise<DurableRunResult> {
  const { params, step, session, setup } = options;
  const shiftMs = options.createdAt === undefined ? 0 : Math.max(0, Date.now() - options.createdAt);
  const memory: MemoryStore = {
    read: (query) => session.readMemory(query),
    write: (entry) => session.writeMemory(entry),
  };
  let flush: () => Promise<void> = async () => undefined;
  let halt: () => void = () => undefined;
  let stopped: (error: unknown) => void = () => undefined;
  const torndown = new Promise<never>((_resolve, reject) => {
    stopped = reject;
  });
  const letGo = (error: unknown): Promise<never> => {
    if (!isEngineAbort(error)) throw error;
    // The engine has let go of this execution: the runtime waits here on a step that never settles and logs
    // nothing more, while the run itself rejects, which the engine waits for before it resumes the instance.
    halt();
    stopped(error);
    return new Promise<never>(() => undefined);
  };
  const approvalTimeoutMs = setup.approvalTimeoutMs ?? workerDefaults.durableApprovalTimeoutMs;
  const guarded: DurableStep = {
    async do(name, config, callback) {
      try {
        return await step.do(name, config, callback);
      } catch (error) {
        return letGo(error);
      }
    },
    async waitForEvent(name, waitOptions) {
      try {
        return await step.waitForEvent(name, waitOptions);
      } catch (error) {
        return letGo(error);
      }
    },
  };
  // An instance created before `engine: 2` replays the way it was made: no reflector, cache or budgets.
  const legacy = params.engine === undefined;
  // The run's start, stored once: the deadline counts from it in every execution.
  const startedAt = legacy
    ? Date.now()
    : await guarded.do("started-at", { retries: { limit: 0, delay: 0 }, timeout: 10_000 }, async () => Date.now());
  // One recording model for the run's and the planner's calls: each name is its purpose and position.
  const model = createDurableModel(setup.model, guarded);
  const runtime = new AgentRuntime({
    maxConcurrency: workerDefaults.runtime.maxConcurrency,
    timeoutMs: workerDefaults.runtime.timeoutMs,
    planner:
      !legacy && setup.createPlanner !== undefined
        ? setup.createPlanner(model)
        : createDurablePlanner({
            planner: setup.planner,
            step: guarded,
            registry: setup.registry,
            ...(params.maxSteps === undefined ? {} : { maxSteps: params.maxSteps }),
          }),
    registry: setup.registry,
    ...(legacy
      ? { model: setup.model, reflector: noOpReflector, cache: false as const }
      : {
          model,
          budget: setup.budget ?? workerDefaults.durableBudget,
          reflector: createDurableReflector(createModelReflector()),
        }),
    ...(setup.profile === undefined ? {} : { profile: setup.profile }),
    ...(setup.policy === undefined ? {} : { policy: setup.policy }),
    approvalTimeoutMs,
    memory,
    idGenerator: () => params.runId,
    executeStep: createDurableExecutor(guarded, () => flush()),
  });
  const run = runtime.run(params.query, { elapsedMs: Math.max(0, Date.now() - startedAt) });
  const outbox = createEventOutbox(session, run.runId, run.events, shiftMs);
  flush = () => outbox.flush();
  halt = () => outbox.halt();
  const drain = async (): Promise<void> => {
    const iterator = run[Symbol.asyncIterator]();
    let read = 0;
    for (;;) {
      if (run.waitingForApproval && read === run.events.length) {
        // The request is in the log before the execution sleeps: a client reads it there and answers.
        await outbox.flush();
        // A deadline that passes during the wait ends the run; the wait is then moot.
        await Promise.race([awaitDecisions(run, guarded, approvalTimeoutMs), run.done]);
        continue;
      }
      const next = await iterator.next();
      if (next.done === true) break;
      read++;
      void outbox.flush().catch(() => undefined);
    }
    await outbox.flush();
  };
  await Promise.race([drain(), torndown]);
  return { runId: run.runId, reason: run.state.reason, reply: run.state.reply?.text };
}
