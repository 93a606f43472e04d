/**
 * What one planning run knows between its model calls: the steps accepted
 * so far, the ids taken or refused, the held reply, and how each element the
 * reader hands out becomes a step or an issue.
 *
 * @module
 */

import type { PartialString } from "../json/create-json-stream-parser.ts";
import type { FinishReason } from "../model/plan-model.ts";
import type { ToolCallReadResult } from "../plan/create-tool-call-reader.ts";
import { readPlanEntries } from "../plan/normalize-plan.ts";
import { normalizeStep } from "../plan/normalize-step.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { stepIssue } from "../plan/step-issue.ts";
import { isRecord } from "../shared/is-record.ts";
import { closingIssue } from "../validate/closing-issue.ts";
import { resolveCatalogTool } from "../validate/resolve-tool-name.ts";
import { validateStep } from "../validate/validate-step.ts";
import type { PlanPrompt } from "./build-plan-prompt.ts";
import { buildQuotingReply } from "./build-quoting-reply.ts";
import { buildRepairPrompt } from "./build-repair-prompt.ts";
import { createIdPicker } from "./create-id-picker.ts";
import { fallbackReplyText } from "./fallback-reply-text.ts";
import { keptForReply } from "./kept-for-reply.ts";
import type { PlanAttemptsSetup } from "./plan-attempts-setup.ts";
import type { PlannerEvent } from "./planner-event.ts";
import { stepKey } from "./step-key.ts";

/**
 * Reads the names of missing arguments from `missing-argument` issues.
 *
 * @param issues - the step's issues.
 * @param index - the step's position.
 * @returns dotted argument paths.
 */
function missingArguments(issues: readonly PlanIssue[], index: number): string[] {
  const prefix = `/steps/${index}/arguments/`;
  return issues
    .filter((issue) => issue.path.startsWith(prefix))
    .map((issue) =>
      issue.path
        .slice(prefix.length)
        .split("/")
        .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
        .join("."),
    );
}

/** A planning run's state across its model calls (the first, and at most one repair). */
export class PlanAttempts {
  /** 0 for the first call, 1 for the repair. */
  attempt = 0;
  /** The issues of the last call that ended, as the repair was asked to fix them. */
  finalIssues: PlanIssue[] = [];
  readonly #setup: PlanAttemptsSetup;
  readonly #normalizeOptions: { knowledgeBaseTool?: string };
  readonly #seedCount: number;
  /** The validation context: the known steps, then the accepted ones (the held reply last). */
  readonly #steps: PlanStep[];
  /** Steps from the known ones and earlier attempts, by id: a step restating one of them (same id, same call) is not new. */
  readonly #earlier: Map<string, string>;
  readonly #blocked: readonly string[];
  readonly #rejectedIds: Set<string>;
  readonly #firstPosition: number;
  #position: number;
  /** The accepted steps by their place in the plan. */
  readonly #placed = new Map<number, PlanStep>();
  #heldReply: PlanStep | undefined;
  #setAsideReply: PlanStep | undefined;
  /** The issues of this call a repair could fix. */
  #repairable: PlanIssue[] = [];
  #unreadableText: string | undefined;
  /** A step of the answer was dropped for good (past `maxSteps`, after the reply): the plan is not the one the model wrote. */
  #lost = false;
  /** The reply's text as last reported to `onReplyDraft`. */
  #draftText = "";
  #draftId: string | undefined;

  constructor(setup: PlanAttemptsSetup) {
    this.#setup = setup;
    this.#normalizeOptions =
      setup.knowledgeBaseTool === undefined ? {} : { knowledgeBaseTool: setup.knowledgeBaseTool };
    const known = (setup.known ?? []).filter((step) => step.type !== "reply");
    this.#seedCount = known.length;
    this.#steps = [...known];
    this.#earlier = new Map(known.map((step) => [step.id, stepKey(step)]));
    this.#blocked = setup.blockedIds ?? [];
    this.#rejectedIds = new Set(this.#blocked);
    this.#firstPosition = setup.startPosition ?? this.#seedCount;
    this.#position = this.#firstPosition;
  }

  /** Starts a model call. */
  startAttempt(): void {
    this.#heldReply = undefined;
    this.#repairable = [];
  }

  /**
   * A tool's parameters in schema order, to name a pythonic call's positional
   * arguments; the name as models write it resolves like a step's.
   */
  toolParameters(name: string): readonly string[] | undefined {
    const { catalog } = this.#setup;
    const resolved = resolveCatalogTool(name, catalog);
    return resolved.kind === "found" ? catalog.parameterNames(resolved.name) : undefined;
  }

  /** Takes one element the reader handed out: reports a closed reply draft, then makes it a step or issues. */
  *take(element: unknown): Generator<PlannerEvent> {
    this.#reportWholeDraft(element);
    yield* this.#handle(element);
  }

  #planSize(): number {
    return this.#steps.length - this.#seedCount;
  }

  #accept(step: PlanStep, at: number): PlannerEvent | undefined {
    this.#steps.push(step);
    this.#placed.set(at - this.#firstPosition, step);
    if (step.type === "reply") {
      this.#heldReply = step;
      return undefined;
    }
    return { type: "step", step, index: this.#planSize() - 1 };
  }

  /** Validates a step at a place against the catalog and the steps so far. */
  #validate(raw: unknown, index: number): ReturnType<typeof validateStep> {
    return validateStep(raw, {
      ...this.#normalizeOptions,
      tools: this.#setup.catalog,
      steps: this.#steps,
      index,
      rejectedIds: this.#rejectedIds,
    });
  }

  /** Makes one element a step (validated, placed) or the issues that drop it. */
  *#handle(raw: unknown): Generator<PlannerEvent> {
    const { catalog, maxSteps, clarify } = this.#setup;
    const at = this.#position++;
    const normalized = normalizeStep(raw, at, this.#normalizeOptions).step;
    if (this.#heldReply !== undefined) {
      const issue = stepIssue(
        "invalid-step",
        at,
        normalized?.id,
        `Step ${normalized === undefined ? at + 1 : `"${normalized.id}"`} comes after the reply step "${this.#heldReply.id}" and was ignored`,
      );
      this.#lost = true;
      yield { type: "issue", issue, action: "dropped" };
      return;
    }
    if (normalized !== undefined) {
      // A repeated call under a new id is a new step (a read after a write reads again); only a restatement is dropped.
      if (this.#earlier.get(normalized.id) === stepKey(normalized)) {
        const issue = stepIssue(
          "duplicate-id",
          at,
          normalized.id,
          `Step "${normalized.id}" restates a step already in the plan and was skipped`,
        );
        yield { type: "issue", issue, action: "dropped" };
        return;
      }
      const full = normalized.type === "reply" ? this.#planSize() >= maxSteps : this.#planSize() >= maxSteps - 1;
      if (full) {
        const issue = stepIssue(
          "too-many-steps",
          at,
          normalized.id,
          `Step "${normalized.id}" ${keptForReply(maxSteps)}`,
        );
        this.#rejectedIds.add(normalized.id);
        this.#lost = true;
        yield { type: "issue", issue, action: "dropped" };
        return;
      }
    }
    const result = this.#validate(normalized ?? raw, at);
    const step = result.step;
    if (step !== undefined && result.issues.length === 0) {
      const event = this.#accept(step, at);
      if (event !== undefined) yield event;
      return;
    }
    if (
      clarify !== undefined &&
      step?.type === "tool" &&
      result.issues.every((issue) => issue.code === "missing-argument")
    ) {
      for (const issue of result.issues) yield { type: "issue", issue, action: "repaired" };
      const text = clarify(step, missingArguments(result.issues, at), catalog.get(step.name));
      this.#accept({ id: step.id, type: "reply", text }, at);
      return;
    }
    const id = step?.id ?? result.issues.find((issue) => issue.stepId !== undefined)?.stepId;
    if (id !== undefined) this.#rejectedIds.add(id);
    for (const issue of result.issues) {
      this.#repairable.push(issue);
      yield { type: "issue", issue, action: "dropped" };
    }
  }

  /** The drafted reply closed: its whole text is the last draft, whatever validation makes of the step. */
  #reportWholeDraft(element: unknown): void {
    const { onReplyDraft } = this.#setup;
    if (onReplyDraft === undefined || this.#draftId === undefined || this.attempt !== 0 || !isRecord(element)) return;
    const text = element["text"];
    if (
      element["id"] === this.#draftId &&
      element["type"] === "reply" &&
      typeof text === "string" &&
      text !== this.#draftText
    ) {
      this.#draftText = text;
      onReplyDraft({ id: this.#draftId, text, index: this.#planSize() });
    }
  }

  /** Reports the reply's text as the first call writes it, while nothing needs a repair. */
  reportPartialDraft(reader: { partialString(): PartialString | undefined }): void {
    const { onReplyDraft } = this.#setup;
    if (
      onReplyDraft === undefined ||
      this.attempt !== 0 ||
      this.#repairable.length > 0 ||
      this.#heldReply !== undefined
    )
      return;
    const partial = reader.partialString();
    const id = partial?.members["id"];
    // Only the shape the prompt asks for: `{"id": …, "type": "reply", "text": "…`, its id given.
    if (
      partial !== undefined &&
      partial.key === "text" &&
      partial.members["type"] === "reply" &&
      typeof id === "string" &&
      partial.text !== this.#draftText
    ) {
      this.#draftText = partial.text;
      this.#draftId = id;
      onReplyDraft({ id, text: partial.text, index: this.#planSize() });
    }
  }

  /**
   * Takes what the reader held at the call's end: the last steps, the calls
   * cut off or dropped, and, when the answer held no call at all, a plan in
   * another shape (a sketch, a task graph) read whole.
   *
   * @returns whether the answer could be read.
   */
  *readEnd(read: ToolCallReadResult, streamed: number): Generator<PlannerEvent, boolean> {
    let readable = read.found;
    for (const element of read.steps) yield* this.take(element);
    for (const cut of read.cutOff) {
      const at = this.#position++;
      const issue = stepIssue(
        "invalid-step",
        at,
        undefined,
        `Step ${at + 1} was cut off before ${cut.what} closed and was dropped`,
      );
      this.#dropAtEnd(issue);
      yield { type: "issue", issue, action: "dropped" };
    }
    for (const drop of read.dropped) {
      const at = this.#position++;
      const issue = stepIssue("invalid-step", at, undefined, drop.message);
      this.#dropAtEnd(issue);
      yield { type: "issue", issue, action: "dropped" };
    }
    if (readable && streamed + read.steps.length + read.cutOff.length + read.dropped.length === 0) {
      readable = false;
      for (const value of read.values) {
        const entries = readPlanEntries(value, {
          ...this.#normalizeOptions,
          parameterNames: (tool) => this.#setup.catalog.parameterNames(tool),
        });
        if (entries.count === 0 && entries.issues.some((issue) => issue.index === -1 && issue.path === "")) continue;
        readable = true;
        for (const issue of entries.issues) {
          this.#repairable.push(issue);
          yield { type: "issue", issue, action: "dropped" };
        }
        for (const entry of entries.entries) yield* this.#handle(entry.step);
        break;
      }
    }
    return readable;
  }

  /**
   * A step cut off or unreadable at the call's end: a repair may bring it
   * back, unless it came after the reply — then it is lost, as a whole step
   * after the reply is.
   */
  #dropAtEnd(issue: PlanIssue): void {
    if (this.#heldReply === undefined) this.#repairable.push(issue);
    else this.#lost = true;
  }

  /**
   * Ends a call: the issues a repair would be asked to fix.
   *
   * @param readable - whether the answer could be read.
   * @param text - the answer.
   * @returns the issues.
   */
  closeAttempt(readable: boolean, text: string): PlanIssue[] {
    const issues = [...this.#repairable];
    if (!readable) {
      this.#unreadableText = text;
      const message = text.trim() === "" ? "The answer was empty" : "The answer holds no JSON array of steps";
      issues.unshift({ code: "invalid-step", index: -1, path: "", message });
    } else if (this.#heldReply === undefined) {
      // Rejected steps count as places of the plan: a plan of invalid steps lacks its reply, it is not empty.
      const closing = closingIssue(
        this.#planSize() === 0 && this.#repairable.length === 0 ? 0 : Math.max(1, this.#position - this.#firstPosition),
        false,
        (index) => this.#placed.get(index),
      );
      if (closing !== undefined) issues.push(closing);
    }
    this.finalIssues = issues;
    return issues;
  }

  /**
   * Readies the repair: the reply set aside (the repair may add steps, which
   * must come before it), the accepted steps remembered, the refused ids free
   * again (a repaired step may take the id of the step it replaces).
   *
   * @param issues - what to repair.
   * @param text - the answer being repaired.
   * @returns the repair's prompt.
   */
  startRepair(issues: readonly PlanIssue[], text: string): PlanPrompt {
    this.attempt++;
    if (this.#heldReply !== undefined) {
      this.#steps.pop();
      this.#setAsideReply = this.#heldReply;
      this.#heldReply = undefined;
    }
    const accepted = this.#steps.slice(this.#seedCount);
    for (const step of accepted) this.#earlier.set(step.id, stepKey(step));
    this.#rejectedIds.clear();
    for (const id of this.#blocked) this.#rejectedIds.add(id);
    return buildRepairPrompt({
      base: this.#setup.prompt,
      output: text,
      issues: [...issues],
      accepted,
      stepsLeft: this.#setup.maxSteps - accepted.length,
    });
  }

  /**
   * Ends the plan with its reply — the held one, the one set aside, one
   * quoting the plan's results, or the fallback — and builds `done`.
   *
   * @param finishReason - why the last call ended.
   * @returns the `done` event, yielded by the caller.
   */
  *close(finishReason: FinishReason | "missing"): Generator<PlannerEvent, PlannerEvent> {
    const setup = this.#setup;
    const steps = this.#steps;
    const seedCount = this.#seedCount;
    let fallback = false;
    const freeId = createIdPicker([...steps.map((step) => step.id), ...this.#blocked]);
    const pending = this.#heldReply;
    if (pending !== undefined) {
      yield { type: "step", step: pending, index: steps.length - seedCount - 1 };
    } else {
      // Other steps never fill the last place, so there is always room for a reply.
      const restored =
        this.#setAsideReply === undefined ? undefined : this.#validate(this.#setAsideReply, this.#position);
      if (restored?.step !== undefined && restored.issues.length === 0) {
        steps.push(restored.step);
        yield { type: "step", step: restored.step, index: steps.length - seedCount - 1 };
      } else if (steps.length > seedCount) {
        const planned = steps.slice(seedCount);
        const id = freeId("reply");
        const index = planned.length;
        const { reply, quoted } = buildQuotingReply(planned, id);
        const issue = stepIssue(
          "no-reply",
          index,
          id,
          `The plan did not end with a reply step; reply "${id}" quoting ${quoted} was added`,
        );
        yield { type: "issue", issue, action: "repaired" };
        steps.push(reply);
        yield { type: "step", step: reply, index: steps.length - seedCount - 1 };
      } else {
        fallback = true;
        const reply: PlanStep = {
          id: freeId(`s${(setup.startPosition ?? seedCount) + 1}`),
          type: "reply",
          text: fallbackReplyText(this.#unreadableText ?? "", setup.fallbackText),
        };
        steps.push(reply);
        yield { type: "step", step: reply, index: 0 };
      }
    }
    // A missing reply alone does not make the answer unclean: every step in it was read and validated.
    // A step lost for good does: what the model meant to do is not all there, so no side effect of it runs.
    const clean =
      finishReason === "stop" &&
      !fallback &&
      !this.#lost &&
      this.finalIssues.every((issue) => issue.code === "no-reply");
    const done: PlannerEvent = {
      type: "done",
      steps: steps.slice(seedCount),
      clean,
      finishReason,
      fallback,
      usage: { ...setup.usage },
    };
    if (setup.reasoning !== undefined) done.reasoning = setup.reasoning;
    return done;
  }
}
