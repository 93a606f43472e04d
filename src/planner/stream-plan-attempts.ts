/**
 * The planning loop: model call, streaming parse, per-step validation,
 * one repair re-ask, and the fallback reply.
 *
 * @module
 */

import { PlankitError } from "../errors/plankit-error.ts";
import type { ModelTimeouts } from "../model/bound-stream.ts";
import type { FinishReason, PlanModel } from "../model/plan-model.ts";
import { streamModelText } from "../model/stream-model-text.ts";
import { createToolCallReader } from "../plan/create-tool-call-reader.ts";
import { readPlanEntries } from "../plan/normalize-plan.ts";
import { normalizeStep } from "../plan/normalize-step.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { isRecord } from "../shared/is-record.ts";
import { linkSignal } from "../shared/link-signal.ts";
import type { CompiledCatalog } from "../tools/compile-catalog.ts";
import { closingIssue } from "../validate/closing-issue.ts";
import { resolveToolName } from "../validate/resolve-tool-name.ts";
import { validateStep } from "../validate/validate-step.ts";
import type { ClarifyFunction } from "./build-clarification.ts";
import type { PlanPrompt } from "./build-plan-prompt.ts";
import { buildQuotingReply } from "./build-quoting-reply.ts";
import { buildRepairPrompt } from "./build-repair-prompt.ts";
import { createIdPicker } from "./create-id-picker.ts";
import { keptForReply } from "./kept-for-reply.ts";
import type { PlannerEvent, PlannerUsage, ReplyDraft } from "./planner-event.ts";
import { stepKey } from "./step-key.ts";

/** Everything one planning run needs. */
export interface PlanAttemptsSetup {
  model: PlanModel;
  /** The prompt of the first call. */
  prompt: PlanPrompt;
  /** The whole catalog, compiled: steps are validated against it. */
  catalog: CompiledCatalog;
  /** The tools the prompt shows: their schemas are compiled while the first call waits for its first token. */
  shownTools?: readonly string[];
  /** The most steps the plan (or patch) may have, the reply included. */
  maxSteps: number;
  /** Re-ask once when the answer cannot be read or steps were dropped. */
  repair: boolean;
  /** Turn a step missing required arguments into a clarifying reply, with this text. */
  clarify: ClarifyFunction | undefined;
  /** The text of the fallback reply when the answer parsed but gave no usable step. */
  fallbackText: string;
  /** Steps already in the plan (re-planning: the completed ones): referable, never emitted or repeated. */
  known?: readonly PlanStep[];
  /** Ids that may be neither reused nor referenced (re-planning: the failed steps). */
  blockedIds?: readonly string[];
  /** The position of the first new step (its default id is `s<position + 1>`). */
  startPosition?: number;
  knowledgeBaseTool?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Updated in place; earlier calls (sketch mode's reasoning) may already be counted. */
  usage: PlannerUsage;
  /** The chain of thought of sketch mode, reported on `done`. */
  reasoning?: string | undefined;
  /** What the run is, for error messages ("Planning"). */
  what: string;
  /** The idle and total limits of each model call. */
  timeouts: ModelTimeouts;
  /** What the first call is for (`plan` or `replan`); a repair re-ask is `repair`. */
  purpose: "plan" | "replan";
  /** Receives the reply step's text as the first call writes it (see {@link PlanRequest.onReplyDraft}). */
  onReplyDraft?: ((draft: ReplyDraft) => void) | undefined;
}

/** The longest fallback reply, in characters: the model's raw text is cut there. */
const maxFallbackLength = 2_000;

/**
 * Builds a plan issue for a whole step.
 *
 * @param code - the issue code.
 * @param index - the step's position.
 * @param stepId - the step's id, if known.
 * @param message - what happened, without the path.
 * @returns the issue.
 */
function stepIssue(code: PlanIssue["code"], index: number, stepId: string | undefined, message: string): PlanIssue {
  const path = `/steps/${index}`;
  const issue: PlanIssue = { code, index, path, message: `${message} (${path})` };
  if (stepId !== undefined) issue.stepId = stepId;
  return issue;
}

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

/**
 * Runs a planning call and streams its events: each step the moment its
 * JSON closes and validates, each dropped or repaired step, at most one
 * repair re-ask, then `done`.
 *
 * - Steps are validated one at a time with `validateStep` against the whole
 *   catalog and the steps accepted before them.
 * - The reply is held until the call ends: a repair may still add steps
 *   before it. On a repair it is set aside, and restored when the repair
 *   brings no reply of its own.
 * - `maxSteps` keeps its last place for the reply: other steps past
 *   `maxSteps - 1` are dropped (`too-many-steps`), as are steps after the
 *   reply and, in a repair or a re-plan, steps restating one already in the
 *   plan (same id, same call); none of these triggers a repair, but the
 *   first two are steps lost, so the answer is not clean. A repeated call
 *   under a new id is a step like any other, as `validatePlan` sees it.
 * - When no reply comes, one quoting the plan's final results is added
 *   (`no-reply`, repaired) — without a re-ask when that is the answer's only
 *   issue (many models write calls alone), and the answer then stays clean;
 *   when no step survives, a fallback reply carries the model's text (first
 *   2000 characters) or `fallbackText`.
 *
 * @param setup - model, prompt, catalog, limits and what is already planned.
 * @returns the events; `done` is always last.
 * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
 *
 * @example
 * ```ts
 * for await (const event of streamPlanAttempts({ model, prompt, catalog, maxSteps: 6, repair: true, … })) …
 * ```
 */
export async function* streamPlanAttempts(setup: PlanAttemptsSetup): AsyncGenerator<PlannerEvent, void> {
  const { catalog, maxSteps, usage } = setup;
  const known = (setup.known ?? []).filter((step) => step.type !== "reply");
  const seedCount = known.length;
  /** The validation context: the known steps, then the accepted ones (the held reply last). */
  const steps: PlanStep[] = [...known];
  /** Steps from the known ones and earlier attempts, by id: a step restating one of them (same id, same call) is not new. */
  const earlier = new Map(known.map((step) => [step.id, stepKey(step)]));
  const blocked = setup.blockedIds ?? [];
  const rejectedIds = new Set<string>(blocked);
  const normalizeOptions = setup.knowledgeBaseTool === undefined ? {} : { knowledgeBaseTool: setup.knowledgeBaseTool };
  /** A tool's parameters in schema order, to name a pythonic call's positional arguments; the name as models write it resolves like a step's. */
  const toolParameters = (name: string): readonly string[] | undefined => {
    const resolved = resolveToolName(
      name,
      catalog.tools.map((tool) => tool.name),
      (candidate) => catalog.get(candidate) !== undefined,
    );
    return resolved.kind === "found" ? catalog.parameterNames(resolved.name) : undefined;
  };
  const firstPosition = setup.startPosition ?? seedCount;
  let position = firstPosition;
  /** The accepted steps by their place in the plan. */
  const placed = new Map<number, PlanStep>();

  const link = linkSignal(setup.signal);

  let request = setup.prompt;
  let attempt = 0;
  let heldReply: PlanStep | undefined;
  let setAsideReply: PlanStep | undefined;
  let finishReason: FinishReason | "missing" = "missing";
  let finalIssues: PlanIssue[] = [];
  let unreadableText: string | undefined;
  let completed = false;
  /** A step of the answer was dropped for good (past `maxSteps`, after the reply): the plan is not the one the model wrote. */
  let lost = false;
  /** The reply's text as last reported to `onReplyDraft`. */
  let draftText = "";
  let draftId: string | undefined;

  try {
    for (;;) {
      heldReply = undefined;
      const repairable: PlanIssue[] = [];
      const planSize = (): number => steps.length - seedCount;

      const accept = (step: PlanStep, at: number): PlannerEvent | undefined => {
        steps.push(step);
        placed.set(at - firstPosition, step);
        if (step.type === "reply") {
          heldReply = step;
          return undefined;
        }
        return { type: "step", step, index: planSize() - 1 };
      };

      const handle = function* (raw: unknown): Generator<PlannerEvent> {
        const at = position++;
        const normalized = normalizeStep(raw, at, normalizeOptions).step;
        if (heldReply !== undefined) {
          const issue = stepIssue(
            "invalid-step",
            at,
            normalized?.id,
            `Step ${normalized === undefined ? at + 1 : `"${normalized.id}"`} comes after the reply step "${heldReply.id}" and was ignored`,
          );
          lost = true;
          yield { type: "issue", issue, action: "dropped" };
          return;
        }
        if (normalized !== undefined) {
          // A repeated call under a new id is a new step (a read after a write reads again); only a restatement is dropped.
          if (earlier.get(normalized.id) === stepKey(normalized)) {
            const issue = stepIssue(
              "duplicate-id",
              at,
              normalized.id,
              `Step "${normalized.id}" restates a step already in the plan and was skipped`,
            );
            yield { type: "issue", issue, action: "dropped" };
            return;
          }
          const full = normalized.type === "reply" ? planSize() >= maxSteps : planSize() >= maxSteps - 1;
          if (full) {
            const issue = stepIssue(
              "too-many-steps",
              at,
              normalized.id,
              `Step "${normalized.id}" ${keptForReply(maxSteps)}`,
            );
            rejectedIds.add(normalized.id);
            lost = true;
            yield { type: "issue", issue, action: "dropped" };
            return;
          }
        }
        const result = validateStep(normalized ?? raw, {
          ...normalizeOptions,
          tools: catalog,
          steps,
          index: at,
          rejectedIds,
        });
        const step = result.step;
        if (step !== undefined && result.issues.length === 0) {
          const event = accept(step, at);
          if (event !== undefined) yield event;
          return;
        }
        if (
          setup.clarify !== undefined &&
          step?.type === "tool" &&
          result.issues.every((issue) => issue.code === "missing-argument")
        ) {
          for (const issue of result.issues) yield { type: "issue", issue, action: "repaired" };
          const text = setup.clarify(step, missingArguments(result.issues, at), catalog.get(step.name));
          accept({ id: step.id, type: "reply", text }, at);
          return;
        }
        const id = step?.id ?? result.issues.find((issue) => issue.stepId !== undefined)?.stepId;
        if (id !== undefined) rejectedIds.add(id);
        for (const issue of result.issues) {
          repairable.push(issue);
          yield { type: "issue", issue, action: "dropped" };
        }
      };

      /** The drafted reply closed: its whole text is the last draft, whatever validation makes of the step. */
      const reportWholeDraft = (element: unknown): void => {
        if (setup.onReplyDraft === undefined || draftId === undefined || attempt !== 0 || !isRecord(element)) return;
        const text = element["text"];
        if (
          element["id"] === draftId &&
          element["type"] === "reply" &&
          typeof text === "string" &&
          text !== draftText
        ) {
          draftText = text;
          setup.onReplyDraft({ id: draftId, text, index: planSize() });
        }
      };

      // One model call, read and validated while it streams: each call in any
      // common format (docs/formats.md) becomes a step the moment it closes.
      const reader = createToolCallReader({ parameterNames: toolParameters });
      let text = "";
      let streamed = 0;
      const prepare =
        attempt === 0 && setup.shownTools !== undefined
          ? (): void => setup.catalog.prepare(setup.shownTools ?? [])
          : undefined;
      const call = streamModelText(
        setup.model,
        { ...request, purpose: attempt === 0 ? setup.purpose : "repair", signal: link.signal },
        {
          what: setup.what,
          usage,
          timeouts: setup.timeouts,
          ...(prepare === undefined ? {} : { whileWaiting: prepare }),
        },
      );
      try {
        for (let next = await call.next(); ; next = await call.next()) {
          if (next.done === true) {
            finishReason = next.value;
            break;
          }
          text += next.value;
          for (const element of reader.write(next.value)) {
            streamed++;
            reportWholeDraft(element);
            yield* handle(element);
          }
          if (setup.onReplyDraft !== undefined && attempt === 0 && repairable.length === 0 && heldReply === undefined) {
            const partial = reader.partialString();
            const id = partial?.members["id"];
            // Only the shape the prompt asks for: `{"id": …, "type": "reply", "text": "…`, its id given.
            if (
              partial !== undefined &&
              partial.key === "text" &&
              partial.members["type"] === "reply" &&
              typeof id === "string" &&
              partial.text !== draftText
            ) {
              draftText = partial.text;
              draftId = id;
              setup.onReplyDraft({ id, text: partial.text, index: planSize() });
            }
          }
        }
      } catch (error) {
        // A failed re-ask hides why it was asked: the error names the issues it was to repair.
        throw attempt === 0 || !PlankitError.isInstance(error) || error.code === "aborted"
          ? error
          : repairFailure(error, finalIssues);
      } finally {
        await call.return("missing");
      }

      const read = reader.end();
      let readable = read.found;
      for (const element of read.steps) {
        reportWholeDraft(element);
        yield* handle(element);
      }
      for (const cut of read.cutOff) {
        const at = position++;
        const issue = stepIssue(
          "invalid-step",
          at,
          undefined,
          `Step ${at + 1} was cut off before ${cut.what} closed and was dropped`,
        );
        if (heldReply === undefined) repairable.push(issue);
        yield { type: "issue", issue, action: "dropped" };
      }
      for (const drop of read.dropped) {
        const at = position++;
        const issue = stepIssue("invalid-step", at, undefined, drop.message);
        if (heldReply === undefined) repairable.push(issue);
        yield { type: "issue", issue, action: "dropped" };
      }
      if (readable && streamed + read.steps.length + read.cutOff.length + read.dropped.length === 0) {
        // No call at all: a plan in another shape (a sketch, a task graph), read whole.
        readable = false;
        for (const value of read.values) {
          const entries = readPlanEntries(value, {
            ...normalizeOptions,
            parameterNames: (tool) => catalog.parameterNames(tool),
          });
          if (entries.count === 0 && entries.issues.some((issue) => issue.index === -1 && issue.path === "")) continue;
          readable = true;
          for (const issue of entries.issues) {
            repairable.push(issue);
            yield { type: "issue", issue, action: "dropped" };
          }
          for (const entry of entries.entries) yield* handle(entry.step);
          break;
        }
      }

      const issues = [...repairable];
      if (!readable) {
        unreadableText = text;
        const message = text.trim() === "" ? "The answer was empty" : "The answer holds no JSON array of steps";
        issues.unshift({ code: "invalid-step", index: -1, path: "", message });
      } else if (heldReply === undefined) {
        // Rejected steps count as places of the plan: a plan of invalid steps lacks its reply, it is not empty.
        const closing = closingIssue(
          planSize() === 0 && repairable.length === 0 ? 0 : Math.max(1, position - firstPosition),
          false,
          (index) => placed.get(index),
        );
        if (closing !== undefined) issues.push(closing);
      }
      finalIssues = issues;

      // An answer of calls alone, all valid, is what many models write: its reply is added below, without a re-ask.
      if (!(setup.repair && attempt === 0 && issues.some((issue) => issue.code !== "no-reply"))) break;
      attempt++;
      if (heldReply !== undefined) {
        // The repair may add steps, which must come before the reply.
        steps.pop();
        setAsideReply = heldReply;
        heldReply = undefined;
      }
      for (const step of steps.slice(seedCount)) earlier.set(step.id, stepKey(step));
      // A repaired step may take the id of the step it replaces.
      rejectedIds.clear();
      for (const id of blocked) rejectedIds.add(id);
      yield { type: "repair", attempt, issues };
      request = buildRepairPrompt({
        base: setup.prompt,
        output: text,
        issues,
        accepted: steps.slice(seedCount),
        stepsLeft: maxSteps - (steps.length - seedCount),
      });
    }

    let fallback = false;
    const freeId = createIdPicker([...steps.map((step) => step.id), ...blocked]);
    const pending = heldReply as PlanStep | undefined;
    if (pending !== undefined) {
      yield { type: "step", step: pending, index: steps.length - seedCount - 1 };
    } else {
      // Other steps never fill the last place, so there is always room for a reply.
      const restored =
        setAsideReply === undefined
          ? undefined
          : validateStep(setAsideReply, { ...normalizeOptions, tools: catalog, steps, index: position, rejectedIds });
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
        const modelText = unreadableText?.trim() ?? "";
        const reply: PlanStep = {
          id: freeId(`s${(setup.startPosition ?? seedCount) + 1}`),
          type: "reply",
          text: modelText === "" ? setup.fallbackText : modelText.slice(0, maxFallbackLength),
        };
        steps.push(reply);
        yield { type: "step", step: reply, index: 0 };
      }
    }
    // A missing reply alone does not make the answer unclean: every step in it was read and validated.
    // A step lost for good does: what the model meant to do is not all there, so no side effect of it runs.
    const clean =
      finishReason === "stop" && !fallback && !lost && finalIssues.every((issue) => issue.code === "no-reply");
    completed = true;
    const done: PlannerEvent = {
      type: "done",
      steps: steps.slice(seedCount),
      clean,
      finishReason,
      fallback,
      usage: { ...usage },
    };
    if (setup.reasoning !== undefined) done.reasoning = setup.reasoning;
    yield done;
  } finally {
    link.release(completed);
  }
}

/**
 * The error of a repair re-ask that failed, naming the issues it was asked to repair.
 *
 * @param error - the model call's error.
 * @param issues - what the repair was asked for.
 * @returns the error, with the same code.
 */
function repairFailure(error: PlankitError, issues: readonly PlanIssue[]): PlankitError {
  const asked = issues.map((issue) => issue.message).join("; ");
  return new PlankitError(error.code, `${error.message}, while re-asking the model to repair its plan (${asked})`, {
    cause: error,
  });
}
