/**
 * Reflection whose model calls are durable steps named by their place.
 *
 * @module
 */
import type { Reflector } from "../../src/index.ts";
import { nameModelCalls } from "./name-model-calls.ts";

/**
 * The run's reflector for a Workflow: `createModelReflector`'s, whose model
 * call for the n-th reflection on a step is the durable step
 * `model:reflect:<step id>:<n>` (`nameModelCalls`) — a name that does
 * not depend on timing, so a replay finds the verdict the first execution
 * got (the reflections on one step come one after another).
 *
 * @param inner - the reflector.
 * @returns the reflector that names its model calls.
 *
 * @example
 * ```ts
 * new AgentRuntime({ planner, registry, model: createDurableModel(model, step), reflector: createDurableReflector(createModelReflector()) });
 * ```
 */
export function createDurableReflector(inner: Reflector): Reflector {
  const counts = new Map<string, number>();
  return {
    reflect(request) {
      const count = (counts.get(request.step.id) ?? 0) + 1;
      counts.set(request.step.id, count);
      const model = request.model;
      return inner.reflect(
        model === undefined
          ? request
          : { ...request, model: nameModelCalls(model, `model:reflect:${request.step.id.slice(0, 200)}:${count}`) },
      );
    },
  };
}
