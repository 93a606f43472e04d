/**
 * The model-driven planner.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { createJsonStreamParser } from "../json/create-json-stream-parser.ts";
import { defaultModelTimeouts, type ModelTimeouts } from "../model/bound-stream.ts";
import { collectModelText } from "../model/collect-model-text.ts";
import type { PlanModel } from "../model/plan-model.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { type CompiledCatalog, compileCatalog } from "../tools/compile-catalog.ts";
import type { ToolDescriptor } from "../tools/tool-descriptor.ts";
import { buildClarification, type ClarifyFunction } from "./build-clarification.ts";
import { buildGoalPrompt } from "./build-goal-prompt.ts";
import { buildPlanPrompt } from "./build-plan-prompt.ts";
import { buildReasoningPrompt } from "./build-reasoning-prompt.ts";
import { buildReplanPrompt } from "./build-replan-prompt.ts";
import { buildToolCallPrompt } from "./build-tool-call-prompt.ts";
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
 * Checks a numeric option.
 *
 * @param name - the option name.
 * @param value - its value.
 * @returns the value.
 * @throws PlankitError `invalid-options` unless it is an integer >= 1.
 */
function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new PlankitError("invalid-options", `${name} must be an integer >= 1, got ${String(value)}`);
  return value;
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
  readonly #clarify: ClarifyFunction | undefined;
  readonly #select: ToolSelector | undefined;
  readonly #fallbackText: string;
  readonly #knowledgeBaseTool: string | undefined;
  readonly #timeouts: ModelTimeouts;

  /**
   * @param options - the model and the planning options.
   * @throws PlankitError `invalid-options` for an unknown option, or a bad `maxSteps`, `maxTurns`, `topK`, `mode` or `modelTimeouts`.
   */
  constructor(options: LLMPlannerOptions) {
    if (typeof (options?.model as { stream?: unknown } | undefined)?.stream !== "function") {
      throw new PlankitError(
        "invalid-options",
        `Option model must be a PlanModel with a stream() method, got ${options?.model === null ? "null" : typeof options?.model}`,
      );
    }
    checkOptionKeys(
      options,
      "model maxSteps maxTurns repair topK select mode clarify fallbackText knowledgeBaseTool modelTimeouts".split(" "),
      "LLMPlanner",
    );
    this.model = options.model;
    this.mode = options.mode ?? "direct";
    if (this.mode !== "direct" && this.mode !== "sketch" && this.mode !== "tools") {
      throw new PlankitError(
        "invalid-options",
        `mode must be "direct", "sketch" or "tools", got ${JSON.stringify(this.mode)}`,
      );
    }
    this.maxSteps = positiveInteger("maxSteps", options.maxSteps ?? (this.mode === "tools" ? 24 : 6));
    this.maxTurns = positiveInteger("maxTurns", options.maxTurns ?? 8);
    this.topK = positiveInteger("topK", options.topK ?? 6);
    this.repair = options.repair ?? true;
    this.#clarify =
      options.clarify === true ? buildClarification : options.clarify === false ? undefined : options.clarify;
    if (options.select !== undefined && typeof options.select !== "function")
      throw new PlankitError("invalid-options", `Option select must be a function, got ${typeof options.select}`);
    this.#select = options.select;
    this.#fallbackText = options.fallbackText ?? "(plan unavailable)";
    this.#knowledgeBaseTool = options.knowledgeBaseTool;
    const timeouts = options.modelTimeouts;
    if (timeouts !== undefined) {
      for (const key of ["idleMs", "totalMs"] as const) {
        const value: unknown = timeouts[key];
        if (typeof value !== "number" || !(value > 0))
          throw new PlankitError(
            "invalid-options",
            `modelTimeouts.${key} must be a number > 0, got ${JSON.stringify(value) ?? String(value)}`,
          );
      }
    }
    this.#timeouts = timeouts ?? defaultModelTimeouts;
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

  /** The settings every planning call shares: the model, limits, repair and clarification. */
  #attemptSettings() {
    return {
      model: this.model,
      maxSteps: this.maxSteps,
      repair: this.repair,
      clarify: this.#clarify,
      fallbackText: this.#fallbackText,
      knowledgeBaseTool: this.#knowledgeBaseTool,
      timeouts: this.#timeouts,
    };
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
    if (this.mode === "tools") {
      yield* streamToolCallTurns({
        ...request,
        ...this.#attemptSettings(),
        prompt: buildToolCallPrompt(request),
        catalog,
        tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
        maxTurns: this.maxTurns,
        usage,
      });
      return;
    }
    const sections = { ...request, tools };
    let reasoning: string | undefined;
    if (this.mode === "sketch") {
      const { text: thought } = await collectModelText(
        this.model,
        {
          ...buildReasoningPrompt(sections),
          purpose: "reason",
          ...(request.signal === undefined ? {} : { signal: request.signal }),
        },
        { what: "Planning (reasoning)", usage, timeouts: this.#timeouts },
      );
      reasoning = thought.trim();
    }
    yield* streamPlanAttempts({
      prompt: buildPlanPrompt({ ...sections, maxSteps: this.maxSteps, reasoning }),
      catalog,
      shownTools: tools.map((tool) => tool.name),
      ...this.#attemptSettings(),
      signal: request.signal,
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
    const catalog = compileCatalog(request.tools);
    const tools = await this.#selectTools(request.query, catalog);
    const usage: PlannerUsage = { modelCalls: 0 };
    const completed = request.completed.map((entry) => entry.step);
    yield* streamPlanAttempts({
      prompt: buildReplanPrompt({
        query: request.query,
        tools,
        profile: request.profile,
        completed: request.completed,
        failed: request.failed,
        remaining: request.remaining,
        maxSteps: this.maxSteps,
      }),
      catalog,
      shownTools: tools.map((tool) => tool.name),
      ...this.#attemptSettings(),
      known: completed,
      blockedIds: request.failed.map((entry) => entry.step.id),
      startPosition: request.completed.length + request.failed.length + request.remaining.length,
      signal: request.signal,
      usage,
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
    const prompt = buildGoalPrompt({ query: request.query, profile: request.profile });
    const usage: PlannerUsage = { modelCalls: 0 };
    const { text } = await collectModelText(
      this.model,
      { ...prompt, purpose: "understand", ...(request.signal === undefined ? {} : { signal: request.signal }) },
      { what: "Goal understanding", usage, timeouts: this.#timeouts },
    );
    const parser = createJsonStreamParser();
    parser.write(text);
    let value: unknown;
    try {
      value = parser.end();
    } catch {
      value = undefined;
    }
    if (Array.isArray(value)) value = value[0];
    return readGoal(value, request.query);
  }
}
