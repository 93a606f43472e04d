/**
 * Durable step names for model calls whose place in the run is known.
 *
 * @module
 */
import type { PlanModel, PlanModelRequest } from "../../src/model.ts";

/** Names given to requests by {@link nameModelCalls}; the runtime hands the same request object down to the model. */
const names = new WeakMap<PlanModelRequest, string>();

/**
 * Names the durable steps of the calls made through `model`: each request
 * is stored under `name` (a second call, the name's next occurrence). For
 * callers whose place in the run is known and stable across replays, while
 * their prompt may not be (a reflection's prompt shows the results done so
 * far, which depends on timing).
 *
 * @param model - the model a caller gets (the runtime's guarded model).
 * @param name - the step name of its calls.
 * @returns the model that names its calls.
 *
 * @example
 * ```ts
 * const named = nameModelCalls(request.model, `model:reflect:${request.step.id}:1`);
 * ```
 */
export function nameModelCalls(model: PlanModel, name: string): PlanModel {
  return {
    stream(request) {
      const named = { ...request };
      names.set(named, name);
      return model.stream(named);
    },
  };
}

/**
 * The name {@link nameModelCalls} gave a request, if any.
 *
 * @param request - a request as the model receives it.
 * @returns the step name, or `undefined`.
 *
 * @example
 * ```ts
 * const name = readModelCallName(request) ?? `model:${request.purpose}:1`;
 * ```
 */
export function readModelCallName(request: PlanModelRequest): string | undefined {
  return names.get(request);
}
