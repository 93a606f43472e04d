/**
 * A run's reply: the reply step's text, streamed once nothing can replace
 * it, or written whole when it resolves.
 *
 * @module
 */

import { toErrorInfo } from "../../events/to-error-info.ts";
import type { ReplyStep } from "../../plan/reply-step-schema.ts";
import { resolveReferences } from "../../plan/resolve-references.ts";
import type { ReplyDraft } from "../../planner/planner-event.ts";
import { ReplyStream } from "./reply-stream.ts";
import type { RunCore } from "./run-core.ts";
import type { RunPhase } from "./run-phase.ts";
import type { StepSource } from "./step-source.ts";
import type { StepEntry } from "./step-table.ts";

/** What the reply reads of the run besides its core. */
export interface ReplyView {
  /** The run's phase now. */
  readonly phase: RunPhase;
  /** The source of the plan's steps now. */
  readonly planSource: StepSource;
  /** Whether a step failed. */
  readonly anyFailure: boolean;
  /** Issues the plan source has had (a repair may follow them, which may replace the reply). */
  readonly planIssues: number;
}

/** The reply whose text is already streaming: `entry` is `undefined` while it is a draft the model still writes. */
interface StreamingReply {
  entry: StepEntry | undefined;
  id: string;
  stream: ReplyStream;
}

/**
 * The reply of one run. Its text starts streaming (`reply-delta`) only
 * when nothing but the model can change it; from then on the plan is
 * fixed. Otherwise the reply step is resolved whole when every other step
 * ended.
 *
 * @example
 * ```ts
 * const replies = new Replies(core, view);
 * replies.advance();
 * ```
 */
export class Replies {
  readonly #host: RunCore;
  readonly #view: ReplyView;
  #streaming: StreamingReply | undefined;

  /**
   * @param core - the run.
   * @param view - the run's phase, plan source, failures and issues.
   */
  constructor(core: RunCore, view: ReplyView) {
    this.#host = core;
    this.#view = view;
  }

  /** Whether a reply is streaming: no re-plan may replace it. */
  get streaming(): boolean {
    return this.#streaming !== undefined;
  }

  /**
   * Emits a piece of the reply, when there is one.
   *
   * @param delta - the text.
   */
  write(delta: string): void {
    if (delta !== "") this.#host.emit({ type: "reply-delta", delta });
  }

  /**
   * Starts streaming the reply step's text once the plan ended cleanly and
   * nothing failed, since what was streamed cannot be taken back; then
   * writes each reference as its step ends. With `replyStreaming: "safe"`
   * only once no re-plan is possible any more and every step the reply
   * references has succeeded: a step that failed after the text began would
   * be written as a note, which only `"early"` accepts, and whether it
   * failed before or after would then decide between a note and the
   * template answer.
   */
  advance(): void {
    const { table, limits, config } = this.#host;
    const view = this.#view;
    let streaming = this.#streaming;
    if (
      view.phase !== "executing" &&
      view.phase !== "finishing" &&
      !(view.phase === "planning" && streaming !== undefined)
    )
      return;
    if (streaming === undefined) {
      if (view.anyFailure || view.planSource.state !== "clean" || limits.usage.replans > 0) return;
      if (config.replyStreaming === "safe" && limits.replanAllowed()) return;
      const last = table.order[table.order.length - 1];
      if (
        last === undefined ||
        last.step.type !== "reply" ||
        last.status !== "pending" ||
        last.source !== view.planSource ||
        (config.replyStreaming === "safe" && last.unmet > 0)
      )
        return;
      if (!ReplyStream.streamable(last.step.text)) return;
      streaming = { entry: last, id: last.step.id, stream: new ReplyStream(last.step.text) };
      last.fixed = true;
      this.#streaming = streaming;
    }
    this.#advanceText(streaming, false);
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
  draft(draft: ReplyDraft): void {
    const { table, limits, config } = this.#host;
    const view = this.#view;
    let streaming = this.#streaming;
    if (streaming === undefined) {
      if (view.phase !== "planning" || view.anyFailure || view.planIssues > 0 || limits.usage.replans > 0) return;
      // Every step before the reply must have reached the run (a wrapper may hold the planner's events back).
      if (
        view.planSource.state !== "streaming" ||
        view.planSource.attempt !== 1 ||
        table.order.length !== draft.index ||
        table.has(draft.id)
      )
        return;
      if (config.replyStreaming === "safe" && !table.order.every((entry) => entry.status === "succeeded")) return;
      streaming = { entry: undefined, id: draft.id, stream: new ReplyStream(draft.text, false) };
      this.#streaming = streaming;
    } else if (streaming.entry !== undefined || streaming.id !== draft.id || !streaming.stream.extend(draft.text)) {
      return;
    }
    this.#advanceText(streaming, false);
  }

  /**
   * A reply step was planned: the draft streaming so far becomes it, and
   * goes on from what was written (or, if the step differs from it, as drafted).
   *
   * @param entry - the reply step.
   */
  adopt(entry: StepEntry): void {
    const streaming = this.#streaming;
    if (entry.step.type !== "reply" || streaming === undefined || streaming.entry !== undefined) return;
    streaming.stream.close(entry.step.text);
    streaming.entry = entry;
    entry.fixed = true;
  }

  /**
   * Resolves a ready reply step's text (synchronously); the scheduler hands it reply steps only.
   *
   * @param entry - a ready reply step.
   */
  run(entry: StepEntry): void {
    const step = entry.step as ReplyStep;
    const { table, scheduler } = this.#host;
    entry.status = "running";
    entry.attempts = 1;
    this.#host.emit({ type: "step-start", stepId: step.id, attempt: 1, input: step.text, cached: false });
    try {
      let text: string;
      const streaming = this.#streaming;
      if (streaming?.entry === entry) {
        text = this.#advanceText(streaming, true);
      } else {
        const resolved = resolveReferences(step.text, table.results);
        text = typeof resolved === "string" ? resolved : (JSON.stringify(resolved) ?? "");
      }
      const freed = table.succeed(entry, text);
      this.#host.emit({
        type: "step-end",
        stepId: step.id,
        attempt: 1,
        result: text,
        durationMs: 0,
        cached: false,
      });
      scheduler.succeeded(freed);
    } catch (error) {
      entry.status = "failed";
      entry.handled = true;
      entry.error = toErrorInfo(error, "unknown-reference");
      this.#host.emit({
        type: "step-error",
        stepId: step.id,
        attempt: 1,
        error: entry.error,
        final: true,
        durationMs: 0,
      });
      scheduler.ended(entry);
    }
  }

  /**
   * Ends a streaming reply whose step will not run (the run stops, or its
   * draft's step never came): writes what is left, then `reply`.
   *
   * @param always - also when the reply's step was planned.
   * @returns whether a streaming reply was ended.
   */
  finishStreaming(always: boolean): boolean {
    const streaming = this.#streaming;
    if (streaming === undefined || (!always && streaming.entry !== undefined)) return false;
    const text = this.#advanceText(streaming, true);
    // A draft whose step never came (dropped, cut off) is an answer without a step.
    this.#host.emit(
      streaming.entry === undefined
        ? { type: "reply", text, source: "step" }
        : { type: "reply", text, source: "step", stepId: streaming.id },
    );
    return true;
  }

  /**
   * The `reply` event of a reply step that succeeded, with its text written
   * first unless it streamed.
   *
   * @param entry - the reply step.
   */
  answerWith(entry: StepEntry): void {
    const text = String(this.#host.table.results.get(entry.step.id));
    if (this.#streaming?.entry !== entry) this.write(text);
    this.#host.emit({ type: "reply", text, source: "step", stepId: entry.step.id });
  }

  /**
   * Writes what the streaming reply's references now resolve to.
   *
   * @param streaming - the reply.
   * @param final - write the rest, whatever is still open.
   * @returns the text written so far.
   */
  #advanceText(streaming: StreamingReply, final: boolean): string {
    const table = this.#host.table;
    this.write(streaming.stream.advance(table.results, (id) => table.get(id)?.status, final));
    return streaming.stream.written;
  }
}
