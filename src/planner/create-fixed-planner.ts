/**
 * A planner that always answers with the same plan, for tests.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { createPlanValidator } from "../validate/create-plan-validator.ts";
import type { Planner } from "./planner.ts";
import type { PlannerEvent, PlanRequest, ReplanRequest } from "./planner-event.ts";

/** Options of {@link createFixedPlanner}. */
export interface FixedPlannerOptions {
  /**
   * The patch after a failure, as the runtime asks for it: steps in the
   * runtime's form (`arguments`, not the wire format's `args`), which may
   * reference the completed steps by id. They are used as given.
   *
   * @defaultValue no patch (`[]`): the run ends with the failure
   */
  replan?: (request: ReplanRequest) => readonly PlanStep[] | PromiseLike<readonly PlanStep[]>;
}

/** A planner that plans with no model: what {@link createFixedPlanner} returns. */
export interface FixedPlanner extends Planner {
  /** The plan requests received, in order. */
  readonly requests: readonly PlanRequest[];
  /** The re-plan requests received, in order. */
  readonly replans: readonly ReplanRequest[];
}

/**
 * Creates a planner that answers every request with a fixed plan, for
 * testing an application's tools, policies and UI without a model. The
 * steps go through the same validation as a model's (tool names, arguments
 * against the tools' schemas, references, a closing reply): an invalid step
 * is reported as an `issue` event and dropped, and the plan is then not
 * clean — so a test sees what a model writing that plan would cause.
 *
 * @param steps - the plan, or a function of the request that returns it
 *   (steps in the wire format: `{"id","type":"tool","name","args"}`, …).
 * @param options - how to answer re-plans.
 * @returns the planner.
 * @throws PlankitError `invalid-options` when `steps` is neither an array nor a function.
 *
 * @example
 * ```ts
 * import { AgentRuntime, ToolRegistry } from "plankit";
 * import { createFixedPlanner } from "plankit/test";
 *
 * const registry = new ToolRegistry().register({
 *   name: "add",
 *   description: "Adds two numbers",
 *   inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *   annotations: { readOnlyHint: true },
 *   execute: ({ a, b }: { a: number; b: number }) => a + b,
 * });
 * const planner = createFixedPlanner([
 *   { id: "s1", type: "tool", name: "add", args: { a: 2, b: 3 } },
 *   { id: "s2", type: "reply", text: "2 + 3 = {{s1}}" },
 * ]);
 * const run = new AgentRuntime({ planner, registry }).run("add 2 and 3");
 * console.log((await run.done).reply?.text); // 2 + 3 = 5
 * ```
 */
export function createFixedPlanner(
  steps: readonly unknown[] | ((request: PlanRequest) => readonly unknown[]),
  options: FixedPlannerOptions = {},
): FixedPlanner {
  if (!Array.isArray(steps) && typeof steps !== "function") {
    throw new PlankitError(
      "invalid-options",
      `createFixedPlanner needs an array of steps or a function returning one, got ${steps === null ? "null" : typeof steps}`,
    );
  }
  const requests: PlanRequest[] = [];
  const replans: ReplanRequest[] = [];
  return {
    requests,
    replans,
    async *stream(request: PlanRequest): AsyncGenerator<PlannerEvent, void> {
      requests.push(request);
      const raw = typeof steps === "function" ? steps(request) : steps;
      if (!Array.isArray(raw))
        throw new PlankitError(
          "invalid-options",
          `The fixed planner's function returned ${raw === null ? "null" : typeof raw}, not an array of steps`,
        );
      const validator = createPlanValidator(request.tools);
      let index = 0;
      for (const step of raw) {
        if (request.signal?.aborted === true)
          throw new PlankitError("aborted", "Planning was aborted", { cause: request.signal.reason });
        const result = validator.push(step);
        for (const issue of result.issues) yield { type: "issue", issue, action: "dropped" };
        if (result.step !== undefined && result.issues.length === 0)
          yield { type: "step", step: result.step, index: index++ };
      }
      const closing = validator.end();
      for (const issue of closing) yield { type: "issue", issue, action: "dropped" };
      yield {
        type: "done",
        steps: [...validator.steps],
        clean: validator.issues.length === 0,
        finishReason: "stop",
        fallback: false,
        usage: { modelCalls: 0 },
      };
    },
    async replan(request: ReplanRequest): Promise<PlanStep[]> {
      replans.push(request);
      if (options.replan === undefined) return [];
      return [...(await options.replan(request))];
    },
  };
}
