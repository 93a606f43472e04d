/**
 * Turning a whole plan, in any accepted input shape, into canonical steps.
 *
 * @module
 */
import { describeType, describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
import { findTooDeep, MAX_STEP_DEPTH } from "./find-too-deep.ts";
import { type NormalizeSketchOptions, normalizeEntries, normalizeSketch, type PlanEntry } from "./normalize-sketch.ts";
import type { PlanIssue } from "./plan-issue.ts";
import type { PlanStep } from "./plan-step-schema.ts";
import { taskGraphToSketch } from "./task-graph-to-sketch.ts";

/** How issues name the parts of a TaskBench task graph read as a sketch. */
const taskGraphWording = { vertices: "task_nodes", edges: "task_links", vertex: "node", edge: "link" };

/** Options of {@link normalizePlan}. */
export type NormalizePlanOptions = NormalizeSketchOptions;

/** The result of {@link normalizePlan}. */
export interface NormalizePlanResult {
  /** The steps that could be read, in plan order. */
  steps: PlanStep[];
  /** Structural problems (`invalid-step`, and for sketches `duplicate-id` / `unknown-reference` on vertices and edges). */
  issues: PlanIssue[];
}

/**
 * Normalizes a plan to canonical steps. Accepted shapes: an array of steps;
 * `{ steps: [...] }` (or `{ plan: [...] }`); a single step object; a DAG
 * sketch `{ vertices, edges }`; a TaskBench task graph `{ task_nodes,
 * task_links }` (read as a sketch, see `taskGraphToSketch`). Each step may be in any shape
 * {@link normalizeStep} accepts. Steps that cannot be read are left out and
 * reported as `invalid-step`; the others keep their position as `index`.
 * Never throws for bad input.
 *
 * This checks structure only; `validatePlan` adds tools, arguments,
 * references, ids, `maxSteps` and the final reply.
 *
 * @param raw - a parsed plan, as produced by a model.
 * @param options - the knowledge-base tool, positional sketch argument names, the appended sketch reply.
 * @returns the canonical steps and the issues.
 *
 * @example
 * ```ts
 * normalizePlan([
 *   { type: "tool", name: "calculator", arguments: { expr: "21*2+5" } },
 *   { type: "reply", text: "{{s1}}" },
 * ]);
 * // { steps: [{ id: "s1", type: "tool", … }, { id: "s2", type: "reply", text: "{{s1}}" }], issues: [] }
 * ```
 */
export function normalizePlan(raw: unknown, options: NormalizePlanOptions = {}): NormalizePlanResult {
  const { entries, issues } = readPlanEntries(raw, options);
  return { steps: entries.map((entry) => entry.step), issues };
}

/**
 * {@link normalizePlan}, keeping each step's position in the plan.
 *
 * @param raw - a parsed plan.
 * @param options - normalization options.
 * @returns the steps with their positions, the issues, and the number of positions the plan has.
 */
export function readPlanEntries(
  raw: unknown,
  options: NormalizePlanOptions = {},
): { entries: PlanEntry[]; issues: PlanIssue[]; count: number } {
  const fail = (message: string): { entries: PlanEntry[]; issues: PlanIssue[]; count: number } => ({
    entries: [],
    issues: [{ code: "invalid-step", index: -1, path: "", message }],
    count: 0,
  });
  if (isRecord(raw) && (Array.isArray(raw["vertices"]) || Array.isArray(raw["task_nodes"]))) {
    // A sketch or a task graph is walked whole: measured first, like a step (`normalizeStep`).
    const tooDeep = findTooDeep(raw, MAX_STEP_DEPTH + 2);
    if (tooDeep !== undefined) return fail(`The plan nests deeper than ${MAX_STEP_DEPTH + 2} levels, at ${tooDeep}`);
    const sketch = Array.isArray(raw["vertices"])
      ? normalizeSketch(raw, options)
      : normalizeSketch(taskGraphToSketch(raw), options, taskGraphWording);
    return { ...sketch, count: (sketch.entries.at(-1)?.position ?? -1) + 1 };
  }
  const list = Array.isArray(raw)
    ? raw
    : !isRecord(raw)
      ? undefined
      : Array.isArray(raw["steps"])
        ? raw["steps"]
        : Array.isArray(raw["plan"])
          ? raw["plan"]
          : ["type", "action", "step_id", "name", "text", "prompt"].some((key) => Object.hasOwn(raw, key))
            ? [raw]
            : undefined;
  if (list === undefined)
    return fail(
      `A plan must be an array of steps, an object with "steps", a sketch with "vertices" or a task graph with "task_nodes"; got ${describeType(raw)} ${describeValue(raw)}`,
    );
  return { ...normalizeEntries(list, options), count: list.length };
}
