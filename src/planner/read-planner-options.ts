/**
 * The options every model-driven planner shares, and how they are read.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { defaultModelTimeouts, type ModelTimeouts } from "../model/bound-stream.ts";
import type { PlanModel } from "../model/plan-model.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
import type { CompiledCatalog } from "../tools/compile-catalog.ts";
import type { ToolDescriptor } from "../tools/tool-descriptor.ts";
import { buildClarification, type ClarifyFunction } from "./build-clarification.ts";
import type { PlanAttemptsSetup } from "./plan-attempts-setup.ts";

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

/** The options of `LLMPlanner` and `ToolCallPlanner` alike. */
export interface PlannerOptions {
  /** The model that writes the plans. */
  model: PlanModel;
  /**
   * The most steps a plan may have, the reply included.
   *
   * @defaultValue `6` for `LLMPlanner`; `24` for `ToolCallPlanner` (all turns together)
   */
  maxSteps?: number;
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
  modelTimeouts?: Partial<ModelTimeouts>;
}

/** The options as a planner keeps them. */
export interface PlannerSetup {
  maxSteps: number;
  topK: number;
  repair: boolean;
  select: ToolSelector | undefined;
  /** The settings every planning call shares: the model, limits, repair and clarification. */
  settings: Pick<
    PlanAttemptsSetup,
    "model" | "maxSteps" | "repair" | "clarify" | "fallbackText" | "knowledgeBaseTool" | "timeouts"
  >;
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
export function checkOption(name: string, value: unknown, passes: boolean, expected: string): void {
  if (!passes)
    throw new PlankitError("invalid-options", `Option ${name} must be ${expected}, got ${describeValue(value)}`);
}

/**
 * Checks the `model` option.
 *
 * @param model - the option's value.
 * @throws PlankitError `invalid-options` unless it is a `PlanModel`.
 */
export function checkModel(model: unknown): void {
  const has = (method: string) => typeof (model as Record<string, unknown> | undefined)?.[method] === "function";
  // A planner has stream() too, but streams plans: its model is what plans.
  const planner = has("plan") && has("replan");
  checkOption(
    "model",
    model,
    has("stream") && !planner,
    `a PlanModel with a stream() method${planner ? " (a planner was given: pass planner.model)" : ""}`,
  );
}

/**
 * Checks the `modelTimeouts` option.
 *
 * @param timeouts - the option's value.
 * @returns it, or the default limits when it is not given.
 * @throws PlankitError `invalid-options` naming a limit that is not a number > 0.
 */
export function readModelTimeouts(timeouts: Partial<ModelTimeouts> | undefined): ModelTimeouts {
  if (timeouts === undefined) return defaultModelTimeouts;
  checkOption("modelTimeouts", timeouts, isRecord(timeouts), "an object { idleMs?, totalMs? }");
  checkOptionKeys(timeouts, ["idleMs", "totalMs"], "modelTimeouts");
  const read = { ...defaultModelTimeouts };
  for (const key of ["idleMs", "totalMs"] as const) {
    const value: unknown = timeouts[key] ?? read[key];
    checkOption(`modelTimeouts.${key}`, value, typeof value === "number" && value > 0, "a number > 0");
    read[key] = value as number;
  }
  return read;
}

/**
 * Reads and checks a planner's options: the shared ones, and the names of
 * its own (checked by the planner).
 *
 * @param options - the options.
 * @param owner - the planner's name, for messages.
 * @param own - the names of the planner's own options.
 * @param maxSteps - the planner's default `maxSteps`.
 * @param elsewhere - options of the other planner, each with where it belongs.
 * @returns the options as the planner keeps them.
 * @throws PlankitError `invalid-options` for an unknown option, an option of the other planner, or a value of the wrong kind.
 */
export function readPlannerOptions(
  options: PlannerOptions,
  owner: string,
  own: readonly string[],
  maxSteps: number,
  elsewhere: Readonly<Record<string, string>>,
): PlannerSetup {
  checkModel(options?.model);
  for (const [name, whose] of Object.entries(elsewhere))
    if (Object.hasOwn(options, name))
      throw new PlankitError("invalid-options", `${owner} takes no option ${name}: ${whose}`);
  checkOptionKeys(
    options,
    [..."model maxSteps repair topK select clarify fallbackText knowledgeBaseTool modelTimeouts".split(" "), ...own],
    owner,
  );
  const { select, repair = true, clarify, fallbackText = "(plan unavailable)", knowledgeBaseTool } = options;
  const setup = { maxSteps: options.maxSteps ?? maxSteps, topK: options.topK ?? 6 };
  for (const name of ["maxSteps", "topK"] as const) {
    const value = setup[name];
    checkOption(name, value, Number.isInteger(value) && value >= 1, "an integer >= 1");
  }
  const kinds: [string, unknown, string, string][] = [
    ["select", select, "function", "a function"],
    ["repair", repair, "boolean", "true or false"],
    ["clarify", clarify, typeof clarify === "boolean" ? "boolean" : "function", "true, false or a function"],
    ["fallbackText", fallbackText, "string", "a string"],
    ["knowledgeBaseTool", knowledgeBaseTool, "string", "a tool name"],
  ];
  for (const [name, value, kind, expected] of kinds)
    checkOption(name, value, value === undefined || typeof value === kind, expected);
  return {
    ...setup,
    repair,
    select,
    settings: {
      model: options.model,
      maxSteps: setup.maxSteps,
      repair,
      clarify: clarify === true ? buildClarification : clarify === false ? undefined : clarify,
      fallbackText,
      knowledgeBaseTool,
      timeouts: readModelTimeouts(options.modelTimeouts),
    },
  };
}
