/**
 * The model-driven planner.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { createJsonStreamParser } from "../json/create-json-stream-parser.ts";
import { defaultModelTimeouts, type ModelTimeouts } from "../model/bound-stream.ts";
import { collectModelText } from "../model/collect-model-text.ts";
import type { PlanModel, PlanModelPurpose } from "../model/plan-model.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { describeValue } from "../shared/describe-value.ts";
import { type CompiledCatalog, compileCatalog } from "../tools/compile-catalog.ts";
import type { ToolDescriptor } from "../tools/tool-descriptor.ts";
import { buildClarification, type ClarifyFunction } from "./build-clarification.ts";
import { buildGoalPrompt } from "./build-goal-prompt.ts";
import { buildPlanPrompt, type PlanPrompt } from "./build-plan-prompt.ts";
import { buildReasoningPrompt } from "./build-reasoning-prompt.ts";
import { buildReplanPrompt } from "./build-replan-prompt.ts";
import { buildToolCallPrompt } from "./build-tool-call-prompt.ts";
import type { PlanAttemptsSetup } from "./plan-attempts-setup.ts";
import type { PlanGoal } from "./plan-goal.ts";
import type { Planner } from "./planner.ts";
import type { PlannerEvent, PlannerProfile, PlannerUsage, PlanRequest, ReplanRequest } from "./planner-event.ts";
import { readGoal } from "./read-goal.ts";
import { streamPlanAttempts } from "./stream-plan-attempts.ts";
import { streamToolCallTurns } from "./stream-tool-call-turns.ts";

/** How {@link LLMPlanner} asks for a plan. */
export type PlannerMode = "direct" | "sketch" | "tools";

/**
 * Picks the tools a request's prompt shows out of a catalog: at most `k`
 * of them, best first. `selectTools` from `plankit/tools` is one (ranking
 * by the request's words, synonyms, a co-usage graph and an optional
 * retriever).
 */
export type ToolSelector = (
  query: string,
  catalog: CompiledCatalog,
  k: number,
) => readonly ToolDescriptor[] | PromiseLike<readonly ToolDescriptor[]>;

/** Options of the {@link LLMPlanner} constructor. */
export interface LLMPlannerOptions {
  /** The model that writes the plans. */
  model: PlanModel;
  /**
   * The most steps a plan may have, the reply included.
   *
   * @defaultValue `6`; `24` in `"tools"` mode (all turns together)
   */
  maxSteps?: number;
  /**
   * `"tools"` mode: the most model turns (each may call tools; the results
   * go back to the model for the next).
   *
   * @defaultValue `8`
   */
  maxTurns?: number;
  /**
   * Re-ask once, showing the model its answer and the issues, when the
   * answer cannot be read or steps were dropped.
   *
   * @defaultValue `true`
   */
  repair?: boolean;
  /**
   * How many tools the prompt shows when a `select` function picks them.
   *
   * @defaultValue `6`
   */
  topK?: number;
  /**
   * Picks the tools the prompt shows, for catalogs too large for one prompt:
   * e.g. `(query, catalog, k) => selectTools(query, catalog, { k })` with
   * `selectTools` from `plankit/tools`. Steps may still call only the
   * catalog's tools; a step calling a tool the prompt did not show is valid.
   *
   * @defaultValue none: the prompt shows every tool of the catalog
   */
  select?: ToolSelector;
  /**
   * `"direct"`: one call writes the plan. `"sketch"`: a first call reasons
   * in plain language, a second turns that into the plan. `"tools"`: the
   * tools are offered to the model natively (function calling) and each
   * call becomes a step the moment its arguments close; turn after turn,
   * the results go back to the model until it answers in text.
   *
   * @defaultValue `"direct"`
   */
  mode?: PlannerMode;
  /**
   * Turn a tool step that only lacks required arguments into a reply asking
   * the user for them (`true` uses `buildClarification`; a function writes
   * the text). Otherwise such a step is dropped.
   *
   * @defaultValue `false`
   */
  clarify?: boolean | ClarifyFunction;
  /**
   * The fallback reply when the answer parsed but no step was usable (an
   * unreadable answer is itself the fallback reply).
   *
   * @defaultValue `"(plan unavailable)"`
   */
  fallbackText?: string;
  /** The tool `query_kb` steps of the step-list shape call. @defaultValue `"query_kb"` */
  knowledgeBaseTool?: string;
  /**
   * The longest waits of each model call: for its next part (`idleMs`, the
   * first one included) and for the whole call (`totalMs`). A model that
   * stalls fails the call with a `timeout` error.
   *
   * @defaultValue `{ idleMs: 60000, totalMs: 300000 }`
   */
  modelTimeouts?: ModelTimeouts;
}

/** What {@link LLMPlanner.understand} needs. */
export interface UnderstandRequest {
  /** The user's request. */
  query: string;
  /** A profile object or a ready system prompt. */
  profile?: PlannerProfile | string;
  signal?: AbortSignal;
}

/**
 * Checks an option.
 *
 * @param name - the option's path (`modelTimeouts.idleMs`).
 * @param value - its value.
 * @param passes - whether the value is right.
 * @param expected - what the value must be.
 * @throws PlankitError `invalid-options` naming the option, what it must be and the value found.
 */
function checkOption(name: string, value: unknown, passes: boolean, expected: string): void {
  if (!passes)
    throw new PlankitError("invalid-options", `Option ${name} must be ${expected}, got ${describeValue(value)}`);
}

/** Reads a planner stream to its end and returns the steps of its `done` event. */
async function finalSteps(events: AsyncIterable<PlannerEvent>): Promise<PlanStep[]> {
  let steps: PlanStep[] = [];
  for await (const event of events) if (event.type === "done") steps = event.steps;
  return steps;
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
  /** Direct, two-stage (sketch) or native tool-call planning. */
  readonly mode: PlannerMode;
  /** The most model turns in `"tools"` mode. */
  readonly maxTurns: number;
  readonly #select: ToolSelector | undefined;
  /** The settings every planning call shares: the model, limits, repair and clarification. */
  readonly #settings: Pick<
    PlanAttemptsSetup,
    "model" | "maxSteps" | "repair" | "clarify" | "fallbackText" | "knowledgeBaseTool" | "timeouts"
  >;

  /**
   * @param options - the model and the planning options.
   * @throws PlankitError `invalid-options` for an unknown option, or a bad `model`, `maxSteps`, `maxTurns`, `topK`, `mode`, `select` or `modelTimeouts`.
   */
  constructor(options: LLMPlannerOptions) {
    const model: unknown = options?.model;
    checkOption(
      "model",
      model,
      typeof (model as { stream?: unknown } | undefined)?.stream === "function",
      "a PlanModel with a stream() method",
    );
    checkOptionKeys(
      options,
      "model maxSteps maxTurns repair topK select mode clarify fallbackText knowledgeBaseTool modelTimeouts".split(" "),
      "LLMPlanner",
    );
    const { select, modelTimeouts: timeouts } = options;
    const mode = options.mode ?? "direct";
    checkOption(
      "mode",
      mode,
      mode === "direct" || mode === "sketch" || mode === "tools",
      '"direct", "sketch" or "tools"',
    );
    this.model = options.model;
    this.mode = mode;
    this.maxSteps = options.maxSteps ?? (mode === "tools" ? 24 : 6);
    this.maxTurns = options.maxTurns ?? 8;
    this.topK = options.topK ?? 6;
    for (const name of ["maxSteps", "maxTurns", "topK"] as const) {
      const value = this[name];
      checkOption(name, value, Number.isInteger(value) && value >= 1, "an integer >= 1");
    }
    this.repair = options.repair ?? true;
    checkOption("select", select, select === undefined || typeof select === "function", "a function");
    this.#select = select;
    if (timeouts !== undefined) {
      for (const key of ["idleMs", "totalMs"] as const) {
        const value: unknown = timeouts[key];
        checkOption(`modelTimeouts.${key}`, value, typeof value === "number" && value > 0, "a number > 0");
      }
    }
    this.#settings = {
      model: this.model,
      maxSteps: this.maxSteps,
      repair: this.repair,
      clarify: options.clarify === true ? buildClarification : options.clarify === false ? undefined : options.clarify,
      fallbackText: options.fallbackText ?? "(plan unavailable)",
      knowledgeBaseTool: options.knowledgeBaseTool,
      timeouts: timeouts ?? defaultModelTimeouts,
    };
  }

  /**
   * Selects the tools to show for a request.
   *
   * @param query - the request.
   * @param catalog - the compiled catalog.
   * @returns every tool, or the top-K the `select` option picked.
   * @throws PlankitError `invalid-options` when the selector returns something else than tools of the catalog.
   */
  async #selectTools(query: string, catalog: CompiledCatalog): Promise<ToolDescriptor[]> {
    if (this.#select === undefined) return [...catalog.tools];
    const picked: unknown = await this.#select(query, catalog, this.topK);
    if (!Array.isArray(picked))
      throw new PlankitError(
        "invalid-options",
        `The select function returned ${picked === null ? "null" : typeof picked}, not an array of tools`,
      );
    return picked.map((tool: unknown, index) => {
      const name = typeof tool === "object" && tool !== null ? (tool as { name?: unknown }).name : undefined;
      const known = typeof name === "string" ? catalog.get(name) : undefined;
      if (known === undefined)
        throw new PlankitError(
          "invalid-options",
          `The select function returned, at index ${index}, ${typeof name === "string" ? `tool "${name}", which is not in the catalog` : "something that is not a tool"}`,
        );
      return known;
    });
  }

  /**
   * One model call's whole text.
   *
   * @param prompt - the system and user prompts.
   * @param purpose - what the call is for.
   * @param what - what it is for, in error messages.
   * @param usage - counts the call, in place.
   * @param signal - the request's signal.
   * @returns the text.
   */
  async #collectText(
    prompt: PlanPrompt,
    purpose: PlanModelPurpose,
    what: string,
    usage: PlannerUsage,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const request = { ...prompt, purpose, ...(signal === undefined ? {} : { signal }) };
    return (await collectModelText(this.model, request, { what, usage, timeouts: this.#settings.timeouts })).text;
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
    const catalog = compileCatalog(request.tools);
    const tools = await this.#selectTools(request.query, catalog);
    const usage: PlannerUsage = { modelCalls: 0 };
    const { signal } = request;
    if (this.mode === "tools") {
      yield* streamToolCallTurns({
        ...request,
        ...this.#settings,
        prompt: buildToolCallPrompt(request),
        catalog,
        tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
        maxTurns: this.maxTurns,
        usage,
      });
      return;
    }
    const sections = { ...request, tools };
    const reasoning =
      this.mode === "sketch"
        ? (
            await this.#collectText(buildReasoningPrompt(sections), "reason", "Planning (reasoning)", usage, signal)
          ).trim()
        : undefined;
    yield* streamPlanAttempts({
      ...this.#settings,
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
  async *streamReplan(request: ReplanRequest): AsyncGenerator<PlannerEvent, void> {
    const { query, profile, completed, failed, remaining } = request;
    const catalog = compileCatalog(request.tools);
    const tools = await this.#selectTools(query, catalog);
    yield* streamPlanAttempts({
      ...this.#settings,
      // Only the fields a re-plan shows: a request carries no context.
      prompt: buildReplanPrompt({ query, tools, profile, completed, failed, remaining, maxSteps: this.maxSteps }),
      catalog,
      shownTools: tools.map((tool) => tool.name),
      known: completed.map((entry) => entry.step),
      blockedIds: failed.map((entry) => entry.step.id),
      startPosition: completed.length + failed.length + remaining.length,
      signal: request.signal,
      usage: { modelCalls: 0 },
      what: "Re-planning",
      purpose: "replan",
    });
  }

  /**
   * Understands a request as a goal: its objective, implied
   * requirements, constraints, success metrics and risks. Pass
   * `renderGoal(goal)` as the `context` of `plan()` to plan with it. An
   * unreadable answer gives a goal whose objective is the query.
   *
   * @param request - the query, an optional profile and signal.
   * @returns the goal.
   * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
   */
  async understand(request: UnderstandRequest): Promise<PlanGoal> {
    const { query } = request;
    const text = await this.#collectText(
      buildGoalPrompt({ query, profile: request.profile }),
      "understand",
      "Goal understanding",
      { modelCalls: 0 },
      request.signal,
    );
    const parser = createJsonStreamParser();
    parser.write(text);
    let value: unknown;
    try {
      value = parser.end();
    } catch {
      value = undefined;
    }
    return readGoal(Array.isArray(value) ? value[0] : value, query);
  }
}
