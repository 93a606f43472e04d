/**
 * The planner of native tool calls.
 *
 * @module
 */
import type { PlanModel } from "../model/plan-model.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { compileCatalog } from "../tools/compile-catalog.ts";
import { buildToolCallPrompt } from "./build-tool-call-prompt.ts";
import { finalSteps } from "./final-steps.ts";
import type { Planner } from "./planner.ts";
import type { PlannerEvent, PlanRequest, ReplanRequest } from "./planner-event.ts";
import { checkOption, type PlannerOptions, type PlannerSetup, readPlannerOptions } from "./read-planner-options.ts";
import { selectShownTools } from "./select-shown-tools.ts";
import { streamReplanAttempts } from "./stream-replan-attempts.ts";
import { streamToolCallTurns } from "./stream-tool-call-turns.ts";

/** Options of the {@link ToolCallPlanner} constructor. */
export interface ToolCallPlannerOptions extends PlannerOptions {
  /**
   * The most model turns (each may call tools; the results go back to the
   * model for the next).
   *
   * @defaultValue `8`
   */
  maxTurns?: number;
}

/**
 * Plans from a model's native tool calls (function calling): the selected
 * tools are offered to the model, and each call becomes a step the moment
 * its arguments close; turn after turn, the results go back to the model
 * until it answers in text (see `streamToolCallTurns` and
 * docs/native-tool-calls.md). A re-plan after a failure is a JSON patch,
 * as with `LLMPlanner`. The options are `LLMPlanner`'s, without `mode`,
 * with `maxTurns`.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner: new ToolCallPlanner({ model }), registry });
 * ```
 */
export class ToolCallPlanner implements Planner {
  /** The model; a runtime may use it for `llm` steps and result integration too. */
  readonly model: PlanModel;
  /** The most steps in all turns, the reply included. */
  readonly maxSteps: number;
  /** The most model turns. */
  readonly maxTurns: number;
  /** Whether one repair re-ask is made when re-planning. */
  readonly repair: boolean;
  /** How many tools are offered when a `select` function picks them. */
  readonly topK: number;
  /** The model hears what became of the calls of each turn: the runtime asks no reflector about them. */
  readonly hearsOutcomes = true;
  readonly #setup: PlannerSetup;

  /**
   * @param options - the model and the planning options.
   * @throws PlankitError `invalid-options` for an unknown option, or a bad `model`, `maxSteps`, `maxTurns`, `topK`, `select` or `modelTimeouts`.
   */
  constructor(options: ToolCallPlannerOptions) {
    this.#setup = readPlannerOptions(options, "ToolCallPlanner", ["maxTurns"], 24, {
      mode: "it plans from native tool calls; LLMPlanner plans direct or sketched",
    });
    const maxTurns = options.maxTurns ?? 8;
    checkOption("maxTurns", maxTurns, Number.isInteger(maxTurns) && maxTurns >= 1, "an integer >= 1");
    this.model = options.model;
    this.maxTurns = maxTurns;
    ({ maxSteps: this.maxSteps, topK: this.topK, repair: this.repair } = this.#setup);
  }

  /**
   * Plans and returns the steps (see {@link ToolCallPlanner.stream}).
   *
   * @param request - profile, query, tools, context and signal.
   * @returns the validated steps; never empty, always ending with a reply.
   * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
   */
  async plan(request: PlanRequest): Promise<PlanStep[]> {
    return finalSteps(this.stream(request));
  }

  /**
   * Streams a plan turn by turn: a `step` event for each call the moment
   * its arguments close and validate, `turn-end` after each turn (with
   * `awaitOutcomes`, the outcomes go back to the model for the next), then
   * the reply and `done`.
   *
   * @param request - profile, query, tools, context, signal and `awaitOutcomes`.
   * @returns the events.
   * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
   */
  async *stream(request: PlanRequest): AsyncGenerator<PlannerEvent, void> {
    const catalog = compileCatalog(request.tools);
    const tools = await selectShownTools(this.#setup, request.query, catalog);
    yield* streamToolCallTurns({
      ...request,
      ...this.#setup.settings,
      prompt: buildToolCallPrompt(request),
      catalog,
      tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
      maxTurns: this.maxTurns,
      usage: { modelCalls: 0 },
    });
  }

  /**
   * Asks for a patch after a failure and returns it (see {@link ToolCallPlanner.streamReplan}).
   *
   * @param request - the query, tools, and the completed, failed and remaining steps.
   * @returns the new steps; never empty, ending with a reply.
   * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
   */
  async replan(request: ReplanRequest): Promise<PlanStep[]> {
    return finalSteps(this.streamReplan(request));
  }

  /**
   * Streams a re-planning patch, as `LLMPlanner.streamReplan` does.
   *
   * @param request - the query, tools, and the completed, failed and remaining steps.
   * @returns the events.
   * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
   */
  streamReplan(request: ReplanRequest): AsyncGenerator<PlannerEvent, void> {
    return streamReplanAttempts(this.#setup, request);
  }
}
