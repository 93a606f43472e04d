/**
 * The session Durable Object: a conversation's memory and its runs' event logs.
 *
 * @module
 */
import { DurableObject } from "cloudflare:workers";
import { type RunEndReason, type RuntimeErrorInfo, replay } from "../../src/events.ts";
import {
  AgentRuntime,
  type ApprovalDecision,
  checkApprovalDecisions,
  type MemoryStore,
  PlankitError,
  type RunHandle,
  type RuntimeEvent,
} from "../../src/index.ts";
import type { MemoryEntry } from "../../src/runtime.ts";
import { HttpProblem } from "../http/http-problem.ts";
import { problemResponse } from "../http/problem-response.ts";
import { workerDefaults } from "../worker-defaults.ts";
import type { WorkerEnv } from "../worker-env.ts";
import { type ApprovalEvent, approvalEventType } from "./approval-event.ts";
import { type ApprovalOutcome, refusal } from "./approval-outcome.ts";
import { createClosingEvents } from "./create-closing-events.ts";
import { createEventKeyer } from "./create-event-keyer.ts";
import { createRunSetup, type RunSetup } from "./create-run-setup.ts";
import { createSqlMemoryStore } from "./create-sql-memory-store.ts";
import { disposeStub } from "./dispose-stub.ts";
import type { DurableRunParams } from "./durable-run-params.ts";
import type { LoggedEvent } from "./logged-event.ts";
import { parseRunId } from "./parse-run-id.ts";
import { readEventCursor } from "./read-event-cursor.ts";
import { readWorkflowStatus } from "./read-workflow-status.ts";
import { createRunEventStream, EventWaiters } from "./run-event-stream.ts";
import { RunLog, type RunRow } from "./run-log.ts";
import type { RunRecord } from "./run-record.ts";
import { type RunSummary, summarizeRun } from "./summarize-run.ts";

/** How a run executes: as a Workflow instance, or inside the session object. */

/** How often the object checks runs that have not ended, while any has not. */
const sweepIntervalMs = 30_000;
/** How often, while every open run is a durable run waiting for a person's decision (which may take days). */
const waitingSweepIntervalMs = 15 * 60_000;
/**
 * The session object (SQLite storage), one per conversation: its memory
 * (`memory` table, the runtime's `MemoryStore` over SQL) and, for each of
 * its runs, an append-only event log (`events`, keyed by run id and
 * sequence number, which is also the event's SSE id); a durable run also
 * claims there the start of each side-effecting step (`claimStart`, the
 * `step_starts` table), so a restart does not start it twice.
 *
 * - Writes are idempotent: each event carries a key (see
 *   `createEventKeyer`) and the log keeps the first event of each key, so
 *   a Workflow that replays a run after a restart never duplicates an
 *   event. After `run-end` the log is closed and further events are ignored.
 * - `fetch` serves `GET …/events?run=<id>` as Server-Sent Events: the log
 *   after `Last-Event-ID` (or `?after=`), then live events until `run-end`,
 *   so a client that reconnects gets every later event exactly once; a
 *   resume at or past the last event of an ended run gets `204 No Content`.
 * - Session runs (`POST /v1/runs` with `durable: false`) execute here, with
 *   the in-memory runtime; their log is resumable like a durable run's, but
 *   the run itself is lost if the object restarts.
 * - An alarm checks the runs that have not ended every 30 s and closes
 *   (with `createClosingEvents`) those whose execution is gone: a Workflow
 *   instance that errored or was terminated, a session run the object lost.
 *   While the only open runs are durable runs waiting for a person's
 *   decision, it checks every 15 minutes instead.
 *
 * @example
 * ```toml
 * [[durable_objects.bindings]]
 * name = "PLAN_SESSION"
 * class_name = "PlanSession"
 * [[migrations]]
 * tag = "v1"
 * new_sqlite_classes = ["PlanSession"]
 * ```
 */
export class PlanSession extends DurableObject<WorkerEnv> {
  readonly #sql: SqlStorage;
  readonly #log: RunLog;
  readonly #memory: MemoryStore;
  readonly #live = new Map<string, { run: RunHandle; pumped: Promise<void> }>();
  readonly #waiters = new EventWaiters();

  /**
   * @param ctx - the object's state.
   * @param env - the Worker's environment.
   */
  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#log = new RunLog(ctx.storage);
    this.#memory = createSqlMemoryStore(this.#sql);
  }

  /**
   * Records a run and logs its first event (`model`). Idempotent.
   *
   * @param record - the run id, mode, request and model.
   */
  async startRun(record: RunRecord): Promise<void> {
    this.#log.start(record.runId, record.mode, record.query);
    this.#append(record.runId, [
      { key: "model", event: { type: "model", name: record.model.name, provider: record.model.provider } },
    ]);
    await this.#scheduleSweep();
  }

  /**
   * Starts a session run: the in-memory runtime, here, with the session's
   * memory, logging every event. Returns once the run is recorded; the run
   * goes on after.
   *
   * @param params - the run's parameters.
   */
  async runInSession(params: DurableRunParams): Promise<void> {
    const setup = this.createSetup(params);
    await this.startRun({
      runId: params.runId,
      mode: "session",
      query: params.query,
      model: { name: setup.selected.name, provider: setup.selected.provider },
    });
    const runtime = new AgentRuntime({
      ...workerDefaults.sessionRuntime,
      planner: setup.planner,
      registry: setup.registry,
      model: setup.model,
      ...(setup.profile === undefined ? {} : { profile: setup.profile }),
      ...(setup.policy === undefined ? {} : { policy: setup.policy }),
      memory: this.#memory,
      idGenerator: () => params.runId,
    });
    const run = runtime.run(params.query);
    const keyOf = createEventKeyer();
    const pumped = (async () => {
      for await (const event of run)
        this.#append(run.runId, [
          {
            key: keyOf(event as RuntimeEvent & Record<string, unknown>),
            event: event as RuntimeEvent & Record<string, unknown>,
          },
        ]);
    })()
      .catch(() => undefined)
      .finally(() => this.#live.delete(run.runId));
    this.#live.set(run.runId, { run, pumped });
    this.ctx.waitUntil(pumped);
  }

  /**
   * Decides steps a run's `approval-request` events listed, all or nothing.
   * A session run's decisions go to its `run.approve`. A durable run's are
   * checked against its log (`checkApprovalDecisions`: the run's own check)
   * and against the decisions already sent and not yet logged, then sent to
   * its Workflow instance as one `approval` event, which the run applies
   * when it next waits — the instance wakes for it if it was evicted.
   *
   * @param runId - the run.
   * @param decisions - the decisions.
   * @returns the steps still waiting, or the problem: 404 `unknown-run`,
   *   409 `run-ended`, 409 `invalid-approval` (a step not waiting, or
   *   decided already; `stepId` names it), 400 `invalid-argument` (an edit
   *   the tool refuses; the message names the path), 503 `workflow-unavailable`
   *   (the event could not be sent).
   */
  async approve(runId: string, decisions: ApprovalDecision[]): Promise<ApprovalOutcome> {
    const row = this.#log.row(runId);
    if (row === undefined) return { ok: false, status: 404, code: "unknown-run", message: `No run ${runId}` };
    if (row.mode !== "session") return this.#approveDurable(row, decisions);
    const live = this.#live.get(runId);
    if (row.ended === 1 || live === undefined)
      return { ok: false, status: 409, code: "run-ended", message: `Run ${runId} has already ended` };
    try {
      live.run.approve(decisions);
    } catch (error) {
      return refusal(error);
    }
    return { ok: true, awaitingApproval: [...live.run.state.awaitingApproval] };
  }

  /**
   * The planner, tools and model of a session run. Override it in a
   * subclass to give the application's tools and model (and `PlanWorkflow`'s
   * hook of the same name for durable runs), as `worker/index.ts` does with
   * the demo's.
   *
   * @param params - the run's parameters.
   * @returns the setup; by default `createRunSetup(env, params, {})`: no
   *   tools, and the model the environment configures.
   */
  protected createSetup(params: DurableRunParams): RunSetup {
    return createRunSetup(this.env, params, {});
  }

  /**
   * Appends events to a run's log, ignoring keys it already holds and
   * anything after `run-end`.
   *
   * @param runId - the run.
   * @param items - the keyed events, in order.
   * @returns how many were new, and whether the log has ended.
   */
  async append(runId: string, items: LoggedEvent[]): Promise<{ appended: number; ended: boolean }> {
    return this.#append(runId, items);
  }

  /**
   * Records that a durable run started a side-effecting step (see
   * {@link RunLog.claimStart}): the run calls it inside the step's
   * `step.do`, before the tool, so an execution that runs the step again
   * after a restart learns that the tool may have acted.
   *
   * @param runId - the run.
   * @param key - the step's name and occurrence.
   * @returns `true` for the first claim of the key, `false` when it was claimed before.
   */
  async claimStart(runId: string, key: string): Promise<boolean> {
    return this.#log.claimStart(runId, key);
  }

  /**
   * Ends a run's log for an execution that stopped: terminal events for
   * unfinished steps and `run-end` (see `createClosingEvents`).
   *
   * @param runId - the run.
   * @param reason - the end reason.
   * @param error - what happened.
   * @returns whether the log was closed now (false: unknown run, or already ended).
   */
  async closeRun(runId: string, reason: RunEndReason, error: RuntimeErrorInfo): Promise<boolean> {
    return this.#close(runId, reason, error);
  }

  /**
   * Cancels a run: a live session run is aborted (the runtime ends it and
   * its events are logged before this returns); any other run's log is
   * closed with reason `aborted`.
   *
   * @param runId - the run.
   * @returns `unknown-run`, `ended` (nothing to cancel) or `cancelled`.
   */
  async cancelRun(runId: string): Promise<"unknown-run" | "ended" | "cancelled"> {
    const row = this.#log.row(runId);
    if (row === undefined) return "unknown-run";
    if (row.ended === 1) return "ended";
    const live = this.#live.get(runId);
    if (live !== undefined) {
      live.run.abort("The run was cancelled");
      await live.pumped;
    }
    this.#close(runId, "aborted", { code: "aborted", message: "The run was cancelled" });
    return "cancelled";
  }

  /**
   * A run's summary, replayed from its log with the runtime's reducer.
   *
   * @param runId - the run.
   * @returns the summary, or `undefined` for an unknown run.
   */
  async summary(runId: string): Promise<RunSummary | undefined> {
    const row = this.#log.row(runId);
    if (row === undefined) return undefined;
    return summarizeRun(row, replay(this.#log.runtimeEvents(runId)));
  }

  /**
   * Memory relevant to a request (the runtime's `MemoryStore.read`).
   *
   * @param query - the request.
   * @returns the entries, most relevant first.
   */
  async readMemory(query: string): Promise<MemoryEntry[]> {
    return [...(await this.#memory.read(query))];
  }

  /**
   * Stores a memory entry (the runtime's `MemoryStore.write`); idempotent.
   *
   * @param entry - the entry.
   */
  async writeMemory(entry: MemoryEntry): Promise<void> {
    await this.#memory.write(entry);
  }

  /**
   * Serves `GET /events?run=<id>` as Server-Sent Events (see the class).
   *
   * @param request - the request, with `Last-Event-ID` or `?after=` to resume.
   * @returns the event stream, or a problem (404 unknown run, 400 bad cursor).
   */
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const runId = url.searchParams.get("run") ?? "";
    const row = this.#log.row(runId);
    if (url.pathname !== "/events" || row === undefined)
      return problemResponse(new HttpProblem(404, `No run ${runId} in this session`, { code: "unknown-run" }));
    let cursor: number;
    try {
      cursor = readEventCursor(request, url, row.ended === 1 ? undefined : { runId, last: row.last_seq });
    } catch (error) {
      if (error instanceof HttpProblem) return problemResponse(error);
      throw error;
    }
    // Nothing will follow: 204 is what stops an EventSource from reconnecting.
    if (row.ended === 1 && cursor >= row.last_seq)
      return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
    return new Response(
      createRunEventStream(this.#log, runId, cursor, (ms, register) => this.#waiters.wait(runId, ms, register)),
      {
        headers: {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache, no-transform",
          "x-accel-buffering": "no",
        },
      },
    );
  }

  /** Closes the runs whose execution is gone; runs again while any run is open. */
  override async alarm(): Promise<void> {
    if (!this.#log.ready) return;
    const open = this.#log.openRuns();
    // Only durable runs that wait for a decision are open: they may wait for days, so the sweep slows down.
    let waitingOnly = true;
    for (const row of open) {
      if (row.mode === "session") {
        if (!this.#live.has(row.id))
          this.#close(row.id, "failed", {
            code: "aborted",
            message: "The session object restarted while the run was in progress; the run was lost",
          });
        else waitingOnly = false;
        continue;
      }
      const status = await readWorkflowStatus(this.env.PLAN_WORKFLOW, row.id);
      if (status.status === "terminated")
        this.#close(row.id, "aborted", { code: "aborted", message: "The run's Workflow instance was terminated" });
      else if (status.status === "errored" || status.status === "complete" || status.status === "missing") {
        const message =
          status.error ??
          (status.status === "missing"
            ? "The run's Workflow instance does not exist"
            : "The run's Workflow instance ended without ending the run");
        this.#close(row.id, "failed", { code: "internal-error", message: `Workflow ${status.status}: ${message}` });
      } else if (!this.#waitsForDecision(row.id)) waitingOnly = false;
    }
    if (this.#log.openRuns().length > 0) {
      await this.ctx.storage.setAlarm(Date.now() + (waitingOnly ? waitingSweepIntervalMs : sweepIntervalMs));
    }
  }

  /**
   * Appends keyed events (see {@link RunLog.append}) and wakes the streams waiting for them.
   *
   * @param runId - the run.
   * @param items - the events.
   * @returns how many were new, and whether the log has ended.
   */
  #append(runId: string, items: readonly LoggedEvent[]): { appended: number; ended: boolean } {
    const result = this.#log.append(runId, items);
    if (result.appended > 0) this.#waiters.wake(runId);
    return result;
  }

  /**
   * Closes a run's log (see {@link PlanSession.closeRun}).
   *
   * @param runId - the run.
   * @param reason - the end reason.
   * @param error - what happened.
   * @returns whether it was closed now.
   */
  #close(runId: string, reason: RunEndReason, error: RuntimeErrorInfo): boolean {
    const row = this.#log.row(runId);
    if (row === undefined || row.ended === 1) return false;
    // The run's clock starts about when its row was written: the closing events carry the time it has lived.
    const elapsedMs = Date.now() - row.created_at;
    const closing = createClosingEvents(this.#log.runtimeEvents(runId), runId, reason, error, elapsedMs);
    this.#append(
      runId,
      closing.map((event) => ({
        key: `close:${event.type}:${"stepId" in event ? event.stepId : ""}`,
        event: event as RuntimeEvent & Record<string, unknown>,
      })),
    );
    return true;
  }

  /**
   * Decides steps of a durable run (see {@link PlanSession.approve}).
   *
   * @param row - the run's row.
   * @param decisions - the decisions.
   * @returns the outcome.
   */
  async #approveDurable(row: RunRow, decisions: ApprovalDecision[]): Promise<ApprovalOutcome> {
    const runId = row.id;
    const workflow = this.env.PLAN_WORKFLOW;
    if (row.ended === 1)
      return { ok: false, status: 409, code: "run-ended", message: `Run ${runId} has already ended` };
    this.#sql.exec(
      "CREATE TABLE IF NOT EXISTS sent_decisions (run_id TEXT NOT NULL, step_id TEXT NOT NULL, PRIMARY KEY (run_id, step_id))",
    );
    const sent = new Set(
      this.#sql
        .exec<{ step_id: string }>("SELECT step_id FROM sent_decisions WHERE run_id = ?", runId)
        .toArray()
        .map((item) => item.step_id),
    );
    const state = replay(this.#log.runtimeEvents(runId));
    let checked: ApprovalDecision[];
    try {
      const parsed = parseRunId(runId);
      const setup = this.createSetup({ runId, session: parsed?.session ?? "", query: row.query });
      checked = checkApprovalDecisions(state, decisions, setup.registry);
      const again = checked.find((decision) => sent.has(decision.stepId));
      if (again !== undefined)
        throw new PlankitError(
          "invalid-approval",
          `Step "${again.stepId}" was already decided; the run has not applied the decision yet`,
        );
    } catch (error) {
      return refusal(error);
    }
    if (workflow === undefined)
      return {
        ok: false,
        status: 503,
        code: "workflow-unavailable",
        message: `Run ${runId} is a durable run, and this Worker has no PLAN_WORKFLOW binding to reach it`,
      };
    // Recorded before the send, so a second POST racing this one is refused; dropped again if the send fails.
    for (const decision of checked)
      this.#sql.exec("INSERT INTO sent_decisions (run_id, step_id) VALUES (?, ?)", runId, decision.stepId);
    let instance: WorkflowInstance | undefined;
    try {
      instance = await workflow.get(runId);
      const payload: ApprovalEvent = { decisions: checked };
      await instance.sendEvent({ type: approvalEventType, payload });
    } catch (error) {
      for (const decision of checked)
        this.#sql.exec("DELETE FROM sent_decisions WHERE run_id = ? AND step_id = ?", runId, decision.stepId);
      return {
        ok: false,
        status: 503,
        code: "workflow-unavailable",
        message: `Could not send the decisions to run ${runId}'s Workflow instance: ${error instanceof Error ? error.message : String(error)}`,
      };
    } finally {
      if (instance !== undefined) disposeStub(instance);
    }
    // The run moves on: watch it at the usual pace again.
    await this.#scheduleSweep();
    const decided = new Set([...sent, ...checked.map((decision) => decision.stepId)]);
    return { ok: true, awaitingApproval: state.awaitingApproval.filter((stepId) => !decided.has(stepId)) };
  }

  /** Schedules the sweep alarm within the usual interval, unless one is due sooner. */
  async #scheduleSweep(): Promise<void> {
    const due = await this.ctx.storage.getAlarm();
    const next = Date.now() + sweepIntervalMs;
    if (due === null || due > next) await this.ctx.storage.setAlarm(next);
  }

  /**
   * Whether a run's log says it has nothing to do but wait for approval
   * decisions: a step waits for one, and none runs.
   *
   * @param runId - the run.
   * @returns the check.
   */
  #waitsForDecision(runId: string): boolean {
    const state = replay(this.#log.runtimeEvents(runId));
    return (
      state.awaitingApproval.length > 0 &&
      !state.steps.some((step) => step.status === "running" || step.status === "retrying")
    );
  }
}
