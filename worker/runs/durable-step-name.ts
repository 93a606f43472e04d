/**
 * Names of the durable steps of a plan.
 *
 * @module
 */
import { canonicalJson } from "../../src/json.ts";

/**
 * Names the Workflow step that runs a plan step: the step id, `#`, and the
 * first 12 hex digits of the SHA-256 of its resolved input (canonical
 * JSON). The engine stores results by name, so a replay finds the step it
 * ran before, while a step whose input changed (after a re-plan) is a new
 * step rather than a stale result.
 *
 * @param stepId - the plan step's id.
 * @param input - its resolved arguments or prompt.
 * @returns the name, e.g. `s2#4f1c0a9be23d`.
 *
 * @example
 * ```ts
 * await durableStepName("s1", { expr: "21*2+5" }); // "s1#…"
 * ```
 */
export async function durableStepName(stepId: string, input: unknown): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalJson(input ?? null))),
  );
  const hex = [...digest.slice(0, 6)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${stepId.slice(0, 200)}#${hex}`;
}
