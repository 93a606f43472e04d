/**
 * Planning from native tool calls: each call a step the moment its input closes, turn after turn.
 *
 * @module
 */
import type { ModelTimeouts } from "../model/bound-stream.ts";
import type { FinishReason, PlanModel, PlanModelMessage, PlanModelTool } from "../model/plan-model.ts";
import { readModelStream } from "../model/read-model-stream.ts";
import { linkSignal } from "../shared/link-signal.ts";
import type { CompiledCatalog } from "../tools/compile-catalog.ts";
import type { PlanPrompt } from "./build-plan-prompt.ts";
import { createTurnCalls, type PlanSoFar } from "./create-turn-calls.ts";
import { endPlan } from "./end-plan.ts";
import type { PlannerEvent, PlannerUsage, StepOutcome } from "./planner-event.ts";

/** Everything a native tool-call planning run needs. */
export interface ToolCallTurnsSetup {
  model: PlanModel;
  /** The system prompt and the request. */
  prompt: PlanPrompt;
  /** The whole catalog, compiled: calls are validated against it. */
  catalog: CompiledCatalog;
  /** The tools offered to the model. */
  tools: readonly PlanModelTool[];
  /** The most steps in all, the reply included. */
  maxSteps: number;
  /** The most model turns. */
  maxTurns: number;
  /** The reply when the model gave neither calls nor text. */
  fallbackText: string;
  /** Tells what became of a turn's steps; without it the run stops after one turn. */
  awaitOutcomes?: ((stepIds: readonly string[]) => Promise<StepOutcome[]>) | undefined;
  signal?: AbortSignal | undefined;
  /** Receives the usage so far after each turn (see `PlanRequest.onUsage`). */
  onUsage?: ((usage: PlannerUsage) => void) | undefined;
  /** Updated in place. */
  usage: PlannerUsage;
  /** The idle and total limits of each model call. */
  timeouts: ModelTimeouts;
}

/**
 * Plans from a model's native tool calls. Each call becomes a tool step
 * (`s1`, `s2`, … in the order their arguments close, across turns) the
 * moment its input closes — its JSON object closing in the deltas, or its
 * end part, whichever comes first — validated like a step of a JSON plan:
 * its arguments may reference earlier calls (`"{{s1.price}}"`). A call that
 * does not validate is dropped with its issues, and the model hears why
 * with the turn's results.
 *
 * - The provider's final input (`tool-call`) wins. Equal to the streamed
 *   arguments as canonical JSON, it confirms the step; different, it
 *   supersedes it: an `invalid-argument` issue, the early step leaves the
 *   plan and its outcome is never the call's answer, the final input becomes
 *   a new step, and the turn is not clean — so a side-effecting tool runs in
 *   neither version, and a read-only one runs again.
 * - A turn that ends with calls and finish `tool-calls` (or `stop`), with no
 *   call dropped, is clean: `turn-end` says so. With `awaitOutcomes`, the
 *   outcomes go back to the model for the next turn; they are awaited only
 *   when a next turn follows, so every outcome awaited is one the model hears.
 * - A turn that drops a call is not clean (a runtime then runs none of its
 *   side-effecting steps), but the loop goes on: the model hears which calls
 *   did not run and why, and may make them again.
 * - A turn that ends in `length`, an error or any other reason is not clean
 *   and ends the loop.
 * - The model's text in a turn without calls is the reply. Otherwise the
 *   reply quotes the plan's final results (`no-reply`, repaired; its message
 *   names `maxTurns` when the last turn allowed still called tools).
 * - Bounded by `maxTurns` model turns and `maxSteps` steps (the last place
 *   is kept for the reply).
 *
 * @param setup - model, prompt, catalog, offered tools and limits.
 * @returns the events; `done` is always last.
 * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCallTurns({ model, prompt, catalog, tools, maxSteps: 24, maxTurns: 8, … })) …
 * ```
 */
export async function* streamToolCallTurns(setup: ToolCallTurnsSetup): AsyncGenerator<PlannerEvent, void> {
  const { catalog, maxSteps, usage } = setup;
  const plan: PlanSoFar = { steps: [], rejectedIds: new Set(), position: 0, catalog, maxSteps };
  const { steps, rejectedIds } = plan;
  const messages: PlanModelMessage[] = [];
  let clean = true;
  let finishReason: FinishReason | "missing" = "missing";
  let replyText: string | undefined;
  let lastText = "";
  let completed = false;
  /** Whether the last turn allowed still ended with calls. */
  let outOfTurns = false;

  const link = linkSignal(setup.signal);

  try {
    for (let turn = 0; turn < setup.maxTurns; turn++) {
      const calls = createTurnCalls(plan);
      let text = "";

      const call = readModelStream(
        setup.model,
        {
          ...setup.prompt,
          purpose: "plan",
          tools: setup.tools,
          ...(messages.length === 0 ? {} : { messages: [...messages] }),
          signal: link.signal,
        },
        {
          what: "Planning",
          usage,
          timeouts: setup.timeouts,
          ...(turn === 0 ? { whileWaiting: (): void => catalog.prepare(setup.tools.map((tool) => tool.name)) } : {}),
        },
      );
      try {
        for (let next = await call.next(); ; next = await call.next()) {
          if (next.done === true) {
            finishReason = next.value;
            break;
          }
          const part = next.value;
          if (part.type === "text") text += part.text;
          else yield* calls.take(part);
        }
      } finally {
        await call.return("missing");
      }
      setup.onUsage?.({ ...usage });
      yield* calls.finish();
      lastText = text;
      const finishedCleanly = finishReason === "stop" || finishReason === "tool-calls";
      if (calls.size === 0) {
        if (finishReason !== "stop") clean = false;
        else replyText = text.trim();
        break;
      }
      const turnClean = finishedCleanly && !calls.dropped;
      yield { type: "turn-end", turn, clean: turnClean, finishReason };
      if (!turnClean) clean = false;
      // A turn cut off ends the loop; a finished turn with invalid calls goes on, so the model hears why they did not run.
      if (!finishedCleanly) break;
      // Outcomes are awaited only for a turn that follows: what the planner awaits, the model hears.
      outOfTurns = turn === setup.maxTurns - 1;
      if (setup.awaitOutcomes === undefined || steps.length >= maxSteps - 1 || outOfTurns) break;
      const outcomes = new Map((await setup.awaitOutcomes(calls.stepIds())).map((outcome) => [outcome.id, outcome]));
      if (link.signal.aborted) break;
      messages.push(...calls.toMessages(text, outcomes));
    }

    const done = yield* endPlan({
      planned: steps,
      reply: replyText === "" ? undefined : replyText,
      taken: [...steps.map((step) => step.id), ...rejectedIds],
      preferredId: `s${plan.position + 1}`,
      noReply: outOfTurns
        ? `The model was still calling tools after maxTurns (${setup.maxTurns}) turns`
        : "The model gave no answer after its calls",
      modelText: lastText,
      fallbackText: setup.fallbackText,
      clean,
      finishReason,
      usage,
    });
    completed = true;
    yield done;
  } finally {
    link.release(completed);
  }
}
