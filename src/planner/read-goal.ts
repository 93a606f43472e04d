/**
 * Reading a model's goal-understanding answer.
 *
 * @module
 */

import { pickField } from "../plan/pick-field.ts";
import { isRecord } from "../shared/is-record.ts";
import type { GoalLevel, PlanGoal } from "./plan-goal.ts";

const levels: Readonly<Record<string, GoalLevel>> = {
  high: "high",
  medium: "medium",
  mid: "medium",
  moderate: "medium",
  low: "low",
  高: "high",
  中: "medium",
  低: "low",
};

// Secrets in the request call for care with data (a "security" constraint).
const sensitivePattern =
  /password|passphrase|passcode|secret|api[\s_-]?key|private[\s_-]?key|access[\s_-]?token|credential|密码|密钥|口令|私钥|令牌/iu;

/**
 * Reads a list of strings, tolerating a single string.
 *
 * @param value - the raw value.
 * @returns the non-blank strings.
 */
function strings(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items
    .map((item) => (typeof item === "string" ? item.trim() : typeof item === "number" ? String(item) : ""))
    .filter((item) => item !== "");
}

/**
 * Reads a text field.
 *
 * @param value - the raw value.
 * @returns the trimmed text, or `undefined` when blank or not text.
 */
function text(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" || /^(?:none|null|n\/a|无)$/iu.test(trimmed) ? undefined : trimmed;
}

/**
 * Reads a goal from a parsed model answer, accepting this library's keys
 * (`objective`, `requirements`, `constraints`, `metrics`, `time`, `quality`,
 * `uncertainty`, `risks`, `resources`) and snake_case goal keys
 * (`core_objective`, `implicit_requirements`, `key_metrics`,
 * `time_constraint`, `quality_requirement`, `uncertainty_level`,
 * `risk_factors`, `required_resources`; levels 高/中/低). Anything unreadable
 * falls back to the query as the objective. `sensitive` comes from the query
 * itself, not from the model.
 *
 * @param value - the parsed answer (any JSON value, or `undefined`).
 * @param query - the request, the fallback objective.
 * @returns the goal.
 *
 * @example
 * ```ts
 * readGoal({ core_objective: "Analyse sales", time_constraint: "Q1-Q2", quality_requirement: "高" }, "…");
 * // { objective: "Analyse sales", time: "Q1-Q2", quality: "high", constraints: [], … }
 * ```
 */
export function readGoal(value: unknown, query: string): PlanGoal {
  const raw = isRecord(value) ? value : {};
  const goal: PlanGoal = {
    objective: text(pickField(raw, "objective", "core_objective", "goal", "description")) ?? query.trim(),
    requirements: strings(pickField(raw, "requirements", "implicit_requirements")),
    constraints: strings(pickField(raw, "constraints")),
    metrics: strings(pickField(raw, "metrics", "key_metrics")),
    risks: strings(pickField(raw, "risks", "risk_factors")),
    resources: strings(pickField(raw, "resources", "required_resources")),
    sensitive: sensitivePattern.test(query),
  };
  const time = text(pickField(raw, "time", "time_constraint"));
  if (time !== undefined) goal.time = time;
  const quality = text(pickField(raw, "quality", "quality_requirement"));
  if (quality !== undefined && levels[quality.toLowerCase()] !== undefined)
    goal.quality = levels[quality.toLowerCase()] as GoalLevel;
  const uncertainty = text(pickField(raw, "uncertainty", "uncertainty_level"));
  if (uncertainty !== undefined && levels[uncertainty.toLowerCase()] !== undefined)
    goal.uncertainty = levels[uncertainty.toLowerCase()] as GoalLevel;
  return goal;
}
