/**
 * The compact step shape models are asked to write.
 *
 * @module
 */
import type { PlanStep } from "./plan-step-schema.ts";

/**
 * A step in the shape the planning prompt asks models to write: the step
 * type is implied by its one distinctive key (`tool`, `prompt` or `reply`).
 * Every output token is latency, and this shape spends about a quarter fewer
 * tokens on structure than the canonical one; `normalizeStep` reads both.
 */
export type CompactStep =
  | ({ id: string; tool: string; args: Record<string, unknown> } & CompactPolicy)
  | ({ id: string; prompt: string } & CompactPolicy)
  | ({ id: string; reply: string } & CompactPolicy);

type CompactPolicy = Pick<PlanStep, "dependsOn" | "description" | "retries" | "timeoutMs">;

/**
 * Writes a canonical step in the compact shape models are asked for.
 *
 * @param step - a canonical step.
 * @returns the same step as `{id, tool, args}`, `{id, prompt}` or `{id, reply}`, with its policy fields.
 *
 * @example
 * ```ts
 * toCompactStep({ id: "s1", type: "tool", name: "search", arguments: { q: "x" } });
 * // { id: "s1", tool: "search", args: { q: "x" } }
 * ```
 */
export function toCompactStep(step: PlanStep): CompactStep {
  const { id, type: _type, dependsOn, description, retries, timeoutMs } = step;
  const head =
    step.type === "tool"
      ? { id, tool: step.name, args: step.arguments }
      : step.type === "llm"
        ? { id, prompt: step.prompt }
        : { id, reply: step.text };
  const compact: CompactStep = { ...head };
  if (dependsOn !== undefined) compact.dependsOn = dependsOn;
  if (description !== undefined) compact.description = description;
  if (retries !== undefined) compact.retries = retries;
  if (timeoutMs !== undefined) compact.timeoutMs = timeoutMs;
  return compact;
}
