/**
 * Checking a candidate step against the step schemas without running them.
 *
 * @module
 */
import { isRecord } from "../shared/is-record.ts";
import { CONTEXT_REFERENCE_ROOT } from "./context-reference-root.ts";
import type { PlanStep } from "./plan-step-schema.ts";
import { stepMessages as m, STEP_ID_PATTERN } from "./step-messages.ts";

/** One thing wrong with a candidate step. */
interface StepProblem {
  /** The keys from the step to the offending value. */
  path: (string | number)[];
  /** What the value must be. */
  message: string;
  /** The offending value. */
  input: unknown;
}

/** The result of {@link checkPlanStep}. */
export type PlanStepCheck = { ok: true; step: PlanStep } | { ok: false; problems: StepProblem[] };

/** Checks one field, pushing its problems; returns the field's output value. */
type FieldCheck = (value: unknown, path: (string | number)[], problems: StepProblem[]) => unknown;

/** A field's rules, each a message and the test its value must pass; a failing first rule ends the check. */
function rules(...list: [message: string, passes: (value: never) => boolean][]): FieldCheck {
  return (value, path, problems) => {
    for (const [index, [message, passes]] of list.entries()) {
      if ((passes as (value: unknown) => boolean)(value)) continue;
      problems.push({ path, message, input: value });
      if (index === 0) break;
    }
    return value;
  };
}

const checkId = rules(
  [m.idType, (value) => typeof value === "string"],
  [m.idEmpty, (value: string) => value.length > 0],
  [m.idPattern, (value: string) => STEP_ID_PATTERN.test(value)],
  [m.idReserved, (value) => value !== CONTEXT_REFERENCE_ROOT],
);
const text = (type: string, empty: string): FieldCheck =>
  rules([type, (value) => typeof value === "string"], [empty, (value: string) => value.length > 0]);
const isNumber = (value: unknown): boolean => typeof value === "number" && !Number.isNaN(value);

/** The policy fields every step may carry, in the order the step schemas list them. */
const policyFields: [string, FieldCheck][] = [
  [
    "dependsOn",
    (value, path, problems) => {
      if (!Array.isArray(value)) return rules([m.dependsOn, () => false])(value, path, problems);
      return value.map((item, index) => checkId(item, [...path, index], problems));
    },
  ],
  ["description", rules([m.description, (value) => typeof value === "string"])],
  [
    "retries",
    rules(
      [m.retriesType, isNumber],
      [m.retriesInteger, Number.isInteger],
      [m.retriesNegative, (value: number) => value >= 0],
    ),
  ],
  [
    "timeoutMs",
    rules(
      [m.timeoutType, isNumber],
      [m.timeoutPositive, (value: number) => value > 0],
      [m.timeoutFinite, Number.isFinite],
    ),
  ],
];

/** The required fields of each step type after `id` and `type`. */
const typeFields: Record<PlanStep["type"], [string, FieldCheck][]> = {
  tool: [
    ["name", text(m.nameType, m.nameEmpty)],
    ["arguments", rules([m.arguments, isRecord])],
  ],
  llm: [["prompt", text(m.promptType, m.promptEmpty)]],
  reply: [["text", text(m.textType, m.textEmpty)]],
};

/**
 * Checks a candidate step as `v.safeParse(PlanStepSchema, candidate)` does —
 * the same problems, in the same order, with the same messages — without
 * the schema library on the path every plan takes. The step has its fields
 * in schema order and nothing else; `dependsOn` is a new array.
 *
 * @param candidate - a step object.
 * @returns `{ ok: true, step }`, or `{ ok: false, problems }`.
 *
 * @example
 * ```ts
 * checkPlanStep({ id: "s1", type: "reply", text: "" });
 * // { ok: false, problems: [{ path: ["text"], message: "the reply text must not be empty", input: "" }] }
 * ```
 */
export function checkPlanStep(candidate: Record<string, unknown>): PlanStepCheck {
  const type = candidate["type"];
  if (!("type" in candidate) || typeof type !== "string" || !Object.hasOwn(typeFields, type)) {
    return { ok: false, problems: [{ path: ["type"], message: m.type, input: type }] };
  }
  const problems: StepProblem[] = [];
  const step: Record<string, unknown> = {};
  const required: [string, FieldCheck][] = [
    ["id", checkId],
    ["type", (value) => value],
    ...typeFields[type as PlanStep["type"]],
  ];
  for (const [key, check] of required) {
    if (key in candidate) step[key] = check(candidate[key], [key], problems);
    else
      problems.push({
        path: [key],
        message: `Invalid key: Expected "${key}" but received undefined`,
        input: undefined,
      });
  }
  for (const [key, check] of policyFields) {
    if (!(key in candidate)) continue;
    const value = candidate[key];
    step[key] = value === undefined ? undefined : check(value, [key], problems);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, step: step as PlanStep };
}
