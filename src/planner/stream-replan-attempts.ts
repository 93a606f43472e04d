/**
 * Re-planning after a failure, for the model-driven planners.
 *
 * @module
 */
import { compileCatalog } from "../tools/compile-catalog.ts";
import { buildReplanPrompt } from "./build-replan-prompt.ts";
import type { PlannerEvent, ReplanRequest } from "./planner-event.ts";
import type { PlannerSetup } from "./read-planner-options.ts";
import { selectShownTools } from "./select-shown-tools.ts";
import { streamPlanAttempts } from "./stream-plan-attempts.ts";

/**
 * Streams a re-planning patch: new steps for what is left after a failure.
 * The completed steps are in the validation context, so new steps may
 * reference them by id; a step repeating one of them is skipped, and the
 * failed steps' ids may be neither reused nor referenced. The events are
 * those of a plan's stream; `done.steps` is the patch alone.
 *
 * @param setup - the planner's options.
 * @param request - the query, tools, and the completed, failed and remaining steps.
 * @returns the events.
 * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
 */
export async function* streamReplanAttempts(
  setup: PlannerSetup,
  request: ReplanRequest,
): AsyncGenerator<PlannerEvent, void> {
  const { query, profile, completed, failed, remaining } = request;
  const catalog = compileCatalog(request.tools);
  const tools = await selectShownTools(setup, query, catalog);
  yield* streamPlanAttempts({
    ...setup.settings,
    // Only the fields a re-plan shows: a request carries no context.
    prompt: buildReplanPrompt({ query, tools, profile, completed, failed, remaining, maxSteps: setup.maxSteps }),
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
