/**
 * The model-driven planner.
 *
 * @module
 */
import { collectModelText } from "../model/collect-model-text.ts";
import type { PlanModel } from "../model/plan-model.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { compileCatalog } from "../tools/compile-catalog.ts";
import { buildPlanPrompt } from "./build-plan-prompt.ts";
import { buildReasoningPrompt } from "./build-reasoning-prompt.ts";
import { finalSteps } from "./final-steps.ts";
import type { Planner } from "./planner.ts";
import type { PlannerEvent, PlannerUsage, PlanRequest, ReplanRequest } from "./planner-event.ts";
import { checkOption, type PlannerOptions, type PlannerSetup, readPlannerOptions } from "./read-planner-options.ts";
import { selectShownTools } from "./select-shown-tools.ts";
import { streamPlanAttempts } from "./stream-plan-attempts.ts";
import { streamReplanAttempts } from "./stream-replan-attempts.ts";

/** How {@link LLMPlanner} asks for a plan. */
export type PlannerMode = "direct" | "sketch";

/** Options of the {@link LLMPlanner} constructor. */
export interface LLMPlannerOptions extends PlannerOptions {
  /**
   * `"direct"`: one call writes the plan. `"sketch"`: a first call reasons
   * in plain language, a second turns that into the plan. Planning from the
   * model's native tool calls is `ToolCallPlanner`'s.
   *
   * @defaultValue `"direct"`
   */
  mode?: PlannerMode;
}

/**
 * Plans with a language model: it shows the model the profile, the request
 * and the top-K tools under strict rules, parses the answer while it streams, validates each step
 * the moment its JSON closes, re-asks once with the issues when steps were
 * dropped, and always ends with a reply — the model's own text as a fallback
 * when nothing usable came back.
 *
 * Any model works through the {@link PlanModel} interface: `fromLanguageModel`
 * from `plankit/ai` adapts AI SDK models; `createScriptedModel` scripts one.
 *
 * - The prompt shows the top-K tools; steps are validated against the whole
 *   catalog, so a valid call to a tool the selection left out is kept.
 * - The reply step is emitted when the model is done (a repair may still
 *   add steps before it); `maxSteps` keeps its last place for the reply.
 * - `done.clean` is true only when the last call finished with `stop`, no
 *   step of its answer was dropped (for being wrong, past `maxSteps`, or
 *   after the reply), and the plan is not the fallback. An answer of valid calls without a reply gets one quoting
 *   their results, with no re-ask, and stays clean.
 *
 * @example
 * ```ts
 * const planner = new LLMPlanner({ model, maxSteps: 4 });
 * for await (const event of planner.stream({ query: "Find 2 surveys on LLM agents, then compute 21*2+5", tools })) {
 *   if (event.type === "step") console.log(event.step);
 * }
 * ```
 */
export class LLMPlanner implements Planner {
  /** The model; a runtime may use it for `llm` steps and result integration too. */
  readonly model: PlanModel;
  /** The most steps a plan may have, the reply included. */
  readonly maxSteps: number;
  /** Whether one repair re-ask is made. */
  readonly repair: boolean;
  /** How many tools the prompt shows. */
  readonly topK: number;
  /** Direct or two-stage (sketch) planning. */
  readonly mode: PlannerMode;
  readonly #setup: PlannerSetup;

  /**
   * @param options - the model and the planning options.
   * @throws PlankitError `invalid-options` for an unknown option, or a bad `model`, `maxSteps`, `topK`, `mode`, `select` or `modelTimeouts`.
   */
  constructor(options: LLMPlannerOptions) {
    const mode = options?.mode ?? "direct";
    checkOption(
      "mode",
      mode,
      mode === "direct" || mode === "sketch",
      `"direct" or "sketch"${mode === ("tools" as string) ? " (native tool calls are planned by ToolCallPlanner)" : ""}`,
    );
    this.#setup = readPlannerOptions(options, "LLMPlanner", ["mode"], 6, {
      maxTurns: "native tool calls, in turns, are planned by ToolCallPlanner",
    });
    this.model = options.model;
    this.mode = mode;
    ({ maxSteps: this.maxSteps, topK: this.topK, repair: this.repair } = this.#setup);
  }

  /**
   * Plans and returns the steps (see {@link LLMPlanner.stream}).
   *
   * @param request - profile, query, tools, context and signal.
   * @returns the validated steps; never empty, always ending with a reply.
   * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
   */
  async plan(request: PlanRequest): Promise<PlanStep[]> {
    return finalSteps(this.stream(request));
  }

  /**
   * Streams a plan: a `step` event for each step the moment its JSON closes
   * and validates (the reply when the model is done), an `issue` for each
   * dropped or repaired step, `repair` when a re-ask starts, then `done`
   * with the steps, usage and whether the model finished cleanly. In sketch
   * mode the reasoning call runs first.
   *
   * @param request - profile, query, tools, context and signal.
   * @returns the events.
   * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
   */
  async *stream(request: PlanRequest): AsyncGenerator<PlannerEvent, void> {
    const { settings } = this.#setup;
    const catalog = compileCatalog(request.tools);
    const tools = await selectShownTools(this.#setup, request.query, catalog);
    const usage: PlannerUsage = { modelCalls: 0 };
    const { signal } = request;
    const sections = { ...request, tools };
    const reasoning =
      this.mode === "sketch"
        ? (
            await collectModelText(
              this.model,
              { ...buildReasoningPrompt(sections), purpose: "reason", ...(signal === undefined ? {} : { signal }) },
              { what: "Planning (reasoning)", usage, timeouts: settings.timeouts },
            )
          ).text.trim()
        : undefined;
    yield* streamPlanAttempts({
      ...settings,
      prompt: buildPlanPrompt({ ...sections, maxSteps: this.maxSteps, reasoning }),
      catalog,
      shownTools: tools.map((tool) => tool.name),
      signal,
      usage,
      reasoning,
      what: "Planning",
      purpose: "plan",
      onReplyDraft: request.onReplyDraft,
    });
  }

  /**
   * Asks for a patch after a failure and returns it (see {@link LLMPlanner.streamReplan}).
   *
   * @param request - the query, tools, and the completed, failed and remaining steps.
   * @returns the new steps; never empty, ending with a reply.
   * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
   */
  async replan(request: ReplanRequest): Promise<PlanStep[]> {
    return finalSteps(this.streamReplan(request));
  }

  /**
   * Streams a re-planning patch: new steps for what is left after a failure.
   * The completed steps are in the validation context, so new steps may
   * reference them by id; a step repeating one of them is skipped, and the
   * failed steps' ids may be neither reused nor referenced. The events are
   * those of {@link LLMPlanner.stream}; `done.steps` is the patch alone.
   *
   * @param request - the query, tools, and the completed, failed and remaining steps.
   * @returns the events.
   * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
   */
  streamReplan(request: ReplanRequest): AsyncGenerator<PlannerEvent, void> {
    return streamReplanAttempts(this.#setup, request);
  }
}
