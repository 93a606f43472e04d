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
import { buildRepairPrompt } from "./build-repair-prompt.ts";
import { endPlan } from "./end-plan.ts";
import { issueEvent } from "./issue-event.ts";
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
  #repairing = false;
  #heldReply: PlanStep | undefined;
  #setAsideReply: PlanStep | undefined;
  /** The issues of this call a repair could fix. */
  #repairable: PlanIssue[] = [];
  /** The issues of the last call that ended, as the repair was asked to fix them. */
  #finalIssues: PlanIssue[] = [];
  #unreadableText = "";
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
    // The drafted reply closed: its whole text is the last draft, whatever validation makes of the step.
    if (this.#draftId !== undefined && isRecord(element) && element["id"] === this.#draftId)
      this.#reportDraft(this.#draftId, element["type"], element["text"]);
    yield* this.#handle(element);
  }

  /** Reports the reply's text as the first call writes it, while nothing needs a repair. */
  reportPartialDraft(reader: { partialString(): PartialString | undefined }): void {
    if (this.#setup.onReplyDraft === undefined || this.#repairing || this.#repairable.length > 0) return;
    if (this.#heldReply !== undefined) return;
    const partial = reader.partialString();
    // Only the shape the prompt asks for: `{"id": …, "type": "reply", "text": "…`, its id given.
    if (partial?.key === "text") this.#reportDraft(partial.members["id"], partial.members["type"], partial.text);
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

  /** An issue a repair could fix: it is dropped for now. */
  #repairableEvent(issue: PlanIssue): PlannerEvent {
    this.#repairable.push(issue);
    return issueEvent(issue);
  }

  /**
   * A step cut off or unreadable at the call's end: a repair may bring it
   * back, unless it came after the reply — then it is lost, as a whole step
   * after the reply is.
   */
  #dropAtEnd(message: string): PlannerEvent {
    const issue = stepIssue("invalid-step", this.#position++, undefined, message);
    if (this.#heldReply === undefined) return this.#repairableEvent(issue);
    this.#lost = true;
    return issueEvent(issue);
  }

  /** Reports the reply's text of the first call when it changed. */
  #reportDraft(id: unknown, type: unknown, text: unknown): void {
    const { onReplyDraft } = this.#setup;
    if (onReplyDraft === undefined || this.#repairing || typeof id !== "string" || type !== "reply") return;
    if (typeof text !== "string" || text === this.#draftText) return;
    this.#draftText = text;
    this.#draftId = id;
    onReplyDraft({ id, text, index: this.#planSize() });
  }

  /** Makes one element a step (validated, placed) or the issues that drop it. */
  *#handle(raw: unknown): Generator<PlannerEvent> {
    const { catalog, maxSteps, clarify } = this.#setup;
    const at = this.#position++;
    const normalized = normalizeStep(raw, at, this.#normalizeOptions).step;
    const dropped = (code: PlanIssue["code"], message: string): PlannerEvent =>
      issueEvent(stepIssue(code, at, normalized?.id, message));
    if (this.#heldReply !== undefined) {
      this.#lost = true;
      yield dropped(
        "invalid-step",
        `Step ${normalized === undefined ? at + 1 : `"${normalized.id}"`} comes after the reply step "${this.#heldReply.id}" and was ignored`,
      );
      return;
    }
    if (normalized !== undefined) {
      // A repeated call under a new id is a new step (a read after a write reads again); only a restatement is dropped.
      if (this.#earlier.get(normalized.id) === stepKey(normalized)) {
        yield dropped("duplicate-id", `Step "${normalized.id}" restates a step already in the plan and was skipped`);
        return;
      }
      // Other steps never fill the last place, so there is always room for a reply.
      if (this.#planSize() >= (normalized.type === "reply" ? maxSteps : maxSteps - 1)) {
        this.#rejectedIds.add(normalized.id);
        this.#lost = true;
        yield dropped("too-many-steps", `Step "${normalized.id}" ${keptForReply(maxSteps)}`);
        return;
      }
    }
    const { step, issues } = this.#validate(normalized ?? raw, at);
    if (step !== undefined && issues.length === 0) {
      const event = this.#accept(step, at);
      if (event !== undefined) yield event;
      return;
    }
    if (clarify !== undefined && step?.type === "tool" && issues.every((issue) => issue.code === "missing-argument")) {
      for (const issue of issues) yield issueEvent(issue, "repaired");
      const text = clarify(step, missingArguments(issues, at), catalog.get(step.name));
      this.#accept({ id: step.id, type: "reply", text }, at);
      return;
    }
    const id = step?.id ?? issues.find((issue) => issue.stepId !== undefined)?.stepId;
    if (id !== undefined) this.#rejectedIds.add(id);
    for (const issue of issues) yield this.#repairableEvent(issue);
  }

  /**
   * Ends a call: takes what the reader held at its end — the last steps,
   * the calls cut off or dropped, and, when the answer held no call at all,
   * a plan in another shape (a sketch, a task graph) read whole.
   *
   * @param read - what the reader held.
   * @param streamed - how many elements the reader handed out while the call streamed.
   * @param text - the answer.
   * @returns the issues a repair would be asked to fix.
   */
  *endAttempt(read: ToolCallReadResult, streamed: number, text: string): Generator<PlannerEvent, PlanIssue[]> {
    let readable = read.found;
    for (const element of read.steps) yield* this.take(element);
    for (const cut of read.cutOff)
      yield this.#dropAtEnd(`Step ${this.#position + 1} was cut off before ${cut.what} closed and was dropped`);
    for (const drop of read.dropped) yield this.#dropAtEnd(drop.message);
    if (readable && streamed + read.steps.length + read.cutOff.length + read.dropped.length === 0) {
      readable = false;
      for (const value of read.values) {
        const entries = readPlanEntries(value, {
          ...this.#normalizeOptions,
          parameterNames: (tool) => this.#setup.catalog.parameterNames(tool),
        });
        if (entries.count === 0 && entries.issues.some((issue) => issue.index === -1 && issue.path === "")) continue;
        readable = true;
        for (const issue of entries.issues) yield this.#repairableEvent(issue);
        for (const entry of entries.entries) yield* this.#handle(entry.step);
        break;
      }
    }
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
    this.#finalIssues = issues;
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
    this.#repairing = true;
    this.#repairable = [];
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
  close(finishReason: FinishReason | "missing"): Generator<PlannerEvent, PlannerEvent> {
    const setup = this.#setup;
    const steps = this.#steps;
    const taken = [...steps.map((step) => step.id), ...this.#blocked];
    let reply = this.#heldReply;
    if (reply !== undefined) steps.pop();
    else if (this.#setAsideReply !== undefined) {
      const restored = this.#validate(this.#setAsideReply, this.#position);
      if (restored.issues.length === 0) reply = restored.step;
    }
    // A missing reply alone does not make the answer unclean: every step in it was read and validated.
    // A step lost for good does: what the model meant to do is not all there, so no side effect of it runs.
    return endPlan({
      planned: steps.slice(this.#seedCount),
      reply,
      taken,
      preferredId: `s${(setup.startPosition ?? this.#seedCount) + 1}`,
      noReply: "The plan did not end with a reply step",
      modelText: this.#unreadableText,
      fallbackText: setup.fallbackText,
      clean: finishReason === "stop" && !this.#lost && this.#finalIssues.every((issue) => issue.code === "no-reply"),
      finishReason,
      usage: setup.usage,
      reasoning: setup.reasoning,
    });
  }
}
