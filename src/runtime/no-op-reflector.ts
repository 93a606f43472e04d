/**
 * A reflector that has no opinion.
 *
 * @module
 */
import type { Reflector } from "../planner/reflector.ts";

/**
 * A reflector that never decides anything, so a failed step goes straight
 * to re-planning and no model call is spent on reflection.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner, registry, reflector: noOpReflector });
 * ```
 */
export const noOpReflector: Reflector = {
  reflect: () => undefined,
};
